// A diagnostic, not part of `npm run bench`: where a signed-in page's CPU goes, function by function.
// `node scripts/bench/cpu-profile.mjs <path> [requests]` serves the bench's copy of the build (.wrangler/bench-build,
// made by `npm run bench`) against its scaled-up state (.wrangler/bench-state) with workerd's inspector open, signs
// the demo fan in, records a V8 CPU profile (Profiler domain over the inspector's WebSocket) while it requests
// <path> one at a time, and prints the functions with the most self time and the modules they live in.
// BENCH_PROFILE_OUT=<file> also writes the .cpuprofile (for Chrome DevTools' Performance panel).
import { writeFileSync } from "node:fs";
import { freePort, serveBenchCopy, signInCookie } from "./cpu.mjs";

const [pagePath = "/shop", countArg = "300"] = process.argv.slice(2);
const requests = Number(countArg);

const inspectorPort = await freePort();
const { origin, child } = await serveBenchCopy({ BENCH_INSPECTOR_PORT: String(inspectorPort) });

try {
  const cookie = await signInCookie(origin, "fan@demo.tribe", "demo-password-2026");
  const get = async () => {
    const response = await fetch(origin + pagePath, { headers: { Cookie: cookie }, redirect: "manual" });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${pagePath} answered ${response.status}`);
  };
  for (let i = 0; i < 50; i++) await get();

  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const target = targets.find((t) => /bench/.test(t.title ?? t.id ?? "")) ?? targets[0];
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let nextId = 1;
  const pending = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (message) =>
        message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result),
      );
      socket.send(JSON.stringify({ id, method, params }));
    });

  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 50 });
  await send("Profiler.start");
  for (let i = 0; i < requests; i++) await get();
  const { profile } = await send("Profiler.stop");
  socket.close();
  if (process.env.BENCH_PROFILE_OUT) writeFileSync(process.env.BENCH_PROFILE_OUT, JSON.stringify(profile));

  // Self time per node: samples × the mean interval between them.
  const totalUs = profile.endTime - profile.startTime;
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const usPerSample = totalUs / profile.samples.length;
  const byFunction = new Map();
  const byModule = new Map();
  for (const node of profile.nodes) {
    const us = (hits.get(node.id) ?? 0) * usPerSample;
    if (!us) continue;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const file = url ? url.split("/").pop() : "";
    const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}:${columnNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    byModule.set(file || functionName, (byModule.get(file || functionName) ?? 0) + us);
  }
  // Inclusive time: each sample counts once for every distinct function on its stack.
  const parent = new Map();
  const keyOf = new Map();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    keyOf.set(
      node.id,
      `${functionName || "(anonymous)"} ${url ? url.split("/").pop() : ""}:${lineNumber + 1}:${columnNumber + 1}`,
    );
    for (const kid of node.children ?? []) parent.set(kid, node.id);
  }
  const inclusive = new Map();
  for (const [id, count] of hits) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) seen.add(keyOf.get(at));
    for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + count * usPerSample);
  }
  const perRequest = (us) => (us / requests / 1000).toFixed(3).padStart(7);
  console.log(
    `${pagePath}: ${requests} requests, ${(totalUs / requests / 1000).toFixed(2)} ms wall per request while profiled`,
  );
  console.log("\nms/request  module");
  for (const [name, us] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`${perRequest(us)}  ${name}`);
  console.log("\nms/request  function (self time)");
  for (const [name, us] of [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(process.env.BENCH_PROFILE_TOP ?? 45))) {
    console.log(`${perRequest(us)}  ${name}`);
  }
  console.log("\nms/request  function (inclusive)");
  for (const [name, us] of [...inclusive]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(process.env.BENCH_PROFILE_TOP ?? 45) * 2)) {
    console.log(`${perRequest(us)}  ${name}`);
  }
} finally {
  child.kill("SIGTERM");
}
