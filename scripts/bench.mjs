// `npm run bench`: measures the app against the project's performance targets and writes bench/results.md (the
// same table is printed). Not part of CI. Steps:
//
//  1. `react-router build`, then a private copy of build/ (.wrangler/bench-build) so a rebuild elsewhere cannot
//     change what is being measured; a fresh state dir (.wrangler/bench-state): migrations, the normal demo seed,
//     then scripts/bench/scale-data.mjs scales it up (60 hosts, 5,100 active products with sizes, images, likes and
//     views, one open pool per host).
//  2. The built app and a trivial ceiling Worker (scripts/bench/ceiling-worker.js, fixed ~20 KB HTML) both served
//     the same way: Miniflare straight on local workerd (scripts/bench/serve.mjs), no proxy in front.
//  3. Each key page (/, /shop, a search on /shop, /profile/{id}, /buy-now/{id}) under a bounded closed-loop load (BENCH_CONNECTIONS
//     keep-alive connections for BENCH_SECONDS after BENCH_WARMUP), with a ceiling run before and after each page;
//     a page's ratio is its requests/s over the mean of those two ceiling runs. Every response must be a 200.
//     Targets: ratio >= 0.5 and p99 <= 3 x p50. Diagnostic rows (shorter runs: /api/health, Hono without React;
//     /terms, React rendering without D1; each page's `.data` URL, its loaders without the HTML) and the server's
//     CPU time per request help read the results.
//  4. Home page client JavaScript (the module scripts and modulepreload links of /, plus their static imports),
//     gzip-summed from the files: target <= 40 KB. The Worker bundle (build/server/**/*.js) gzip-summed: <= 3 MB.
//  4b. A signed-in fan (never served from the page cache) on /, /shop, the search, /profile/{id}, /buy-now/{id} and
//     /my-orders:
//     workerd CPU per request, request by request (scripts/bench/cpu.mjs: one request at a time, the CPU of every
//     workerd thread from /proc/<pid>/task/*/schedstat), median and p99 over BENCH_CPU_SAMPLES requests after
//     BENCH_CPU_WARMUP (500) warm-up requests. Verdict: the net median (all threads) at most the free plan's 5 ms. The
//     p99 (all threads and main thread) is a reading beside the floor's own p99 from the same run, not a pass/fail:
//     the runtime's own p99 on a shared 2-core machine exceeds the plan's 10 ms; the fixed-HTML ceiling Worker measured the same way gives the runtime's floor
//     (and again, BENCH_FLOOR_SAMPLES requests, just before and after each page: each row is net of the mean of those),
//     and a bare React Router app (scripts/bench/floor-app/: the app's toolchain, one page with a constant loader,
//     and /d1, the same page after one `select 1`; built into .wrangler/bench-floor-build) the stack's floor.
//     Twice: as served (D1, i.e. SQLite and Miniflare's D1 plumbing, inside the app's workerd), and with D1 in a
//     second workerd (scripts/bench/d1-host/) reached by a client standing in for the binding
//     (scripts/bench/remote-d1-entry.js), so the app's process pays for D1 only what a Worker pays.
//  4c. Lighthouse (mobile, performance only) on the visitor's /, /shop, /profile/{id}, /buy-now/{id} through a
//     proxy that compresses like Cloudflare (scripts/bench/compress-proxy.mjs); median of BENCH_LIGHTHOUSE_RUNS.
//  5. Diagnostic: each page's loader run in workerd with every D1 query timed (scripts/bench/profile-worker.js).
//  5b. Search (issue 31, decision 590): the search pages (SEARCH_PATH, a query every product matches, and
//     SEARCH_TYPICAL_PATH, one that matches a product type) against the unfiltered /shop in both tables above
//     (target: at most 1.5x its CPU), with each search query's own D1 time.
//  6. Prize pool throughput: scripts/bench/pool-worker.ts (wrangler.bench.toml, its own migrated state) fires
//     BENCH_POOL_N concurrent contribute() calls at one pool's Durable Object and checks the exact sum and the entry
//     numbers 0..n-1. Target: >= 500 contributions/s (median of BENCH_POOL_RUNS runs). One more run goes into a pool
//     that already holds BENCH_POOL_PREFILL (20,000) entries: a long-lived pool must not be slower than a new one.
//
// To compare two builds (a patch, a change made to save CPU), scripts/bench/ab.mjs measures them interleaved on the
// signed-in pages against the bar of decision 440.
//
// Exits 0 when the bench ran, whether or not the targets were met (the table says pass/fail); non-zero only when
// the bench itself broke. Every child process is stopped at the end, on failure and on Ctrl+C.
//
// Environment: BENCH_SECONDS (6), BENCH_WARMUP (2), BENCH_CONNECTIONS (16), BENCH_POOL_N (2000),
// BENCH_POOL_RUNS (3), BENCH_POOL_FLOOD (20000), BENCH_SKIP_BUILD=1 (measure the existing build/), BENCH_CPU_SAMPLES
// (200), BENCH_CPU_WARMUP (500), BENCH_ONLY=fan (only the signed-in fan's rows and the stack floor, printed; results.md untouched),
// BENCH_FAN_RESULTS=1 (with BENCH_ONLY=fan: this run's signed-in section replaces results.md's, marked as such),
// BENCH_ONLY=pool (only step 6, printed; results.md untouched), BENCH_KEEP_DATA=1 (reuse the last run's scaled state).
import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  closeSync,
} from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { startCompressProxy } from "./bench/compress-proxy.mjs";
import { cpuInterleaved, cpuPerRequest, signInCookie, workerdPids } from "./bench/cpu.mjs";
import { lighthouse } from "./bench/lighthouse.mjs";
import { load } from "./bench/load.mjs";
import { childEnv, ensureDevVars, nodeBin, root, tools, waitForServer } from "./prepare-local.mjs";

const num = (name, fallback) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const SECONDS = num("BENCH_SECONDS", 6);
const WARMUP = num("BENCH_WARMUP", 2);
const CONNECTIONS = Math.round(num("BENCH_CONNECTIONS", 16));
const POOL_N = Math.round(num("BENCH_POOL_N", 2000));
const POOL_RUNS = Math.round(num("BENCH_POOL_RUNS", 3));
/** The entries a long-lived pool already holds in the pool step's last run. */
const POOL_PREFILL = Math.round(num("BENCH_POOL_PREFILL", 20_000));
const SKIP_BUILD = process.env.BENCH_SKIP_BUILD === "1";
/** BENCH_ONLY=fan: only the signed-in fan's CPU rows and the stack floor (printed, results.md left alone), for quick checks. */
const ONLY_FAN = process.env.BENCH_ONLY === "fan";
/** BENCH_FAN_RESULTS=1 (with BENCH_ONLY=fan): this run's signed-in section replaces the one in results.md. */
const FAN_RESULTS = process.env.BENCH_FAN_RESULTS === "1";
/** BENCH_ONLY=pool: only the prize pool step (printed, results.md left alone), for quick checks. */
const ONLY_POOL = process.env.BENCH_ONLY === "pool";
/** "state" messages one live socket sends while the flood run's contributions go in (issue 27). */
const POOL_FLOOD = Math.round(num("BENCH_POOL_FLOOD", 20_000));
/** BENCH_KEEP_DATA=1: reuse the scaled-up state of the previous run (.wrangler/bench-state) instead of rebuilding it. */
const KEEP_DATA = process.env.BENCH_KEEP_DATA === "1";
/** The diagnostic rows (not held to a target) get shorter runs. */
const DIAG_SECONDS = Math.max(2, SECONDS / 2);

const TARGET_RATIO = 0.5;
const TARGET_TAIL = 3;
const TARGET_POOL_PER_S = 500;
const TARGET_HOME_JS_KB = 40;
/** The free plan's CPU limit per request: the signed-in fan's pages are held to it. */
const TARGET_CPU_MEDIAN_MS = 5;
/** The free plan's p99 limit: a reading beside the runtime's own p99, not a pass/fail (issue 28). */
const READING_CPU_P99_MS = 10;
/** Half of the 104 KB /shop weighed before visitors' pages stopped hydrating and the cards were slimmed. */
const TARGET_SHOP_HTML_KB = 52;
const TARGET_LIGHTHOUSE = 95;
const CPU_SAMPLES = Math.round(num("BENCH_CPU_SAMPLES", 200));
/** Warm-up requests before each signed-in page's samples (and the ceiling's own run), so the p99 read is a warm isolate's. */
const CPU_WARMUP = Math.round(num("BENCH_CPU_WARMUP", 500));
/** Requests of each floor run around a signed-in page (step 4b). */
const FLOOR_SAMPLES = Math.round(num("BENCH_FLOOR_SAMPLES", 100));
const LIGHTHOUSE_RUNS = Math.round(num("BENCH_LIGHTHOUSE_RUNS", 3));
const FAN = { email: "fan@demo.tribe", password: "demo-password-2026" };
const TARGET_WORKER_MB = 3;
/**
 * The search page measured beside /shop: "small batch" is in every scaled-up product's description, so the search
 * matches all 5,100 products (its worst case): a broad search, ranked in two tiers (decision 660).
 */
