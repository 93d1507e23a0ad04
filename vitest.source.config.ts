import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vitest/config";
import { BUILT_ONLY_TESTS, workerdTests } from "./vitest.config";

// The workerd tests against the SOURCE Worker (workers/app.ts), no build: `npm run test:source [-- tests/x.test.ts]`
// while working. React Router's Vite plugin serves the app (virtual:react-router/server-build) to the Worker from the
// source, as the dev server does. CI and `npm test` keep testing the built Worker (vitest.config.ts); the tests of
// what only the build does are left out here.
export default defineConfig(() =>
  workerdTests({ main: "./workers/app.ts", plugins: [reactRouter()], exclude: BUILT_ONLY_TESTS }),
);
