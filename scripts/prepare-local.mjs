// The local steps shared by `npm start`, `npm run dev` and `npm run test:e2e`: a .dev.vars file, the D1 migrations
// and the demo seed, all in one persist directory (PERSIST_DIR, default .wrangler/state). Wrangler, wrangler's
// getPlatformProxy (used by the seed) and the Cloudflare vite plugin (dev and preview) all keep their local D1, R2
// and Durable Object data under `<PERSIST_DIR>/v3`, so what the seed writes is what the app reads.
//
// Run directly (`node scripts/prepare-local.mjs`) it prepares the default directory and exits.
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const binDir = path.join(root, "node_modules", ".bin");

/** Node 22 or newer: the running one, else the one the `node` dev dependency installs (wrangler needs 22.12+). */
export const nodeBin =
  Number(process.versions.node.split(".")[0]) >= 22 ? process.execPath : path.join(binDir, "node");

/** The JavaScript entry of an installed tool's command (what node_modules/.bin/NAME links to). */
function toolEntry(name) {
  try {
    return realpathSync(path.join(binDir, name));
  } catch {
    throw new Error(`node_modules/.bin/${name} is missing: run \`npm install\` first`);
  }
}

/** Entry points of the tools, run with nodeBin so a machine's older Node never gets in the way. */
export const tools = {
  get wrangler() {
    return toolEntry("wrangler");
  },
  get vite() {
    return toolEntry("vite");
  },
  get reactRouter() {
    return toolEntry("react-router");
  },
  get tsx() {
    return toolEntry("tsx");
  },
};

/** The persist directory relative to the repository, from PERSIST_DIR (default .wrangler/state). */
export function persistDir() {
  return process.env.PERSIST_DIR || ".wrangler/state";
}

/** The environment for child processes: metrics off, non-interactive wrangler, our Node first on PATH. */
export function childEnv(extra = {}) {
  return {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ""}`,
    ...extra,
  };
}

/**
 * Runs `nodeBin script ...args` in the repository and resolves when it exits 0 (rejects otherwise).
 * SIGINT/SIGTERM received meanwhile are forwarded to the child.
 */
export function run(script, args, { env = childEnv(), input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBin, [script, ...args], {
      cwd: root,
      env,
      stdio: [input === undefined ? "ignore" : "pipe", "inherit", "inherit"],
    });
    if (input !== undefined) child.stdin.end(input);
    const forward = (signal) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(script)} ${args.join(" ")} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

/** Resolves once the server answers /api/health (any HTTP answer counts), or rejects after `timeoutMs`. */
export async function waitForServer(url, timeoutMs = 60_000, isAlive = () => true) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error("The server exited before it answered");
    try {
      await fetch(url, { signal: AbortSignal.timeout(5_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`No answer from ${url} after ${timeoutMs / 1000} s`);
}

/**
 * Copies .dev.vars.example to .dev.vars when there is none (local secrets such as SESSION_SECRET, DEMO_MODE).
 * `vite preview` reads the copy the build placed in build/server/, so a build made before .dev.vars existed gets it
 * too.
 */
export function ensureDevVars() {
  const target = path.join(root, ".dev.vars");
  if (!existsSync(target)) {
    copyFileSync(path.join(root, ".dev.vars.example"), target);
    console.log("Created .dev.vars from .dev.vars.example");
  }
  const built = path.join(root, "build", "server");
  if (existsSync(built)) copyFileSync(target, path.join(built, ".dev.vars"));
}

/** Applies every pending D1 migration to the local database (non-interactive). */
export async function applyMigrations(dir = persistDir()) {
  await run(tools.wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", dir], {
    env: childEnv({ CI: "true" }),
    input: "y\n",
  });
}

/** Runs the demo seed; it does nothing when the database already holds its marker. */
export async function seed(dir = persistDir()) {
  await run(tools.tsx, ["--tsconfig", "tsconfig.node.json", "scripts/seed.ts"], {
    // The seed only uses D1 and R2; wrangler's warning about the Durable Object binding would only be noise.
    env: childEnv({ PERSIST_DIR: dir, WRANGLER_LOG: process.env.WRANGLER_LOG ?? "error" }),
  });
}

/** .dev.vars, migrations and seed for the given persist directory. */
export async function prepareLocal(dir = persistDir()) {
  ensureDevVars();
  await applyMigrations(dir);
  await seed(dir);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  prepareLocal().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
