// `node scripts/bench/serve.mjs <wrangler config> <persist dir> <port>`: serves a Worker on local workerd through
// Miniflare directly, with no proxy in front: the socket on <port> is workerd's own, as in production where the
// runtime takes the request. (`wrangler dev` puts a second workerd, its proxy Worker, in front of the user Worker,
// and `vite preview` a Node HTTP server; either hop costs about as much as a trivial Worker itself.)
//
// The Worker, its bindings, .dev.vars and static assets come from the wrangler config through wrangler's own
// unstable_getMiniflareWorkerOptions, and Miniflare is the declared dev dependency pinned to the exact version wrangler
// depends on (package.json; npm dedupes the two), so D1, R2 and Durable Object
// state under <persist dir>/v3 is the same that `wrangler d1 migrations apply --persist-to <persist dir>` wrote.
// The Worker must be prebuilt (no_bundle): every .js file next to `main` is attached as an ES module.
//
// Prints `READY http://127.0.0.1:<port>` once it answers; SIGTERM or SIGINT disposes of workerd and exits.
import { readdirSync } from "node:fs";
import path from "node:path";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

const [configArg, dirArg, portArg] = process.argv.slice(2);
if (!configArg || !dirArg || !portArg) {
  console.error("usage: node scripts/bench/serve.mjs <wrangler config> <persist dir> <port>");
  process.exit(2);
}

function jsFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

let mf;
let closing = false;
async function shutdown(code) {
  if (closing) return;
  closing = true;
  try {
    await mf?.dispose();
  } finally {
    process.exit(code);
  }
}
process.on("SIGTERM", () => void shutdown(0));
process.on("SIGINT", () => void shutdown(0));
// The bench talks to us over stdin: when it goes away (even killed), so do we.
process.stdin.on("end", () => void shutdown(0));
process.stdin.resume();

async function main() {
  const { workerOptions, main: mainPath } = unstable_getMiniflareWorkerOptions(configArg);
  if (!mainPath) throw new Error(`${configArg} names no main module`);
  const entry = path.resolve(path.dirname(path.resolve(configArg)), mainPath);
  const modulesRoot = path.dirname(entry);
  const modules = [entry, ...jsFiles(modulesRoot).filter((file) => path.resolve(file) !== entry)].map((file) => ({
    type: "ESModule",
    path: path.resolve(file),
  }));
  const persist = path.resolve(dirArg, "v3");
  mf = new Miniflare(
    convertV4MiniflareOptions({
      rootPath: process.cwd(),
      host: "127.0.0.1",
      port: Number(portArg),
      logRequests: false,
      resourcePersistencePath: persist,
      resourceTmpPath: path.resolve(dirArg, "tmp"),
      // BENCH_INSPECTOR_PORT: workerd's DevTools inspector on that port (scripts/bench/cpu-profile.mjs).
      ...(process.env.BENCH_INSPECTOR_PORT ? { inspectorPort: Number(process.env.BENCH_INSPECTOR_PORT) } : {}),
      workers: [{ ...workerOptions, rootPath: undefined, name: "bench", modulesRoot, modules }],
    }),
  );
  const url = await mf.ready;
  console.log(`READY ${url.origin}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  void shutdown(1);
});
