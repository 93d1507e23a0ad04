import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { fizzTextChunks } from "./scripts/fizz-text-chunks";
import { reactRouterRouteTables } from "./scripts/react-router-route-tables";

export default defineConfig({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      // Local D1/R2/Durable Object state lives in `<PERSIST_DIR>/v3`, the directory the migrations and the seed write
      // to (scripts/prepare-local.mjs); the default is wrangler's own `.wrangler/state`.
      persistState: process.env.PERSIST_DIR ? { path: process.env.PERSIST_DIR } : true,
    }),
    tailwindcss(),
    reactRouter(),
    // React's server renderer encodes a page's text in a few pieces instead of thousands (decision 250).
    fizzTextChunks(),
    // React Router's server builds its route tables once per isolate instead of once per page (decision 320).
    reactRouterRouteTables(),
  ],
  resolve: { tsconfigPaths: true },
});
