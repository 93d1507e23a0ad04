// `node patches/measure.mjs <patch> [<patch> ...]`: does each build patch (patches/README.md) pay? Each is measured
// interleaved against the unpatched build, on the signed-in bench pages, and held to the bar of issue 28:
//
//   keep a patch only if it saves at least 0.5 ms of median net workerd CPU on EVERY signed-in page in at least 4 of
//   5 rounds of at least 300 requests per page and build.
//
// Steps:
//  1. Builds, each copied out of build/ into .wrangler/patch-measure/<name>/: "unpatched" (PATCHES_LEFT_OUT naming
//     every patch) and, per patch measured, one with only that patch. build/ is rebuilt as usual at the end.
//  2. The bench's scaled-up data (.wrangler/bench-state, made by `npm run bench` or by this script when missing: the
//     same migrations, seed and scripts/bench/scale-data.mjs), copied once per build so the two servers share no file.
//  3. Both builds served as the bench serves them (scripts/bench/serve.mjs: Miniflare straight on workerd), and the
//     bench's fixed-HTML ceiling Worker for the runtime's floor.
//  4. Per round and page: both servers warmed up, then requests one at a time, alternating A, B, B, A, A, B, ... (the
//     order flips each pair), each sample the CPU of every thread of that server's workerd (scripts/bench/cpu.mjs).
//     The floor (the ceiling's median over 100 requests) is measured before and after each round; a page's "net"
//     subtracts the mean of the two. The saving is A's net median minus B's (the floor cancels out).
//
// Prints the raw medians per round and page and the verdict, and writes them to bench/patch-<patch>.md.
// Environment: MEASURE_ROUNDS (5), MEASURE_REQUESTS (300 per page, build and round), MEASURE_SKIP_BUILD=1 (reuse the
// builds in .wrangler/patch-measure). Needs Linux (/proc) and the machine otherwise as quiet as it can be.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { cpuNs, freePort, mainThreadCpuNs, signInCookie, workerdPids } from "../scripts/bench/cpu.mjs";
import {
  applyMigrations,
  childEnv,
  ensureDevVars,
  nodeBin,
  root,
  run,
  seed,
  tools,
} from "../scripts/prepare-local.mjs";

/** Every patch vite.config.ts knows, by the name PATCHES_LEFT_OUT takes. */
const PATCHES = ["fizz-text-chunks", "react-router-route-tables"];
const SAVING_MS = 0.5;
const num = (name, fallback) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? Math.round(value) : fallback;
};
const ROUNDS = num("MEASURE_ROUNDS", 5);
const REQUESTS = num("MEASURE_REQUESTS", 300);
const ROUNDS_NEEDED = Math.ceil((ROUNDS * 4) / 5);
/**
 * MEASURE_FULL=1: every page in every round. Otherwise a round stops at its first page under the bar (the round has
 * failed), and the patch's measurement once so many rounds have failed that it cannot meet the bar.
 */
const FULL = process.env.MEASURE_FULL === "1";
const FLOOR_REQUESTS = 100;
const WARMUP = 50;
const FAN = { email: "fan@demo.tribe", password: "demo-password-2026" };

const OUT = path.join(root, ".wrangler", "patch-measure");
const BENCH_STATE = path.join(root, ".wrangler", "bench-state");
const BENCH_DIR = path.join(root, "scripts", "bench");

const asked = process.argv.slice(2);
if (!asked.length || asked.some((name) => !PATCHES.includes(name))) {
  console.error(`usage: node patches/measure.mjs <${PATCHES.join(" | ")}> ...`);
  process.exit(2);
}

// --- builds, data, servers ------------------------------------------------------------------------------------------

async function build(name, leftOut) {
  const dir = path.join(OUT, name);
  if (process.env.MEASURE_SKIP_BUILD === "1" && existsSync(path.join(dir, "server", "index.js"))) return dir;
  console.log(`measure: building ${name} (PATCHES_LEFT_OUT=${leftOut.join(",")})`);
  await run(tools.reactRouter, ["build"], { env: childEnv({ PATCHES_LEFT_OUT: leftOut.join(",") }) });
  rmSync(dir, { recursive: true, force: true });
  cpSync(path.join(root, "build"), dir, { recursive: true });
  return dir;
}

async function benchData() {
  const file = path.join(BENCH_STATE, "bench-data.json");
  if (!existsSync(file)) {
    console.log("measure: no bench data yet, making it as `npm run bench` does");
    rmSync(BENCH_STATE, { recursive: true, force: true });
    ensureDevVars();
    await applyMigrations(BENCH_STATE);
    await seed(BENCH_STATE);
    await run(path.join(BENCH_DIR, "scale-data.mjs"), [BENCH_STATE, file]);
  }
  return JSON.parse(readFileSync(file, "utf8"));
}

