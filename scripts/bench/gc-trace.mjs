// A diagnostic, not part of `npm run bench`: what a signed-in page leaves to V8's garbage collector.
// `node scripts/bench/gc-trace.mjs <path> [requests]` serves the bench's copy of the build (.wrangler/bench-build,
// made by `npm run bench`) against its scaled-up state (.wrangler/bench-state) on a workerd started with V8's GC trace
// (`MINIFLARE_WORKERD_V8_FLAGS=--trace-gc-nvp`, one JSON line per collection), signs the demo fan in, requests <path>
// one at a time, and prints for the app's isolate (the one collecting most often): how often it scavenges and for how
// long, what share of the bytes it allocates survives a scavenge and is promoted to the old generation, how fast the
// old generation grows, and each full mark-compact with its pause (docs/decisions/360).
//
// workerd writes the trace through a buffer and may drop its last lines when it stops: the figures cover the
// collections that arrived. Collections of the isolate's first 2 s (start-up and the sign-in) are left out.
import { serveBenchCopy, signInCookie } from "./cpu.mjs";

const [pagePath = "/shop", countArg = "1000"] = process.argv.slice(2);
const requests = Number(countArg);
const STARTUP_MS = 2000;

const { origin, child, output } = await serveBenchCopy({ MINIFLARE_WORKERD_V8_FLAGS: "--trace-gc-nvp" });

try {
  const cookie = await signInCookie(origin, "fan@demo.tribe", "demo-password-2026");
  for (let i = 0; i < requests; i++) {
    const response = await fetch(origin + pagePath, { headers: { Cookie: cookie }, redirect: "manual" });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${pagePath} answered ${response.status}`);
  }
  // Give workerd a moment to write what it holds, then stop it.
  await new Promise((resolve) => setTimeout(resolve, 1500));
} finally {
  child.stdin.end();
  child.kill("SIGTERM");
}
await new Promise((resolve) => child.once("exit", resolve));

// `[pid:isolate:0]  <ms> ms: GC: {...}`, one per collection, for every isolate of the process.
const byIsolate = new Map();
const seen = new Set();
for (const line of output().split("\n")) {
  const match = /^\[\d+:(0x[0-9a-f]+):\d+\]\s+(\d+) ms: GC: (\{.*\})\s*$/.exec(line);
  if (!match || seen.has(line)) continue;
  seen.add(line);
  let gc;
  try {
    gc = JSON.parse(match[3]);
  } catch {
    continue; // a line cut by the buffer
  }
  const list = byIsolate.get(match[1]) ?? [];
  list.push({ at: Number(match[2]), ...gc });
  byIsolate.set(match[1], list);
}
const app = [...byIsolate.values()].sort((a, b) => b.length - a.length)[0];
if (!app) throw new Error("no GC trace arrived (is MINIFLARE_WORKERD_V8_FLAGS passed on to workerd?)");
app.sort((a, b) => a.at - b.at);
const steady = app.filter((gc) => gc.at >= STARTUP_MS);
const scavenges = steady.filter((gc) => gc.gc === "s");
const fulls = steady.filter((gc) => gc.gc !== "s");
const sum = (values) => values.reduce((a, b) => a + b, 0);
const kb = (bytes) => `${Math.round(bytes / 1024)} KB`;

// Old-generation growth between consecutive scavenges: what they promoted plus what was allocated there directly.
let directOld = 0;
let pairs = 0;
for (let i = 1; i < steady.length; i++) {
  const [before, after] = [steady[i - 1], steady[i]];
  if (before.gc !== "s" || after.gc !== "s") continue;
  directOld += after.start_old_gen_consumed_size - before.end_old_gen_consumed_size;
  pairs++;
}

console.log(
  `${pagePath}: ${requests} signed-in requests one at a time; ${app.length} collections traced in the app's isolate, ${steady.length} after its first ${STARTUP_MS / 1000} s`,
);
if (scavenges.length) {
  const allocated = sum(scavenges.map((gc) => gc.allocated));
  console.log(
    `scavenges: ${scavenges.length}, mean pause ${(sum(scavenges.map((gc) => gc.pause)) / scavenges.length).toFixed(2)} ms, ` +
      `young space ${kb(scavenges.at(-1).new_space_capacity)}`,
  );
  console.log(
    `of the bytes allocated between scavenges: ${((100 * sum(scavenges.map((gc) => gc.new_space_survived))) / allocated).toFixed(2)}% survived a scavenge, ` +
      `${((100 * sum(scavenges.map((gc) => gc.promoted))) / allocated).toFixed(2)}% were promoted`,
  );
  if (pairs) {
    console.log(
      `old generation per scavenge interval: ${kb(sum(scavenges.map((gc) => gc.promoted)) / scavenges.length)} promoted, ` +
        `${kb(directOld / pairs)} allocated there directly`,
    );
  }
}
for (const gc of fulls) {
  console.log(
    `full collection at ${(gc.at / 1000).toFixed(1)} s (${gc.reason}): pause ${gc.pause.toFixed(1)} ms, marking ${(gc.mark ?? 0).toFixed(1)} ms, ` +
      `heap ${kb(gc.start_object_size)} -> ${kb(gc.end_object_size)}`,
  );
}
if (!fulls.length) console.log("no full collection in the traced part");