const SEARCH_PATH = "/shop?q=small+batch";
const SEARCH_LABEL = "/shop?q=small batch";
/** A more typical search beside it: one product type ("Ceramic Mug"), about 1 in 24 of the scaled-up products. */
const SEARCH_TYPICAL_PATH = "/shop?q=ceramic+mug";
const SEARCH_TYPICAL_LABEL = "/shop?q=ceramic mug";
const SEARCH_LABELS = [SEARCH_LABEL, SEARCH_TYPICAL_LABEL];
/** A search page costs at most this many times the unfiltered /shop's CPU (issue 31). */
const TARGET_SEARCH_RATIO = 1.5;

const STATE_DIR = path.join(root, ".wrangler", "bench-state");
const POOL_STATE_DIR = path.join(root, ".wrangler", "bench-pool-state");
const BUILD_COPY = path.join(root, ".wrangler", "bench-build");
const CEILING_STATE_DIR = path.join(root, ".wrangler", "bench-ceiling-state");
/** The bare React Router app of step 4b: its sources, its build and its (empty) D1. */
const FLOOR_APP = path.join(root, "scripts", "bench", "floor-app");
const FLOOR_BUILD = path.join(root, ".wrangler", "bench-floor-build");
const FLOOR_STATE_DIR = path.join(root, ".wrangler", "bench-floor-state");
/** A copy of the scaled state for the app whose D1 runs in its own process (step 4b). */
const REMOTE_D1_STATE_DIR = path.join(root, ".wrangler", "bench-state-remote-d1");
const LOG_DIR = path.join(root, ".wrangler", "bench-logs");
const BENCH_DIR = path.join(root, "scripts", "bench");
const RESULTS = path.join(root, "bench", "results.md");

/** Child environment: no metrics, no fetch of Request.cf from the internet (loopback only). */
const env = (extra = {}) => childEnv({ CLOUDFLARE_CF_FETCH_ENABLED: "false", ...extra });

// --- child processes ----------------------------------------------------------------------------------------------

/** Every long-running child we started (each leads its own process group, so workerd goes with it). */
const children = new Set();