const servers = new Set();
process.on("exit", () => {
  for (const child of servers) child.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

/** Serves a prebuilt Worker through scripts/bench/serve.mjs; resolves with its origin and its workerd pids. */
async function serve(config, persistDir) {
  const port = await freePort();
  const child = spawn(nodeBin, [path.join(BENCH_DIR, "serve.mjs"), config, persistDir, String(port)], {
    cwd: root,
    env: childEnv({ CLOUDFLARE_CF_FETCH_ENABLED: "false" }),
    stdio: ["pipe", "pipe", "inherit"],
  });
  servers.add(child);
  const origin = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      const match = /READY (\S+)/.exec(String(chunk));
      if (match) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`serve.mjs ${config} exited ${code}`)));
  });
  return { origin, child, pids: workerdPids(child.pid) };
}

/** A build served on its own copy of the bench data, signed in as the bench's fan. */
async function serveBuild(name, dir) {
  const state = path.join(OUT, `state-${name}`);
  rmSync(state, { recursive: true, force: true });
  cpSync(BENCH_STATE, state, { recursive: true });
  ensureDevVars();
  cpSync(path.join(root, ".dev.vars"), path.join(dir, "server", ".dev.vars"));
  const server = await serve(path.join(dir, "server", "wrangler.json"), state);
  return { ...server, name, cookie: await signInCookie(server.origin, FAN.email, FAN.password) };
}

// --- measuring ------------------------------------------------------------------------------------------------------

/** One request, alone: the CPU ms of every thread and of the main thread of the server's workerd. */
async function sample(server, pathname, headers) {
  const before = cpuNs(server.pids);
  const mainBefore = mainThreadCpuNs(server.pids);
  const response = await fetch(server.origin + pathname, { headers, redirect: "manual" });
  await response.arrayBuffer();
  const mainAfter = mainThreadCpuNs(server.pids);
  const after = cpuNs(server.pids);
  if (response.status !== 200) throw new Error(`${server.name} ${pathname} answered ${response.status}`);
  return { ms: (after - before) / 1e6, mainMs: (mainAfter - mainBefore) / 1e6 };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

async function floorMedian(ceiling) {
  const ms = [];
  for (let i = 0; i < WARMUP + FLOOR_REQUESTS; i++) {
    const { ms: one } = await sample(ceiling, "/", {});
    if (i >= WARMUP) ms.push(one);
  }
  return median(ms);
}

/** A and B on one page, interleaved: REQUESTS each, the order flipping every pair. */
async function interleaved(a, b, pathname) {
  for (let i = 0; i < WARMUP; i++) {
    await sample(a, pathname, { Cookie: a.cookie });
    await sample(b, pathname, { Cookie: b.cookie });
  }
  const samples = { a: [], b: [] };
  for (let i = 0; i < REQUESTS; i++) {
    const order = i % 2 ? [b, a] : [a, b];
    for (const server of order)
      samples[server === a ? "a" : "b"].push(await sample(server, pathname, { Cookie: server.cookie }));
  }
  return {
    a: median(samples.a.map((s) => s.ms)),
    b: median(samples.b.map((s) => s.ms)),
    aMain: median(samples.a.map((s) => s.mainMs)),
    bMain: median(samples.b.map((s) => s.mainMs)),
  };
}

async function measurePatch(patch, unpatched, patched, ceiling, pages) {
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    if (!FULL && rounds.filter((r) => !r.met).length > ROUNDS - ROUNDS_NEEDED) break;
    const floorBefore = await floorMedian(ceiling);
    const rows = [];
    for (const [label, pathname] of pages) {
      if (!FULL && rows.some((row) => row.saving < SAVING_MS)) break;
      const row = await interleaved(unpatched, patched, pathname);
      rows.push({ label, ...row, saving: row.a - row.b });
      console.log(
        `  ${patch} round ${round} ${label.padEnd(14)} unpatched ${row.a.toFixed(2)} ms, patched ${row.b.toFixed(2)} ms, ` +
          `saving ${(row.a - row.b).toFixed(2)} ms (main thread ${(row.aMain - row.bMain).toFixed(2)})`,
      );
    }
    const floorAfter = await floorMedian(ceiling);
    const floor = (floorBefore + floorAfter) / 2;
    const met = rows.every((row) => row.saving >= SAVING_MS);
    console.log(`  ${patch} round ${round}: floor ${floor.toFixed(2)} ms; every page saved ≥ ${SAVING_MS} ms: ${met}`);
    rounds.push({ round, floor, rows, met });
  }
  const roundsMet = rounds.filter((r) => r.met).length;
  return { patch, rounds, roundsMet, keep: roundsMet >= ROUNDS_NEEDED };
}

// --- report ---------------------------------------------------------------------------------------------------------

