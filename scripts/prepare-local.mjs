// The local steps shared by `npm start`, `npm run dev` and `npm run test:e2e`: a .dev.vars file, the D1 migrations
// and the demo seed, all in one persist directory (PERSIST_DIR, default .wrangler/state). Wrangler, wrangler's
// getPlatformProxy (used by the seed) and the Cloudflare vite plugin (dev and preview) all keep their local D1, R2
// and Durable Object data under `<PERSIST_DIR>/v3`, so what the seed writes is what the app reads.
//
// Run directly (`node scripts/prepare-local.mjs`) it prepares the default directory and exits.
import { spawn, spawnSync } from "node:child_process";
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const binDir = path.join(root, "node_modules", ".bin");

/** Node 22 or newer: the running one, else the one the `node` dev dependency installs (wrangler needs 22.12+). */
export const nodeBin = Number(process.versions.node.split(".")[0]) >= 22 ? process.execPath : path.join(binDir, "node");

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

/**
 * The origin the built app is served at, for the absolute links in mail sent by webhooks and the cron (SITE_ORIGIN,
 * wrangler.toml's default being port 8787): written into the build's copy of .dev.vars, unless .dev.vars sets it.
 */
export function serveAt(origin) {
  const source = path.join(root, ".dev.vars");
  const vars = existsSync(source) ? readFileSync(source, "utf8") : "";
  if (/^\s*SITE_ORIGIN\s*=/m.test(vars)) return;
  const built = path.join(root, "build", "server", ".dev.vars");
  writeFileSync(built, `${vars.replace(/\n?$/, "\n")}SITE_ORIGIN=${origin}\n`);
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

/** The first executable file among `candidates`, or the first `names` found on PATH; undefined when none is. */
function findExecutable(candidates, names) {
  const executable = (file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  const onPath = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  return (
    candidates.find(executable) ?? names.flatMap((name) => onPath.map((dir) => path.join(dir, name))).find(executable)
  );
}

/** Chromium for the browser tests: CHROME_PATH when set, else the system's Chromium (Debian's `chromium` package). */
export function findChromium() {
  if (process.env.CHROME_PATH) return findExecutable([process.env.CHROME_PATH], []);
  return findExecutable(["/usr/bin/chromium", "/usr/bin/chromium-browser"], ["chromium", "chromium-browser"]);
}

/** ffmpeg, which makes the short real videos the Guess & Win browser tests upload. */
export function findFfmpeg() {
  return findExecutable([], ["ffmpeg"]);
}

/** Runs a command with inherited output; true when it exits 0. */
function runQuietly(command, args) {
  return (
    spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } })
      .status === 0
  );
}

/**
 * Makes sure the browser tests have Chromium and ffmpeg, and returns the Chromium path (for CHROME_PATH).
 * When one is missing it installs the Debian packages with apt-get, as root or through passwordless sudo; when it may
 * not (or apt-get fails) it throws at once with the exact command to run.
 */
export function ensureBrowserTools() {
  const missing = [];
  if (!findChromium()) missing.push("chromium");
  if (!findFfmpeg()) missing.push("ffmpeg");
  if (missing.length === 0) return findChromium();

  if (process.env.CHROME_PATH && missing.includes("chromium")) {
    throw new Error(
      `CHROME_PATH is set to "${process.env.CHROME_PATH}", which is not an executable file: fix or unset it.`,
    );
  }
  const packages = missing.join(" ");
  const install = `apt-get update && apt-get install -y ${packages}`;
  const isRoot = typeof process.getuid !== "function" || process.getuid() === 0;
  const command = isRoot ? install : `sudo apt-get update && sudo apt-get install -y ${packages}`;
  const refuse = (why) =>
    new Error(
      `The browser tests need ${missing.join(" and ")} (${why}). Run:\n\n` +
        `  ${command}\n\n` +
        "then `npm test` again. On other systems install Chromium and ffmpeg and set CHROME_PATH to the browser.",
    );
  const hasAptGet = Boolean(findExecutable(["/usr/bin/apt-get"], ["apt-get"]));
  if (!hasAptGet) throw refuse("this system has no apt-get");

  let prefix = [];
  if (!isRoot) {
    const sudo = findExecutable([], ["sudo"]);
    if (!sudo || spawnSync(sudo, ["-n", "true"], { stdio: "ignore" }).status !== 0) {
      throw refuse("not running as root and sudo asks for a password");
    }
    prefix = [sudo, "-n"];
  }
  console.log(`Installing ${packages} for the browser tests: ${install}`);
  const apt = (...args) =>
    prefix.length ? runQuietly(prefix[0], [...prefix.slice(1), "apt-get", ...args]) : runQuietly("apt-get", args);
  if (!apt("update") || !apt("install", "-y", ...missing)) throw refuse("apt-get failed");
  const chromium = findChromium();
  if (!chromium || !findFfmpeg()) throw refuse("they are still missing after apt-get");
  return chromium;
}

const invokedDirectly = import.meta.url === pathToFileURL(process.argv[1] ?? "").href;

if (invokedDirectly && process.argv.includes("--browser-tools")) {
  // `npm test` runs this first (the `pretest` script), so a machine without Chromium stops before the long steps.
  try {
    console.log(`Browser tests will use ${ensureBrowserTools()} and ${findFfmpeg()}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
} else if (invokedDirectly) {
  prepareLocal().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