function alive(child) {
  return child.exitCode === null && child.signalCode === null;
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

/** Stops a child's process group: SIGTERM, then SIGKILL after `graceMs`. */
async function stop(child, graceMs = 8_000) {
  if (!child) return;
  children.delete(child);
  if (!alive(child)) {
    killGroup(child, "SIGKILL"); // a workerd left behind by a child that already exited
    return;
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  killGroup(child, "SIGTERM");
  const timer = new Promise((resolve) => setTimeout(resolve, graceMs, "timeout"));
  if ((await Promise.race([exited, timer])) === "timeout") killGroup(child, "SIGKILL");
  await new Promise((resolve) => setTimeout(resolve, 200));
  killGroup(child, "SIGKILL");
}

function stopAllNow() {
  for (const child of children) killGroup(child, "SIGKILL");
  children.clear();
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\nbench: ${signal}, stopping the servers`);
    for (const child of children) killGroup(child, "SIGTERM");
    setTimeout(() => {
      stopAllNow();
      process.exit(130);
    }, 1_500).unref();
  });
}
process.on("exit", stopAllNow);

function logFile(name) {
  mkdirSync(LOG_DIR, { recursive: true });
  return path.join(LOG_DIR, `${name}.log`);
}

function tail(file, lines = 40) {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/** Starts a long-running child in its own process group, output to .wrangler/bench-logs/<name>.log. */
function startChild(name, args, { cwd = root, stdin = "ignore" } = {}) {
  const file = logFile(name);
  const fd = openSync(file, "w");
  const child = spawn(nodeBin, args, { cwd, env: env(), stdio: [stdin, fd, fd], detached: true });
  closeSync(fd);
  child.logFile = file;
  child.on("error", () => {});
  children.add(child);
  return child;
}

/** Runs a command to completion (output to a log file); rejects with the log's tail when it fails. */
function runLogged(name, args, { cwd = root, extraEnv = {}, input } = {}) {
  const file = logFile(name);
  const fd = openSync(file, "w");
  const child = spawn(nodeBin, args, {
    cwd,
    env: env(extraEnv),
    stdio: [input === undefined ? "ignore" : "pipe", fd, fd],
    detached: true,
  });
  closeSync(fd);
  if (input !== undefined) child.stdin.end(input);
  children.add(child);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      children.delete(child);
      if (code === 0) resolve();
      else
        reject(
          new Error(`${name} failed (${signal ?? `exit ${code}`}); log ${path.relative(root, file)}:\n${tail(file)}`),
        );
    });
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startServer(name, args, readyUrl, options) {
  const child = startChild(name, args, options);
  try {
    await waitForServer(readyUrl, 120_000, () => alive(child));
  } catch (error) {
    await stop(child);
    throw new Error(
      `${name} did not start (${error.message}); log ${path.relative(root, child.logFile)}:\n${tail(child.logFile)}`,
      { cause: error },
    );
  }
  return child;
}

/** Serves a prebuilt Worker through scripts/bench/serve.mjs (Miniflare on workerd, no proxy). */
async function serveDirect(name, config, persistDir, readyPath = "/") {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // stdin is a pipe: serve.mjs exits when it closes, should this process die without cleaning up.
  const child = await startServer(
    name,
    [path.join(BENCH_DIR, "serve.mjs"), config, persistDir, String(port)],
    url + readyPath,
    {
      stdin: "pipe",
    },
  );
  return { child, url };
}

/**
 * The wrangler config of the built app with D1 in another process (step 4b): the build's own config with
 * scripts/bench/remote-d1-entry.js (copied next to index.js) as its main module, pointed at the D1 host.
 */
function remoteD1Config(hostUrl) {
  const serverDir = path.join(BUILD_COPY, "server");
  cpSync(path.join(BENCH_DIR, "remote-d1-entry.js"), path.join(serverDir, "remote-d1.js"));
  const config = JSON.parse(readFileSync(path.join(serverDir, "wrangler.json"), "utf8"));
  const file = path.join(serverDir, "wrangler.remote-d1.json");
  writeFileSync(
    file,
    JSON.stringify({ ...config, main: "remote-d1.js", vars: { ...config.vars, BENCH_D1_HOST: hostUrl } }),
  );
  return file;
}

/** `wrangler dev` for the bundled bench Workers (run from scripts/bench, where their configs' paths resolve). */
async function wranglerDev(name, config, persistDir) {
  const port = await freePort();
  const inspectorPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [
    tools.wrangler,
    "dev",
    "--config",
    config,
    "--local",
    "--persist-to",
    persistDir,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--show-interactive-dev-session=false",
  ];
  const child = await startServer(name, args, url + "/", { cwd: BENCH_DIR });
  return { child, url };
}

// --- CPU accounting (Linux /proc) ---------------------------------------------------------------------------------

const CLK_TCK = 100;

function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return NaN;
  }
}

function systemBusyMs() {
  try {
    const [, ...values] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
    const [user, nice, system, _idle, _iowait, irq, softirq, steal] = values.map(Number);
    return ((user + nice + system + irq + softirq + steal) * 1000) / CLK_TCK;
  } catch {
    return NaN;
  }
}

function selfCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

// --- measurements -------------------------------------------------------------------------------------------------

/** Warm-up, then a measured closed-loop run; with the server's CPU ms per request and other processes' load. */
async function measure(label, url, serverChild, { seconds = SECONDS, warmup = WARMUP } = {}) {
  await load(url, { connections: CONNECTIONS, seconds: warmup });
  const pids = workerdPids(serverChild.pid);
  const serverBefore = pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
  const busyBefore = systemBusyMs();
  const selfBefore = selfCpuMs();
  const result = await load(url, { connections: CONNECTIONS, seconds });
  const serverMs = pids.reduce((sum, pid) => sum + processCpuMs(pid), 0) - serverBefore;
  const selfMs = selfCpuMs() - selfBefore;
  const otherMs = systemBusyMs() - busyBefore - serverMs - selfMs;
  const responses = result.ok + Object.values(result.non200).reduce((a, b) => a + b, 0);
  const row = {
    label,
    url,
    ...result,
    allOk: result.ok === result.requests && result.errors === 0,
    serverCpuMsPerReq: responses ? serverMs / responses : NaN,
    clientCpuMsPerReq: responses ? selfMs / responses : NaN,
    otherCores: Math.max(0, otherMs / (result.seconds * 1000)),
    htmlKB: result.ok ? result.bytes / responses / 1024 : NaN,
  };
  const status = row.allOk
    ? "all 200"
    : `NOT all 200: ${JSON.stringify(result.non200)} ${result.errors} errors ${result.firstError ?? ""}`;
  console.log(
    `  ${label.padEnd(28)} ${row.rps.toFixed(0).padStart(6)} req/s  p50 ${row.p50.toFixed(1).padStart(6)} ms  p99 ${row.p99
      .toFixed(1)
      .padStart(
        6,
      )} ms  server ${row.serverCpuMsPerReq.toFixed(2)} CPU ms/req  (${status}; other load ${row.otherCores.toFixed(2)} cores)`,
  );
  return row;
}

async function firstCheck(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    const body = await response.text();
    return { status: response.status, bytes: body.length, body };
  } catch (error) {
    return { status: 0, bytes: 0, body: "", error: error instanceof Error ? error.message : String(error) };
  }
}

// --- sizes --------------------------------------------------------------------------------------------------------

const gz = (buffer) => gzipSync(buffer).length;

function filesUnder(dir, test) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The JS a browser loads for a page: module scripts, modulepreloads, inline imports, and their static imports. */
async function pageScripts(origin, html) {
  const urls = new Set();
  const add = (ref, base = origin + "/") => {
    const url = new URL(ref, base);
    if (url.origin === origin && /\.m?js$/.test(url.pathname)) urls.add(url.pathname);
  };
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    if (/\brel=["']?modulepreload/.test(tag)) add(tag.match(/\bhref=["']([^"']+)["']/)?.[1] ?? "");
  }
  for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (!/type=["']?module/.test(attrs)) continue;
    const src = attrs.match(/\bsrc=["']([^"']+)["']/)?.[1];
    if (src) add(src);
    for (const [, ref] of body.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) add(ref);
    for (const [, ref] of body.matchAll(/\bfrom\s*["']([^"']+)["']/g)) add(ref);
    for (const [, ref] of body.matchAll(/\bimport\s*["']([^"']+)["']/g)) add(ref);
  }
  // Follow static imports (a modulepreload list should already hold them all; this checks it).
  const files = new Map();
  const queue = [...urls];
  while (queue.length) {
    const pathname = queue.shift();
    if (files.has(pathname)) continue;
    const local = path.join(BUILD_COPY, "client", decodeURIComponent(pathname));
    let content;
    if (existsSync(local)) content = readFileSync(local);
    else {
      const response = await fetch(origin + pathname);
      if (!response.ok) throw new Error(`${pathname}: HTTP ${response.status}`);
      content = Buffer.from(await response.arrayBuffer());
    }
    files.set(pathname, content);
    const text = content.toString("utf8");
    for (const [, ref] of text.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.m?js)["']/g)) {
      const resolved = new URL(ref, origin + pathname);
      if (resolved.origin === origin && !files.has(resolved.pathname)) queue.push(resolved.pathname);
    }
  }
  const listed = files.size;
  const extra = [...files.keys()].filter((p) => !urls.has(p));
  return {
    files: [...files].map(([pathname, content]) => ({ pathname, bytes: content.length, gzip: gz(content) })),
    listed,
    notPreloaded: extra,
  };
}

function workerBundle() {
  const files = filesUnder(path.join(BUILD_COPY, "server"), (name) => /\.m?js$/.test(name));
  let bytes = 0;
  let gzip = 0;
  for (const file of files) {
    const content = readFileSync(file);
    bytes += content.length;
    gzip += gz(content);
  }
  return { files: files.length, bytes, gzip };
}

// --- output -------------------------------------------------------------------------------------------------------

const f = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");
const verdict = (ok) => (ok ? "pass" : "**FAIL**");

function gitRevision() {
  // Through git itself, so a linked worktree (whose .git is a file) and packed refs read the same.
  try {
    return (
      execFileSync("git", ["rev-parse", "--short=10", "HEAD"], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim() || "unknown"
    );
  } catch {
    return "unknown";
  }
}

const stackLabel = (label) =>
  label === "/d1" ? "bare React Router page + one D1 query (`/d1`)" : "bare React Router page (`/`)";

/** The floor a row is net of: the ceiling measured around it, else the ceiling's own run. */
const floorOf = (row, fan) => row.floorMedianMs ?? fan.floor.medianMs;
/** A row's median above its floor. */
const netOf = (row, fan) => row.medianMs - floorOf(row, fan);

/**
 * A signed-in page's verdict (issue 28): its net median, all threads, at most the free plan's 5 ms, every answer a 200,
 * and /shop's HTML within its size. The p99s are readings beside the floor's, not part of it.
 */
function fanVerdict(row, fan) {
  const floorMs = floorOf(row, fan);
  const netMedian = row.medianMs - floorMs;
  const sizeOk = row.label !== "/shop" || row.htmlKB <= TARGET_SHOP_HTML_KB;
  return { floorMs, netMedian, pass: row.allOk && netMedian <= TARGET_CPU_MEDIAN_MS && sizeOk };
}

/** The signed-in verdict and readings, one line per page (printed by BENCH_ONLY=fan and the full bench). */
function fanLines(rows, fan) {
  return rows.map((row) => {
    const { netMedian, pass } = fanVerdict(row, fan);
    return (
      `  ${row.label.padEnd(16)} net median ${f(netMedian, 2)} ms → ${pass ? "pass" : "FAIL"} (≤ ${TARGET_CPU_MEDIAN_MS} ms); ` +
      `readings: p99 ${f(row.p99Ms, 2)} ms (floor's ${f(fan.floor.p99Ms, 2)}), main thread p99 ${f(row.mainP99Ms, 2)} ms ` +
      `(floor's ${f(fan.floor.mainP99Ms, 2)})`
    );
  });
}

/** One factual sentence on the stack floor of step 4b (in results.md and printed by BENCH_ONLY=fan). */
function stackFloorSummary(fan) {
  const bare = fan.stackRows.find((r) => r.label === "/");
  const withD1 = fan.stackRows.find((r) => r.label === "/d1");
  const nets = fan.rows.map((r) => netOf(r, fan));
  return (
    `A bare React Router page costs ${f(netOf(bare, fan), 2)} ms above the runtime's floor at the median ` +
    `(${f(bare.medianMs, 2)} ms in all, p99 ${f(bare.p99Ms, 2)} ms) before any of our code runs` +
    (withD1 ? `; one D1 query adds ${f(netOf(withD1, fan) - netOf(bare, fan), 2)} ms` : "") +
    `; the signed-in fan's pages measure ${f(Math.min(...nets) - netOf(bare, fan), 2)}–${f(Math.max(...nets) - netOf(bare, fan), 2)} ms ` +
    "above the bare page at the median (each net of its own floor), which is what the app's own code, its D1 calls and its larger pages add."
  );
}

/** results.md with its signed-in section replaced by this run's (BENCH_ONLY=fan BENCH_FAN_RESULTS=1), saying so. */
function replaceFanSection(fan, run) {
  const text = readFileSync(RESULTS, "utf8");
  const start = text.indexOf("## Signed-in fan");
  const end = text.indexOf("\n## ", start + 1);
  if (start < 0 || end < 0) throw new Error(`${path.relative(root, RESULTS)} has no signed-in section to replace`);
  const section = fanSection(fan);
  section.splice(
    2,
    0,
    `_This section alone was measured again (\`BENCH_ONLY=fan BENCH_FAN_RESULTS=1 npm run bench\`), ${run}, on commit ` +
      `${gitRevision()}; the other sections are from the run named at the top._`,
    "",
  );
  writeFileSync(RESULTS, text.slice(0, start) + section.join("\n") + text.slice(end));
}