function report(result, machine, pages) {
  const lines = [];
  const out = (...text) => lines.push(...(text.length ? text : [""]));
  out(`# Patch measurement: ${result.patch}`);
  out();
  out(
    `\`node patches/measure.mjs ${result.patch}\`, ${machine.started} to ${machine.ended}, ${machine.cpus} × ${machine.model}, ` +
      `load average at start ${machine.loadStart}, at end ${machine.loadEnd}. The unpatched build (no patch) against a build ` +
      `with only ${result.patch}, both served by scripts/bench/serve.mjs on the bench's scaled-up data, signed in as the bench's ` +
      `fan; per round and page ${WARMUP} warm-up requests each, then ${REQUESTS} requests each, one at a time, alternating ` +
      "A, B, B, A, …; each sample the CPU of every thread of that build's workerd. Net = median − the floor (the fixed-HTML " +
      `ceiling's median over ${FLOOR_REQUESTS} requests before and after the round, averaged).`,
  );
  out();
  out(
    `Bar: a saving of at least ${SAVING_MS} ms of median net CPU on every page in at least ${ROUNDS_NEEDED} of ${ROUNDS} rounds.`,
  );
  out();
  if (!FULL)
    out(
      "Measured until the verdict was decided: a round stops at its first page under the bar, and the measurement once " +
        `more than ${ROUNDS - ROUNDS_NEEDED} rounds have failed (\`MEASURE_FULL=1\` measures every page of every round).`,
      "",
    );
  out(
    "| round | floor ms | page | unpatched median ms (net) | patched median ms (net) | saving ms | main-thread saving ms |",
  );
  out("|---:|---:|---|---:|---:|---:|---:|");
  for (const round of result.rounds)
    for (const row of round.rows)
      out(
        `| ${round.round} | ${round.floor.toFixed(2)} | \`${row.label}\` | ${row.a.toFixed(2)} (${(row.a - round.floor).toFixed(2)}) | ` +
          `${row.b.toFixed(2)} (${(row.b - round.floor).toFixed(2)}) | ${row.saving.toFixed(2)} | ${(row.aMain - row.bMain).toFixed(2)} |`,
      );
  out();
  out(
    `Rounds in which every page saved at least ${SAVING_MS} ms: ${result.roundsMet} of ${result.rounds.length} measured ` +
      `(${result.rounds.map((r) => (r.met ? "yes" : "no")).join(", ")}). Per page, rounds at or over the bar: ` +
      pages
        .map(
          ([label]) =>
            `${label} ${result.rounds.filter((r) => r.rows.find((row) => row.label === label)?.saving >= SAVING_MS).length} of ` +
            `${result.rounds.filter((r) => r.rows.some((row) => row.label === label)).length}`,
        )
        .join(", ") +
      `. Verdict: **${result.keep ? "keep" : "remove"}**.`,
  );
  out();
  return lines.join("\n");
}

async function main() {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  const machine = {
    started: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model?.trim() ?? "unknown CPU",
    loadStart: load(),
  };
  mkdirSync(OUT, { recursive: true });
  const data = await benchData();
  const dirs = { unpatched: await build("unpatched", PATCHES) };
  for (const patch of asked)
    dirs[patch] = await build(
      patch,
      PATCHES.filter((p) => p !== patch),
    );
  if (process.env.MEASURE_SKIP_BUILD !== "1") {
    console.log("measure: building build/ again with every patch");
    await run(tools.reactRouter, ["build"]);
  }
  const pages = [
    ["/", "/"],
    ["/shop", "/shop"],
    ["/profile/{id}", `/profile/${data.profileHostId}`],
    ["/buy-now/{id}", `/buy-now/${data.productId}`],
    ["/my-orders", "/my-orders"],
  ];
  const ceilingState = path.join(OUT, "state-ceiling");
  rmSync(ceilingState, { recursive: true, force: true });
  const ceiling = { ...(await serve(path.join(BENCH_DIR, "wrangler.ceiling.toml"), ceilingState)), name: "ceiling" };
  const unpatched = await serveBuild("unpatched", dirs.unpatched);
  const results = [];
  for (const patch of asked) {
    const patched = await serveBuild(patch, dirs[patch]);
    console.log(`measure: ${patch}, ${ROUNDS} rounds of ${REQUESTS} requests per page and build`);
    results.push(await measurePatch(patch, unpatched, patched, ceiling, pages));
    patched.child.kill("SIGTERM");
    servers.delete(patched.child);
  }
  machine.ended = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  machine.loadEnd = load();
  for (const result of results) {
    const markdown = report(result, machine, pages);
    const file = path.join(root, "bench", `patch-${result.patch}.md`);
    writeFileSync(file, markdown);
    console.log(`\n${markdown}\nmeasure: written to ${path.relative(root, file)}`);
  }
  for (const child of servers) child.kill("SIGTERM");
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(`measure failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    process.exit(1);
  });
