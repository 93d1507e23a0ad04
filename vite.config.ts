import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { fizzTextChunks } from "./patches/fizz-text-chunks";
import { reactRouterRouteTables } from "./patches/react-router-route-tables";

/** The patches of patches/README.md, less those PATCHES_LEFT_OUT names. */
function patches() {
  const leftOut = new Set((process.env.PATCHES_LEFT_OUT ?? "").split(",").filter(Boolean));
  const all = {
    // React's server renderer encodes a page's text in a few pieces instead of thousands (decision 250).
    "fizz-text-chunks": fizzTextChunks,
    // React Router's server builds its route tables once per isolate instead of once per page (decision 320).
    "react-router-route-tables": reactRouterRouteTables,
  };
  for (const name of leftOut) if (!(name in all)) throw new Error(`PATCHES_LEFT_OUT: no patch named ${name}`);
  return Object.entries(all)
    .filter(([name]) => !leftOut.has(name))
    .map(([, plugin]) => plugin());
}

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
    // The build's changes to React and React Router (patches/README.md). PATCHES_LEFT_OUT (names, comma-separated)
    // builds without some of them, for patches/measure.mjs only.
    ...patches(),
  ],
  resolve: { tsconfigPaths: true },
});