/** The "Signed-in fan" section of results.md (step 4b), as lines. */
function fanSection(fan) {
  const lines = [];
  const out = (line = "") => lines.push(line);
  out("## Signed-in fan: workerd CPU per request");
  out();
  out(
    `Target: at most ${TARGET_CPU_MEDIAN_MS} ms net at the median (all threads; the free plan's per-request CPU limit), ` +
      `a signed-in fan (no page cache); /shop's HTML at most ${TARGET_SHOP_HTML_KB} KB. The p99 is a reading, not a pass/fail: ` +
      `each page's p99 stands beside the floor's own p99 from the same run, and the main thread's p99 after ${CPU_WARMUP} warm-up ` +
      `requests beside the floor's, to compare with the plan's ${READING_CPU_P99_MS} ms (decision 440). ` +
      `${fan.rows[0]?.samples ?? 0} requests per page after ${CPU_WARMUP} warm-up requests, ` +
      "one at a time; each sample is the CPU time every thread of the app's workerd used from sending the request to its last byte " +
      "(/proc schedstat). Locally that includes what production does not count against the Worker: D1 itself (SQLite inside the " +
      "same workerd under Miniflare), the HTTP server and the static-asset router. The fixed-HTML ceiling Worker, measured the " +
      `same way, shows that floor: median ${f(fan.floor.medianMs, 2)} ms, p99 ${f(fan.floor.p99Ms, 2)} ms when measured alone. "Net" subtracts ` +
      `the floor measured around each row: the fixed-HTML Worker's median over ${FLOOR_SAMPLES} requests just before and just after the ` +
      "page, averaged (its own column), so a page and its floor see the machine in the same minutes (the same build's figures drift " +
      "by 20–40% between runs an hour apart). " +
      "The verdict counts every thread. The main-thread column is the part on workerd's main thread, where the Workers' " +
      `JavaScript runs (the ceiling's: median ${f(fan.floor.mainMedianMs, 2)} ms, p99 ${f(fan.floor.mainP99Ms, 2)} ms): ` +
      "the rest is V8's helper threads, whose concurrent garbage collection makes most of the all-thread p99.",
  );
  out();
  out(
    "What the stack costs before any of our code runs: a bare React Router app built with the app's toolchain and installed " +
      "versions (scripts/bench/floor-app/: vite, @cloudflare/vite-plugin, @react-router/dev, react, react-dom, react-router; " +
      "a root Layout with Meta, Links, ScrollRestoration and Scripts, one route whose loader returns a constant title and three " +
      "items, hydrated as React Router does by default; no session, no middleware, no page cache, no nonce), served and measured " +
      "the same way. Its /d1 is the same page after one D1 query (`select 1`, SQLite inside the same workerd).",
  );
  out();
  out("| Worker | median ms | p99 ms | floor around it ms | median above the floor ms | HTML KB | all 200 |");
  out("|---|---:|---:|---:|---:|---:|---|");
  for (const row of [
    { ...fan.floor, label: "ceiling (fixed HTML)" },
    ...fan.stackRows.map((r) => ({ ...r, label: stackLabel(r.label) })),
  ]) {
    out(
      `| ${row.label} | ${f(row.medianMs, 2)} | ${f(row.p99Ms, 2)} | ${f(floorOf(row, fan), 2)} | ${f(netOf(row, fan), 2)} | ` +
        `${f(row.htmlKB, 1)} | ${row.allOk ? "yes" : "no"} |`,
    );
  }
  out();
  out(stackFloorSummary(fan));
  out();
  const fanTable = (rows) => {
    out(
      "| page | median ms | floor around it ms | net median ms | net median / 5 ms | result | p99 ms (reading) | floor's p99 ms | main thread median / p99 ms (reading) | floor's main-thread p99 ms | HTML KB | all 200 |",
    );
    out("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|");
    for (const row of rows) {
      const { floorMs, netMedian, pass } = fanVerdict(row, fan);
      out(
        `| \`${row.label}\` | ${f(row.medianMs, 2)} | ${f(floorMs, 2)} | ${f(netMedian, 2)} | ${f(netMedian / TARGET_CPU_MEDIAN_MS, 2)} | ` +
          `${verdict(pass)} | ${f(row.p99Ms, 2)} | ${f(fan.floor.p99Ms, 2)} | ${f(row.mainMedianMs, 2)} / ${f(row.mainP99Ms, 2)} | ` +
          `${f(fan.floor.mainP99Ms, 2)} | ${f(row.htmlKB, 1)}${row.label === "/shop" ? ` (≤ ${TARGET_SHOP_HTML_KB})` : ""} | ${row.allOk ? "yes" : "no"} |`,
      );
    }
    out();
  };
  out("With D1 in the same workerd (SQLite and Miniflare's D1 plumbing counted as the app's CPU):");
  out();
  fanTable(fan.rows);
  out(
    "With D1 in its own process, as in production where D1 runs on its own machines: the same build, its env.DB a client " +
      "that posts each D1 call (a statement or a batch) to a second workerd holding the database (scripts/bench/remote-d1-entry.js, " +
      "scripts/bench/d1-host/); the app's workerd then pays for D1 only the client's side (serialising the call, one fetch, parsing " +
      "the answer) and nothing of SQLite's or Miniflare's D1 work, but that fetch is a real HTTP round trip over the loopback, " +
      "which the binding's own channel to D1 is not. Read the two tables as a range, not one as the truth.",
  );
  out();
  fanTable(fan.remoteRows);
  return lines;
}

/** A search row's cost over /shop's in one table: [search, shop, ratio, pass], by `cost` (CPU ms per request). */
function searchRatio(rows, cost, label) {
  const shop = rows.find((r) => r.label === "/shop");
  const search = rows.find((r) => r.label === label);
  if (!shop || !search) return null;
  const ratio = cost(search) / cost(shop);
  return { shop: cost(shop), search: cost(search), ratio, pass: search.allOk && ratio <= TARGET_SEARCH_RATIO };
}

/** The search lines (in results.md and printed by BENCH_ONLY=fan): the search page's CPU over /shop's, per table. */
function searchLines(pages, fan) {
  const tables = SEARCH_LABELS.flatMap((label) => [
    [
      `\`${label}\`, visitor (page cache), server CPU ms/req`,
      pages.length ? searchRatio(pages, (r) => r.serverCpuMsPerReq, label) : null,
    ],
    [
      `\`${label}\`, signed-in fan, D1 in the same workerd, net median ms (interleaved)`,
      searchRatio(fan.searchRows, (r) => netOf(r, fan), label),
    ],
    [
      `\`${label}\`, signed-in fan, D1 in its own process, net median ms (interleaved)`,
      searchRatio(fan.remoteSearchRows, (r) => netOf(r, fan), label),
    ],
  ]);
  return tables
    .filter(([, row]) => row)
    .map(
      ([name, row]) =>
        `| ${name} | ${f(row.shop, 2)} | ${f(row.search, 2)} | ${f(row.ratio, 2)} | ${verdict(row.pass)} (≤ ${TARGET_SEARCH_RATIO}) |`,
    );
}

/** The "Search" section of results.md: the ratios, and the search query's own D1 time from the loader profile. */
function searchSection(pages, fan, profile) {
  const lines = [];
  const out = (line = "") => lines.push(line);
  out("## Search vs the unfiltered /shop");
  out();
  out(
    `Target (issue 31): a search page costs at most ${TARGET_SEARCH_RATIO}× the CPU of the unfiltered \`/shop\`: the worst ` +
      `case \`${SEARCH_PATH}\` (a query every one of the scaled-up products matches) ` +
      `and a typical one, \`${SEARCH_TYPICAL_PATH}\` (one product type), ` +
      "in the visitor's table (server CPU per request under load; both pages are served from the 10 s page cache, as in " +
      "production) and in the signed-in fan's (net median, never cached; with D1 in the same workerd and in its own process). " +
      `The signed-in ratios come from a run of their own: /shop and both searches take turns, request by request (the order ` +
      `flipping each round), ${CPU_SAMPLES} rounds after 50 warm-up requests each, between two runs of the floor, so the ` +
      "three are compared in the same minutes; the tables above measure each page in its own minutes, and their search " +
      "rows moved by ±30% against /shop between runs. The worst case is broad (more than 1,000 matches): Best match " +
      "ranks it in two tiers (decision 660); the typical one is ranked whole by bm25.",
  );
  out();
  out("| table | /shop | search | ratio | result |");
  out("|---|---:|---:|---:|---|");
  for (const line of searchLines(pages, fan)) out(line);
  out();
  const profiled = (label) => (profile.error ? null : profile.pages.find((p) => p.label === label));
  const shop = profiled("/shop");
  const shopQuery = shop?.queries ? [...shop.queries].sort((a, b) => b.ms - a.ms)[0] : null;
  for (const label of SEARCH_LABELS) {
    const search = profiled(label);
    const searchQuery = search?.queries?.find((q) => q.search);
    out(
      searchQuery
        ? `\`${label}\`: the search query's own D1 time (loader profile, median of ${search.runs} runs): ${f(searchQuery.ms, 2)} ms ` +
            `(\`${searchQuery.sql.slice(0, 100).replaceAll('"', "")}…\`); the search loader's D1 time in all ${f(search.d1Ms, 2)} ms ` +
            `against /shop's ${shop ? f(shop.d1Ms, 2) : "n/a"} ms (its slowest query ${shopQuery ? f(shopQuery.ms, 2) : "n/a"} ms).`
        : `\`${label}\`: the search query's own D1 time: not measured (${profile.error ?? search?.error ?? "no query on product_search"}).`,
    );
    out();
  }
  return lines;
}

