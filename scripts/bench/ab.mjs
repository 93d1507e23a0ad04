// `node scripts/bench/ab.mjs <build A> <build B> [name]`: does a change of the built Worker (a patch of a dependency,
// a build setting, a rewrite of a hot path) pay? A and B are two copies of build/ (e.g. `npm run build && cp -r build
// /tmp/a`, make the change, `npm run build && cp -r build /tmp/b`); B is measured interleaved against A on the
// signed-in bench pages and held to the bar of issue 28 (decision 440):
//
//   B pays only if it saves at least 0.5 ms of median net workerd CPU on EVERY signed-in page in at least 4 of 5
//   rounds of at least 300 requests per page and build.
//
// Steps:
//  1. The bench's scaled-up data (.wrangler/bench-state, made by `npm run bench` or by this script when missing: the
//     same migrations, seed and scripts/bench/scale-data.mjs), copied once per build so the two servers share no file.
//  2. Both builds served as the bench serves them (scripts/bench/serve.mjs: Miniflare straight on workerd), and the
//     bench's fixed-HTML ceiling Worker for the runtime's floor (it serves build/client as its assets).
//  3. Per round and page: both servers warmed up, then requests one at a time, alternating A, B, B, A, A, B, ... (the
//     order flips each pair), each sample the CPU of every thread of that server's workerd (cpu.mjs). The floor (the
//     ceiling's median over 100 requests) is measured before and after each round; a page's "net" subtracts the mean
//     of the two. The saving is A's median minus B's (the floor cancels out).
//  4. Unless AB_FULL=1, a round stops at its first page under the bar (the round has failed) and the measurement once
//     so many rounds have failed that B cannot meet the bar.
//
// Prints the raw medians per round and page and the verdict, and writes them to bench/ab-<name>.md.
// Environment: AB_ROUNDS (5), AB_REQUESTS (300 per page, build and round), AB_FULL=1. Needs Linux (/proc); the
// machine may be busy (interleaving is what keeps the comparison fair), but report the load with the figures.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyMigrations, childEnv, ensureDevVars, nodeBin, root, run, seed } from "../prepare-local.mjs";
import { cpuNs, freePort, mainThreadCpuNs, signInCookie, workerdPids } from "./cpu.mjs";

const SAVING_MS = 0.5;
const num = (name, fallback) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? Math.round(value) : fallback;
};
const ROUNDS = num("AB_ROUNDS", 5);
const REQUESTS = num("AB_REQUESTS", 300);
const ROUNDS_NEEDED = Math.ceil((ROUNDS * 4) / 5);
/** AB_FULL=1: every page in every round (otherwise the measurement stops once the verdict is decided). */
const FULL = process.env.AB_FULL === "1";
const FLOOR_REQUESTS = 100;
const WARMUP = 50;
const FAN = { email: "fan@demo.tribe", password: "demo-password-2026" };

const OUT = path.join(root, ".wrangler", "bench-ab");
const BENCH_STATE = path.join(root, ".wrangler", "bench-state");
const BENCH_DIR = path.join(root, "scripts", "bench");

const [dirA, dirB, name = "b"] = process.argv.slice(2);
if (!dirA || !dirB || ![dirA, dirB].every((dir) => existsSync(path.join(dir, "server", "wrangler.json")))) {
  console.error("usage: node scripts/bench/ab.mjs <build A> <build B> [name]   (each a copy of build/)");
  process.exit(2);
}

// --- data, servers ------------------------------------------------------------------------------------------

async function benchData() {
  const file = path.join(BENCH_STATE, "bench-data.json");
  if (!existsSync(file)) {
    console.log("ab: no bench data yet, making it as `npm run bench` does");
    rmSync(BENCH_STATE, { recursive: true, force: true });
    ensureDevVars();
    await applyMigrations(BENCH_STATE);
    await seed(BENCH_STATE);
    await run(path.join(BENCH_DIR, "scale-data.mjs"), [BENCH_STATE, file]);
  }
  return JSON.parse(readFileSync(file, "utf8"));
}

// Each serve.mjs reads our stdin pipe and disposes of its workerd when it closes, so however this process ends
// (Ctrl+C included), its servers go too; killing serve.mjs itself would leave its workerd behind.
const servers = new Set();
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

/** Asks every server to stop (serve.mjs disposes of its workerd on SIGTERM) and waits until each has. */
async function stopServers() {
  await Promise.all(
    [...servers].map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", resolve);
          child.kill("SIGTERM");
        }),
    ),
  );
  servers.clear();
}

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

async function measureAB(name, a, b, ceiling, pages) {
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    if (!FULL && rounds.filter((r) => !r.met).length > ROUNDS - ROUNDS_NEEDED) break;
    const floorBefore = await floorMedian(ceiling);
    const rows = [];
    for (const [label, pathname] of pages) {
      if (!FULL && rows.some((row) => row.saving < SAVING_MS)) break;
      const row = await interleaved(a, b, pathname);
      rows.push({ label, ...row, saving: row.a - row.b });
      console.log(
        `  ${name} round ${round} ${label.padEnd(14)} A ${row.a.toFixed(2)} ms, B ${row.b.toFixed(2)} ms, ` +
          `saving ${(row.a - row.b).toFixed(2)} ms (main thread ${(row.aMain - row.bMain).toFixed(2)})`,
      );
    }
    const floorAfter = await floorMedian(ceiling);
    const floor = (floorBefore + floorAfter) / 2;
    const met = rows.every((row) => row.saving >= SAVING_MS);
    console.log(`  ${name} round ${round}: floor ${floor.toFixed(2)} ms; every page saved ≥ ${SAVING_MS} ms: ${met}`);
    rounds.push({ round, floor, rows, met });
  }
  const roundsMet = rounds.filter((r) => r.met).length;
  return { name, rounds, roundsMet, pays: roundsMet >= ROUNDS_NEEDED };
}

// --- report ---------------------------------------------------------------------------------------------------------

function report(result, machine, pages) {
  const lines = [];
  const out = (...text) => lines.push(...(text.length ? text : [""]));
  out(`# A/B: ${result.name}`);
  out();
  out(
    `\`node scripts/bench/ab.mjs ${machine.dirs}\`, ${machine.started} to ${machine.ended}, ${machine.cpus} × ${machine.model}, ` +
      `load average at start ${machine.loadStart}, at end ${machine.loadEnd}. Build A against build B, both served by scripts/bench/serve.mjs on the bench's scaled-up data, signed in as the bench's ` +
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
        `more than ${ROUNDS - ROUNDS_NEEDED} rounds have failed (\`AB_FULL=1\` measures every page of every round).`,
      "",
    );
  out("| round | floor ms | page | A median ms (net) | B median ms (net) | saving ms | main-thread saving ms |");
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
      `. Verdict: B **${result.pays ? "pays" : "does not pay"}**.`,
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
  machine.dirs = `${dirA} ${dirB} ${name}`;
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
  const a = await serveBuild("a", path.resolve(dirA));
  const b = await serveBuild("b", path.resolve(dirB));
  console.log(`ab: ${name}, ${ROUNDS} rounds of ${REQUESTS} requests per page and build`);
  const result = await measureAB(name, a, b, ceiling, pages);
  machine.ended = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  machine.loadEnd = load();
  const markdown = report(result, machine, pages);
  const file = path.join(root, "bench", `ab-${name}.md`);
  writeFileSync(file, markdown);
  console.log(`\n${markdown}\nab: written to ${path.relative(root, file)}`);
  await stopServers();
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(`ab failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    void stopServers().finally(() => process.exit(1));
  });