function report(data) {
  const { pages, ceilings, diagnostics, scripts, bundle, pool, profile, fan, lighthouseRows, scale, timings, machine } =
    data;
  const lines = [];
  const out = (line = "") => lines.push(line);
  out("# Bench results");
  out();
  out(
    `Run ${data.startedAt} on commit ${gitRevision()} (working tree as it was; \`npm run bench\`). ${machine.cpus} × ${machine.model}, ` +
      `load average at start ${machine.loadStart}, at end ${machine.loadEnd}. ${CONNECTIONS} keep-alive connections, ` +
      `${WARMUP} s warm-up + ${SECONDS} s measured per run (diagnostic rows ${Math.min(WARMUP, 1)} + ${DIAG_SECONDS} s).`,
  );
  out();
  out(
    `Data: ${scale.hosts} hosts, ${scale.activeProducts} active products (${scale.sizes} sizes, ${scale.images} image rows, ` +
      `${scale.likes} likes), ${scale.openPools} open pools. Both Workers served the same way: Miniflare straight on local ` +
      "workerd (scripts/bench/serve.mjs), no proxy in front, and both behind the same static-asset routing (the ceiling " +
      "serves the app's build/client as its assets), as on Cloudflare where asset routing runs before every Worker. " +
      "Visitors' public pages are served from the 10 s page cache (PAGE_CACHE_SECONDS), as in production.",
  );
  out();
  out("## Key pages vs the ceiling Worker");
  out();
  out(
    `Target: each page at least ${TARGET_RATIO * 100}% of the ceiling's requests/s, p99 at most ${TARGET_TAIL}× p50, every response 200.`,
  );
  out();
  out(
    "| page | req/s | p50 ms | p99 ms | ratio to ceiling | p99/p50 | HTML KB | server CPU ms/req | all 200 | result |",
  );
  out("|---|---:|---:|---:|---:|---:|---:|---:|---|---|");
  const ceilingMean = ceilings.reduce((s, c) => s + c.rps, 0) / ceilings.length;
  const ceilingP50 = ceilings.map((c) => c.p50).sort((a, b) => a - b)[Math.floor((ceilings.length - 1) / 2)];
  const ceilingP99 = ceilings.map((c) => c.p99).sort((a, b) => a - b)[Math.floor((ceilings.length - 1) / 2)];
  const ceilingCpu = ceilings.reduce((s, c) => s + c.serverCpuMsPerReq, 0) / ceilings.length;
  out(
    `| ceiling (fixed HTML, ${ceilings.length} runs) | ${f(ceilingMean)} | ${f(ceilingP50, 1)} | ${f(ceilingP99, 1)} | 1.00 | ` +
      `${f(ceilingP99 / ceilingP50, 1)} | ${f(ceilings[0].htmlKB, 1)} | ${f(ceilingCpu, 2)} | ${ceilings.every((c) => c.allOk) ? "yes" : "no"} | reference |`,
  );
  for (const page of pages) {
    const tailRatio = page.p99 / page.p50;
    const pass = page.allOk && page.ratio >= TARGET_RATIO && tailRatio <= TARGET_TAIL;
    const why = [];
    if (!page.allOk) why.push("non-200");
    if (!(page.ratio >= TARGET_RATIO)) why.push("throughput");
    if (!(tailRatio <= TARGET_TAIL)) why.push("tail");
    out(
      `| \`${page.label}\` | ${f(page.rps)} | ${f(page.p50, 1)} | ${f(page.p99, 1)} | ${f(page.ratio, 3)} | ${f(tailRatio, 1)} | ` +
        `${f(page.htmlKB, 1)} | ${f(page.serverCpuMsPerReq, 2)} | ${page.allOk ? "yes" : "no"} | ${pass ? "pass" : `**FAIL** (${why.join(", ")})`} |`,
    );
  }
  for (const diag of diagnostics.filter((d) => !d.dataOf)) {
    out(
      `| _${diag.label}_ | ${f(diag.rps)} | ${f(diag.p50, 1)} | ${f(diag.p99, 1)} | ${f(diag.rps / ceilingMean, 3)} | ${f(diag.p99 / diag.p50, 1)} | ` +
        `${f(diag.htmlKB, 1)} | ${f(diag.serverCpuMsPerReq, 2)} | ${diag.allOk ? "yes" : "no"} | diagnostic |`,
    );
  }
  out();
  out(
    "A page's ratio is its req/s over the mean of the ceiling runs just before and after it (ceiling runs: " +
      ceilings.map((c) => f(c.rps)).join(", ") +
      " req/s). Server CPU ms/req is the workerd process's CPU time (Worker, D1 and asset routing) per response; " +
      "on a dedicated core, 1000 / that is the most req/s one core could serve. Other processes used " +
      `${f(Math.min(...[...ceilings, ...pages].map((r) => r.otherCores)), 2)}–${f(Math.max(...[...ceilings, ...pages].map((r) => r.otherCores)), 2)} ` +
      `of the ${machine.cpus} cores during the measured runs; the load generator ${f(
        ceilings.reduce((s, c) => s + c.clientCpuMsPerReq, 0) / ceilings.length,
        2,
      )} CPU ms per ceiling request.`,
  );
  out();
  out(
    "On the tails: under this load workerd's one thread is busy nearly all the time, so p50 is mostly queueing (16 " +
      "requests waiting on it) and every pause of that thread delays all 16 in flight at once. The slow requests come " +
      "in such groups of 16, for the ceiling as for the pages, and V8's sampling profiler shows collections of 10–15 ms " +
      "in each isolate on that thread: ours, and the local asset router, asset service and Miniflare entry Workers. " +
      "That is why the fixed-HTML ceiling itself exceeds 3× (measured Nov 23 2026, docs/scale.md).",
  );
  out();

  lines.push(...fanSection(fan));
  lines.push(...searchSection(pages, fan, profile));

  out("## Lighthouse (visitor, mobile)");
  out();
  out(
    `Target: performance score at least ${TARGET_LIGHTHOUSE} on each page. The installed \`lighthouse\` package, mobile defaults ` +
      "(emulated Moto G Power, simulated slow 4G, 4× CPU slowdown), driving /usr/bin/chromium through a proxy that compresses " +
      `text responses with brotli or gzip as Cloudflare does (scripts/bench/compress-proxy.mjs); median of ${LIGHTHOUSE_RUNS} runs. ` +
      "A visitor's pages come from the page cache after the first run, as in production.",
  );
  out();
  out("| page | score (median) | runs | FCP ms | LCP ms | TBT ms | CLS | transfer KB | result |");
  out("|---|---:|---|---:|---:|---:|---:|---:|---|");
  for (const row of lighthouseRows) {
    if (!row.median) {
      out(`| \`${row.label}\` | n/a | | | | | | | not measured: ${String(row.error).slice(0, 100)} |`);
      continue;
    }
    const m = row.median.metrics;
    out(
      `| \`${row.label}\` | ${row.median.score} | ${row.runs.map((r) => r.score ?? "error").join(", ")} | ${f(m.fcp)} | ${f(m.lcp)} | ${f(m.tbt)} | ` +
        `${f(m.cls, 3)} | ${f(row.median.transferKB, 1)} | ${verdict(row.median.score >= TARGET_LIGHTHOUSE)} |`,
    );
  }
  out();

  out("## Prize pool Durable Object");
  out();
  out(
    `Target: one pool takes at least ${TARGET_POOL_PER_S} contributions/s with exact sums and unique entry numbers. ` +
      `Each run: a fresh pool, ${POOL_N} concurrent contribute() calls from inside workerd (scripts/bench/pool-worker.ts), ` +
      "then the object's total and entry count, the entry numbers 0..n-1 once each, and D1's mirror (contributions, entries, pool amount) are checked. " +
      "The last run goes into a pool that already holds paid entries (written to D1 and imported by the object as it starts), " +
      "its new entries numbered after them. The flood run takes the same contributions while one live socket of the pool sends " +
      `${POOL_FLOOD} "state" messages (its message budget closes it; decision 430).`,
  );
  out();
  if (pool.error) {
    out(`Not measured: ${pool.error}`);
  } else {
    out("| run | n | elapsed ms | contributions/s | exact sum | entries 0..n-1 once | D1 mirror exact | failures |");
    out("|---|---:|---:|---:|---|---|---|---:|");
    const poolRow = (label, run) =>
      out(
        `| ${label} | ${run.n} | ${f(run.elapsedMs)} | ${f(run.perSecond)} | ${run.sumOk ? "yes" : "**no**"} | ` +
          `${run.entriesOk ? "yes" : "**no**"} | ${run.mirrorOk ? "yes" : "**no**"} | ${run.failures} |`,
      );
    pool.runs.forEach((run, i) => poolRow(i === 0 ? "warm-up" : String(i), run));
    poolRow(`into a pool holding ${pool.long.prefill} entries`, pool.long);
    poolRow(`while one socket floods ${POOL_FLOOD} messages`, pool.flooded);
    out();
    out(floodSummary(pool.flooded));
    out();
    out(
      `Median of the measured runs: **${f(pool.median)} contributions/s**; into a pool already holding ${pool.long.prefill} entries ` +
        `**${f(pool.long.perSecond)}/s**; under a flood **${f(pool.flooded.perSecond)}/s**; exact: ${pool.allExact ? "yes" : "**no**"} → ` +
        `${verdict(Math.min(pool.median, pool.long.perSecond, pool.flooded.perSecond) >= TARGET_POOL_PER_S && pool.allExact)} ` +
        `(target ${TARGET_POOL_PER_S}/s, new, long-lived or flooded).`,
    );
  }
  out();

  out("## Sizes");
  out();
  out("| what | gzip | target | result |");
  out("|---|---:|---:|---|");
  out(
    `| Home page client JS (${scripts.files.length} files, ${f(scripts.files.reduce((s, x) => s + x.bytes, 0) / 1024, 1)} KB raw) | ` +
      `${f(scripts.gzipKB, 1)} KB | ${TARGET_HOME_JS_KB} KB | ${verdict(scripts.gzipKB <= TARGET_HOME_JS_KB)} |`,
  );
  out(
    `| Worker bundle (${bundle.files} .js files in build/server, ${f(bundle.bytes / 1024 / 1024, 2)} MB raw) | ` +
      `${f(bundle.gzip / 1024 / 1024, 2)} MB | ${TARGET_WORKER_MB} MB | ${verdict(bundle.gzip / 1024 / 1024 <= TARGET_WORKER_MB)} |`,
  );
  out();
  out(
    "Gzip is node:zlib's default level, file by file. Home page files, largest first: " +
      [...scripts.files]
        .sort((a, b) => b.gzip - a.gzip)
        .slice(0, 6)
        .map((x) => `${path.basename(x.pathname)} ${f(x.gzip / 1024, 1)} KB`)
        .join(", ") +
      (scripts.notPreloaded.length
        ? `; not in the page's modulepreload list: ${scripts.notPreloaded.join(", ")}`
        : "") +
      ".",
  );
  out();

  out("## Diagnostic: where a page's time goes");
  out();
  out(
    "Server CPU per request for the page (HTML) and for the same route's loaders alone (React Router's `.data` URL: " +
      "loaders + serialisation, no HTML; same load); their difference is roughly the cost of rendering the HTML. " +
      "Then each route loader run in workerd against the same data (scripts/bench/profile-worker.js) with every D1 query " +
      "timed: medians of 30 runs; workerd's clock moves in whole milliseconds and only across I/O, and a loader's " +
      "queries may run in parallel (so their sum can exceed the loader's time).",
  );
  out();
  out(
    "| page | CPU ms/req, page | CPU ms/req, data only | ≈ HTML rendering | loader ms | D1 ms (sum) | queries | slowest query (ms) |",
  );
  out("|---|---:|---:|---:|---:|---:|---:|---|");
  for (const page of pages) {
    const data = diagnostics.find((d) => d.dataOf === page.label);
    const item = profile.error
      ? { error: profile.error }
      : (profile.pages.find((p) => p.label === page.label) ?? { error: "not profiled" });
    const slowest = item.error ? null : [...item.queries].sort((a, b) => b.ms - a.ms)[0];
    const dataCpu = data && data.allOk ? data.serverCpuMsPerReq : NaN;
    out(
      `| \`${page.label}\` | ${f(page.serverCpuMsPerReq, 2)} | ${f(dataCpu, 2)}${data && !data.allOk ? " (not all 200)" : ""} | ` +
        `${f(page.serverCpuMsPerReq - dataCpu, 2)} | ` +
        (item.error
          ? `n/a | n/a | n/a | ${item.error.split("\n")[0].slice(0, 120)} |`
          : `${f(item.loaderMs)} | ${f(item.d1Ms)} | ${item.queries.length} | ` +
            `${slowest ? `${f(slowest.ms)}: \`${slowest.sql.slice(0, 80).replaceAll("|", "\\|").replaceAll('"', "")}…\`` : "none"} |`),
    );
  }
  out();
  const base = diagnostics.filter((d) => !d.dataOf);
  if (base.length) {
    out(
      "Baselines from the table above: " +
        base.map((d) => `${d.label} ${f(d.serverCpuMsPerReq, 2)} CPU ms/req`).join("; ") +
        `; the ceiling ${f(ceilingCpu, 2)}.`,
    );
    out();
  }
  out("## Timings");
  out();
  out(
    Object.entries(timings)
      .map(([k, v]) => `${k} ${f(v, 1)} s`)
      .join(" · "),
  );
  out();
  return lines.join("\n");
}

// --- main ---------------------------------------------------------------------------------------------------------

const timings = {};
async function step(name, fn) {
  const started = Date.now();
  console.log(`bench: ${name}…`);
  try {
    return await fn();
  } finally {
    timings[name] = (Date.now() - started) / 1000;
  }
}

function buildLooksComplete(dir) {
  const server = path.join(dir, "server");
  if (!existsSync(path.join(server, "wrangler.json")) || !existsSync(path.join(server, "index.js"))) return false;
  if (!existsSync(path.join(dir, "client", "assets"))) return false;
  // Every relative import of the entry must be there.
  const entry = readFileSync(path.join(server, "index.js"), "utf8");
  return [...entry.matchAll(/["'](\.\/assets\/[^"']+\.js)["']/g)].every(([, ref]) =>
    existsSync(path.join(server, ref)),
  );
}

/** Step 6: the prize pool object's throughput (fresh, long-lived, and beside a flooded live socket). */
async function measurePool() {
  let server;
  try {
    rmSync(POOL_STATE_DIR, { recursive: true, force: true });
    await runLogged(
      "pool-migrations",
      [
        tools.wrangler,
        "d1",
        "migrations",
        "apply",
        "DB",
        "--local",
        "--persist-to",
        POOL_STATE_DIR,
        "--config",
        "wrangler.bench.toml",
      ],
      { cwd: BENCH_DIR, extraEnv: { CI: "true" }, input: "y\n" },
    );
    server = await wranglerDev("pool-server", "wrangler.bench.toml", POOL_STATE_DIR);
    const runs = [];
    for (const n of [Math.min(200, POOL_N), ...Array.from({ length: POOL_RUNS }, () => POOL_N)]) {
      const response = await fetch(`${server.url}/run?n=${n}`, { signal: AbortSignal.timeout(300_000) });
      const run = await response.json();
      if (!response.ok || run.error) throw new Error(`/run?n=${n}: ${run.error ?? response.status}`);
      console.log(
        `  n=${run.n}: ${run.elapsedMs} ms, ${run.perSecond}/s, exact sum ${run.sumOk}, entries ${run.entriesOk}, mirror ${run.mirrorOk}, failures ${run.failures}`,
      );
      runs.push(run);
    }
    const measured = runs.slice(1);
    const rates = measured.map((r) => r.perSecond).sort((a, b) => a - b);
    const response = await fetch(`${server.url}/run?n=${POOL_N}&prefill=${POOL_PREFILL}`, {
      signal: AbortSignal.timeout(600_000),
    });
    const long = await response.json();
    if (!response.ok || long.error) throw new Error(`/run?prefill=${POOL_PREFILL}: ${long.error ?? response.status}`);
    console.log(`  n=${long.n} after ${long.prefill}: ${long.elapsedMs} ms, ${long.perSecond}/s, exact ${long.ok}`);
    const floodResponse = await fetch(`${server.url}/run?n=${POOL_N}&flood=${POOL_FLOOD}`, {
      signal: AbortSignal.timeout(600_000),
    });
    const flooded = await floodResponse.json();
    if (!floodResponse.ok || flooded.error)
      throw new Error(`/run?flood=${POOL_FLOOD}: ${flooded.error ?? floodResponse.status}`);
    console.log(
      `  n=${flooded.n} with a flood: ${flooded.elapsedMs} ms, ${flooded.perSecond}/s, exact ${flooded.ok}; ${floodSummary(flooded)}`,
    );
    return {
      runs,
      long,
      flooded,
      median: rates[Math.floor((rates.length - 1) / 2)],
      allExact: runs.every((r) => r.ok) && long.ok && flooded.ok,
    };
  } catch (error) {
    return { error: (error instanceof Error ? error.message : String(error)).split("\n")[0] };
  } finally {
    await stop(server?.child);
  }
}

/** One sentence on the flood run's socket: what it sent, what it got back and how the object closed it. */
function floodSummary(run) {
  const flood = run.flood;
  if (!flood) return "No flood.";
  const closed = flood.closed
    ? `closed by the pool with ${flood.closed.code} "${flood.closed.reason}"`
    : "**never closed by the pool**";
  return `The flooding socket sent ${flood.sent} of ${flood.messages} "state" messages, got ${flood.replies} replies and was ${closed}.`;
}

async function main() {
  const startedAt = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const machine = {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model?.trim() ?? "unknown CPU",
    loadStart: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
  };

  if (ONLY_POOL) {
    const pool = await step("pool", measurePool);
    if (pool.error) throw new Error(pool.error);
    const rate = Math.min(pool.median, pool.long.perSecond, pool.flooded.perSecond);
    console.log(
      `\npool: median ${pool.median}/s, long-lived ${pool.long.perSecond}/s, flooded ${pool.flooded.perSecond}/s, exact ${pool.allExact}`,
    );
    console.log(
      `${floodSummary(pool.flooded)} → ${rate >= TARGET_POOL_PER_S && pool.allExact ? "pass" : "FAIL"} (target ${TARGET_POOL_PER_S}/s)`,
    );
    return 0;
  }

  // 1. Build and state.
  await step("build", async () => {
    for (let attempt = 1; ; attempt++) {
      if (!SKIP_BUILD) await runLogged("build", [tools.reactRouter, "build"]);
      rmSync(BUILD_COPY, { recursive: true, force: true });
      cpSync(path.join(root, "build"), BUILD_COPY, { recursive: true });
      if (buildLooksComplete(BUILD_COPY)) break;
      if (SKIP_BUILD || attempt >= 2) throw new Error("build/ is incomplete (was it being rebuilt meanwhile?)");
      console.log("bench: build/ changed under us, building again");
    }
    // The bare React Router app (step 4b), with the same installed toolchain, from its own directory.
    if (SKIP_BUILD && buildLooksComplete(FLOOR_BUILD)) return;
    rmSync(FLOOR_BUILD, { recursive: true, force: true });
    await runLogged("floor-build", [tools.reactRouter, "build"], { cwd: FLOOR_APP });
    if (!buildLooksComplete(FLOOR_BUILD))
      throw new Error(`${path.relative(root, FLOOR_BUILD)} is incomplete after its build`);
  });
  const ids = await step("data", async () => {
    const previous = path.join(STATE_DIR, "bench-data.json");
    if (KEEP_DATA && existsSync(previous)) return JSON.parse(readFileSync(previous, "utf8"));
    rmSync(STATE_DIR, { recursive: true, force: true });
    ensureDevVars();
    await runLogged(
      "migrations",
      [tools.wrangler, "d1", "migrations", "apply", "DB", "--local", "--persist-to", STATE_DIR],
      {
        extraEnv: { CI: "true" },
        input: "y\n",
      },
    );
    await runLogged("seed", [tools.tsx, "--tsconfig", "tsconfig.node.json", "scripts/seed.ts"], {
      extraEnv: { PERSIST_DIR: STATE_DIR, WRANGLER_LOG: "error" },
    });
    const out = path.join(STATE_DIR, "bench-data.json");
    await runLogged("scale-data", [path.join(BENCH_DIR, "scale-data.mjs"), STATE_DIR, out], {
      extraEnv: { WRANGLER_LOG: "error" },
    });
    const data = JSON.parse(readFileSync(out, "utf8"));
    console.log(
      `  ${data.hosts} hosts, ${data.activeProducts} active products, ${data.openPools} open pools (scale-up ${data.seconds.toFixed(1)} s)`,
    );
    return data;
  });

  // 2–4. Pages against the ceiling, sizes.
  let app;
  let ceiling;
  let d1Host;
  let remoteApp;
  let floorApp;
  const pages = [];
  const ceilings = [];
  const diagnostics = [];
  let scripts;
  let fan;
  let lighthouseRows;
  try {
    ({ app, ceiling, d1Host, remoteApp, floorApp } = await step("servers", async () => {
      rmSync(CEILING_STATE_DIR, { recursive: true, force: true });
      rmSync(FLOOR_STATE_DIR, { recursive: true, force: true });
      // The same data for the app whose D1 runs in another process, copied while nothing has it open.
      rmSync(REMOTE_D1_STATE_DIR, { recursive: true, force: true });
      cpSync(STATE_DIR, REMOTE_D1_STATE_DIR, { recursive: true });
      const [appServer, ceilingServer, hostServer, floorServer] = await Promise.all([
        serveDirect("app-server", path.join(BUILD_COPY, "server", "wrangler.json"), STATE_DIR, "/api/health"),
        serveDirect("ceiling-server", path.join(BENCH_DIR, "wrangler.ceiling.toml"), CEILING_STATE_DIR),
        serveDirect("d1-host", path.join(BENCH_DIR, "d1-host", "wrangler.toml"), REMOTE_D1_STATE_DIR),
        serveDirect("floor-server", path.join(FLOOR_BUILD, "server", "wrangler.json"), FLOOR_STATE_DIR),
      ]);
      const remoteServer = await serveDirect(
        "app-remote-d1",
        remoteD1Config(hostServer.url),
        REMOTE_D1_STATE_DIR,
        "/api/health",
      );
      return {
        app: appServer,
        ceiling: ceilingServer,
        d1Host: hostServer,
        remoteApp: remoteServer,
        floorApp: floorServer,
      };
    }));

    // dataPath: React Router's single-fetch URL for the same loaders without the HTML (loader + serialisation).
    const pageList = [
      { label: "/", path: "/", dataPath: "/_.data" },
      { label: "/shop", path: "/shop", dataPath: "/shop.data" },
      { label: SEARCH_LABEL, path: SEARCH_PATH, dataPath: SEARCH_PATH.replace("/shop", "/shop.data") },
      {
        label: SEARCH_TYPICAL_LABEL,
        path: SEARCH_TYPICAL_PATH,
        dataPath: SEARCH_TYPICAL_PATH.replace("/shop", "/shop.data"),
      },
      { label: "/profile/{id}", path: `/profile/${ids.profileHostId}`, dataPath: `/profile/${ids.profileHostId}.data` },
      { label: "/buy-now/{id}", path: `/buy-now/${ids.productId}`, dataPath: `/buy-now/${ids.productId}.data` },
    ];
    const diagnosticList = [
      { label: "/api/health (Hono, no React)", path: "/api/health" },
      { label: "/terms (React, no D1)", path: "/terms" },
      { label: "/terms data only (React Router, no D1, no HTML)", path: "/terms.data" },
      ...pageList.map((item) => ({ label: `${item.label} data only`, path: item.dataPath, dataOf: item.label })),
    ];
    for (const item of ONLY_FAN ? [] : [...pageList, ...diagnosticList]) {
      const check = await firstCheck(app.url + item.path);
      console.log(`  GET ${item.path} → ${check.status} (${check.bytes} bytes)${check.error ? ` ${check.error}` : ""}`);
    }

    if (!ONLY_FAN)
      await step("pages", async () => {
        console.log(`  (${CONNECTIONS} connections, ${WARMUP} s warm-up + ${SECONDS} s per run)`);
        let before = await measure("ceiling", ceiling.url + "/", ceiling.child);
        ceilings.push(before);
        for (const item of pageList) {
          const row = await measure(item.label, app.url + item.path, app.child);
          const after = await measure("ceiling", ceiling.url + "/", ceiling.child);
          ceilings.push(after);
          row.ratio = row.rps / ((before.rps + after.rps) / 2);
          pages.push(row);
          before = after;
        }
        for (const item of diagnosticList) {
          const row = await measure(item.label, app.url + item.path, app.child, {
            seconds: DIAG_SECONDS,
            warmup: Math.min(WARMUP, 1),
          });
          diagnostics.push({ ...row, dataOf: item.dataOf });
        }
      });

    fan = await step("signed-in fan", async () => {
      const cookie = await signInCookie(app.url, FAN.email, FAN.password);
      /** Each page of `list` ([label, pathname]) on `server`, request by request (scripts/bench/cpu.mjs). */
      // The machine's speed drifts (the same build's figures moved 20–40% between runs an hour apart), so each page
      // below is measured between two runs of the ceiling, as the throughput rows are: its "net" subtracts the mean
      // of those two floors, measured the same way in the same minutes.
      const ceilingUrl = `${ceiling.url}/`;
      const ceilingPids = workerdPids(ceiling.child.pid);
      const floorNow = async () =>
        (await cpuPerRequest(ceilingUrl, ceilingPids, { warmup: 10, samples: FLOOR_SAMPLES })).medianMs;
      const measureCpu = async (server, list, headers = {}, bracketed = true) => {
        const rows = [];
        let before = bracketed ? await floorNow() : null;
        for (const [label, pathname] of list) {
          const row = await cpuPerRequest(server.url + pathname, workerdPids(server.child.pid), {
            headers,
            warmup: CPU_WARMUP,
            samples: CPU_SAMPLES,
          });
          const after = bracketed ? await floorNow() : null;
          const floorMedianMs = bracketed ? (before + after) / 2 : null;
          const floorNote = floorMedianMs === null ? "" : `, floor around it ${floorMedianMs.toFixed(2)} ms`;
          console.log(
            `  ${label.padEnd(16)} median ${row.medianMs.toFixed(2)} ms, p99 ${row.p99Ms.toFixed(2)} ms (main thread ${row.mainMedianMs.toFixed(2)} / ${row.mainP99Ms.toFixed(2)}), ${row.htmlKB.toFixed(1)} KB${floorNote}${row.allOk ? "" : " (NOT all 200)"}`,
          );
          rows.push({ label, ...row, floorMedianMs });
          before = after;
        }
        return rows;
      };
      // The ceiling's own run (after the same warm-up as the pages): the floor's p99 beside each page's.
      const [floor] = await measureCpu(ceiling, [["ceiling (fixed HTML)", "/"]], {}, false);
      console.log("  bare React Router app (scripts/bench/floor-app):");
      const stackRows = await measureCpu(floorApp, [
        ["/", "/"],
        ["/d1", "/d1"],
      ]);
      const fanPages = [
        ["/", "/"],
        ["/shop", "/shop"],
        [SEARCH_LABEL, SEARCH_PATH],
        [SEARCH_TYPICAL_LABEL, SEARCH_TYPICAL_PATH],
        ["/profile/{id}", `/profile/${ids.profileHostId}`],
        ["/buy-now/{id}", `/buy-now/${ids.productId}`],
        ["/my-orders", "/my-orders"],
      ];
      console.log("  signed-in fan:");
      const rows = await measureCpu(app, fanPages, { Cookie: cookie });
      console.log("  signed-in fan, with D1 in its own process:");
      const remoteCookie = await signInCookie(remoteApp.url, FAN.email, FAN.password);
      const remoteRows = await measureCpu(remoteApp, fanPages, { Cookie: remoteCookie });
      // The search ratios (issue 31): /shop and both searches taking turns request by request, between two floors,
      // so the three are compared in the same minutes (measured one after another they moved by ±30%).
      const searchPages = [
        ["/shop", "/shop"],
        [SEARCH_LABEL, SEARCH_PATH],
        [SEARCH_TYPICAL_LABEL, SEARCH_TYPICAL_PATH],
      ];
      const interleaved = async (server, headers) => {
        const before = await floorNow();
        const { medianMs, allOk } = await cpuInterleaved(
          searchPages.map(([, pathname]) => server.url + pathname),
          workerdPids(server.child.pid),
          { headers, warmup: 50, samples: CPU_SAMPLES },
        );
        const floorMedianMs = (before + (await floorNow())) / 2;
        const rows = searchPages.map(([label], k) => ({ label, medianMs: medianMs[k], floorMedianMs, allOk }));
        console.log(
          `  interleaved: ${rows.map((r) => `${r.label} ${r.medianMs.toFixed(2)} ms`).join(", ")}, floor around them ${floorMedianMs.toFixed(2)} ms`,
        );
        return rows;
      };
      console.log("  search beside /shop, interleaved:");
      const searchRows = await interleaved(app, { Cookie: cookie });
      const remoteSearchRows = await interleaved(remoteApp, { Cookie: remoteCookie });
      return { floor, stackRows, rows, remoteRows, searchRows, remoteSearchRows };
    });
    if (ONLY_FAN) {
      console.log(`\n${stackFloorSummary(fan)}`);
      console.log(`\nsigned-in fan, D1 in the same workerd:\n${fanLines(fan.rows, fan).join("\n")}`);
      console.log(`signed-in fan, D1 in its own process:\n${fanLines(fan.remoteRows, fan).join("\n")}`);
      console.log(`search vs /shop (table | /shop | search | ratio | result):\n${searchLines([], fan).join("\n")}`);
      if (FAN_RESULTS) {
        replaceFanSection(fan, `${startedAt}, load average at start ${machine.loadStart}`);
        console.log(`bench: the signed-in section of ${path.relative(root, RESULTS)} replaced`);
      }
      return 0;
    }

    lighthouseRows = await step("lighthouse", async () => {
      const proxy = await startCompressProxy(app.url);
      try {
        const rows = [];
        // The search page is /shop's template: Lighthouse measures /shop.
        for (const [label, pathname] of pageList
          .filter((item) => !SEARCH_LABELS.includes(item.label))
          .map((item) => [item.label, item.path])) {
          const runs = [];
          for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(await lighthouse(root, proxy.url + pathname));
          const ok = runs.filter((r) => !r.error).sort((a, b) => a.score - b.score);
          const median = ok[Math.floor((ok.length - 1) / 2)];
          console.log(
            `  ${label.padEnd(16)} ${ok.map((r) => r.score).join(", ") || runs.map((r) => r.error).join("; ")}`,
          );
          rows.push({ label, runs, median, error: ok.length ? null : runs[0]?.error });
        }
        return rows;
      } finally {
        await proxy.close();
      }
    });

    scripts = await step("client js", async () => {
      const home = await firstCheck(app.url + "/");
      if (home.status !== 200) throw new Error(`GET / answered ${home.status}`);
      const found = await pageScripts(app.url, home.body);
      return { ...found, gzipKB: found.files.reduce((s, x) => s + x.gzip, 0) / 1024 };
    });
  } finally {
    await Promise.all([
      stop(app?.child),
      stop(ceiling?.child),
      stop(remoteApp?.child),
      stop(d1Host?.child),
      stop(floorApp?.child),
    ]);
  }
  const bundle = workerBundle();

  // 5. Loader profile (diagnostic; the bench goes on without it).
  const profile = await step("loader profile", async () => {
    let server;
    try {
      server = await wranglerDev("profile-server", "wrangler.profile.toml", STATE_DIR);
      const items = [];
      for (const [label, pathname] of [
        ["/", "/"],
        ["/shop", "/shop"],
        [SEARCH_LABEL, SEARCH_PATH],
        [SEARCH_TYPICAL_LABEL, SEARCH_TYPICAL_PATH],
        ["/profile/{id}", `/profile/${ids.profileHostId}`],
        ["/buy-now/{id}", `/buy-now/${ids.productId}`],
      ]) {
        const response = await fetch(`${server.url}/profile?path=${encodeURIComponent(pathname)}&runs=30`, {
          signal: AbortSignal.timeout(120_000),
        });
        items.push({ label, ...(await response.json()) });
      }
      return { pages: items };
    } catch (error) {
      return { error: (error instanceof Error ? error.message : String(error)).split("\n")[0] };
    } finally {
      await stop(server?.child);
    }
  });

  // 6. Prize pool throughput.
  const pool = await step("pool", measurePool);

  machine.loadEnd = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  const markdown = report({
    startedAt,
    pages,
    ceilings,
    diagnostics,
    scripts,
    bundle,
    pool,
    profile,
    fan,
    lighthouseRows,
    scale: ids,
    timings,
    machine,
  });
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, markdown);
  console.log(`\n${markdown}`);
  console.log(`bench: written to ${path.relative(root, RESULTS)} (server logs in ${path.relative(root, LOG_DIR)})`);
  return 0;
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    stopAllNow();
    if (interrupted) process.exit(130);
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    process.exit(1);
  });
