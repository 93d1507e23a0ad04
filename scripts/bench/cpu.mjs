// CPU time per request of a local workerd, request by request: one request at a time, and the CPU time of every
// thread of the workerd processes read from /proc/<pid>/task/<tid>/schedstat (nanoseconds) before it is sent and
// after its last byte arrived. Sequential requests keep other requests' work out of each sample; what remains
// is the Worker, its local D1 (SQLite inside the same workerd under Miniflare) and the runtime's own work.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

/** Nanoseconds of CPU used so far by the main thread of the given processes (workerd runs the Workers' JavaScript there). */
export function mainThreadCpuNs(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // Process gone.
    }
  }
  return total;
}

/** Nanoseconds of CPU used so far by every thread of the given processes. */
export function cpuNs(pids) {
  let total = 0;
  for (const pid of pids) {
    let tasks;
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // Thread gone.
      }
    }
  }
  return total;
}

function childPids(pid) {
  const out = [];
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const task of tasks) {
    try {
      out.push(
        ...readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
      );
    } catch {
      // Task gone.
    }
  }
  return out;
}

/** The workerd processes under a child (Miniflare's runtime). */
export function workerdPids(pid) {
  const found = [];
  const queue = [pid];
  while (queue.length) {
    const next = queue.shift();
    for (const kid of childPids(next)) {
      queue.push(kid);
      try {
        if (readFileSync(`/proc/${kid}/comm`, "utf8").trim() === "workerd") found.push(kid);
      } catch {
        // Gone.
      }
    }
  }
  return found;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

/**
 * `warmup` requests, then `samples` measured ones, each alone. Resolves with the median and p99 CPU ms per
 * request, the mean HTML size, and whether every answer was a 200.
 */
export async function cpuPerRequest(url, pids, { headers = {}, warmup = 30, samples = 200 } = {}) {
  for (let i = 0; i < warmup; i++) await (await fetch(url, { headers, redirect: "manual" })).arrayBuffer();
  const ms = [];
  const mainMs = [];
  let bytes = 0;
  let non200 = 0;
  for (let i = 0; i < samples; i++) {
    const before = cpuNs(pids);
    const mainBefore = mainThreadCpuNs(pids);
    const response = await fetch(url, { headers, redirect: "manual" });
    const body = await response.arrayBuffer();
    const mainAfter = mainThreadCpuNs(pids);
    const after = cpuNs(pids);
    if (response.status !== 200) non200 += 1;
    bytes += body.byteLength;
    ms.push((after - before) / 1e6);
    mainMs.push((mainAfter - mainBefore) / 1e6);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  const mainSorted = [...mainMs].sort((a, b) => a - b);
  return {
    samples,
    medianMs: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    // The main thread alone: without V8's helper threads (concurrent garbage collection and compilation).
    mainMedianMs: quantile(mainSorted, 0.5),
    mainP99Ms: quantile(mainSorted, 0.99),
    maxMs: sorted.at(-1),
    htmlKB: bytes / samples / 1024,
    allOk: non200 === 0,
  };
}

/**
 * Several pages measured against each other: `warmup` requests of each, then `samples` rounds in which every page is
 * requested once, alone, in an order that flips each round (A, B, C, then C, B, A), so all of them see the machine in
 * the same minutes. Resolves with each page's median CPU ms per request (every thread), in the order given, and
 * whether every answer was a 200.
 */
export async function cpuInterleaved(urls, pids, { headers = {}, warmup = 30, samples = 200 } = {}) {
  const one = async (url) => {
    const before = cpuNs(pids);
    const response = await fetch(url, { headers, redirect: "manual" });
    await response.arrayBuffer();
    return { ms: (cpuNs(pids) - before) / 1e6, ok: response.status === 200 };
  };
  for (const url of urls) for (let i = 0; i < warmup; i++) await one(url);
  const ms = urls.map(() => []);
  let allOk = true;
  for (let round = 0; round < samples; round++) {
    const order = urls.map((_, k) => (round % 2 ? urls.length - 1 - k : k));
    for (const k of order) {
      const sample = await one(urls[k]);
      ms[k].push(sample.ms);
      allOk &&= sample.ok;
    }
  }
  return {
    medianMs: ms.map((list) =>
      quantile(
        [...list].sort((a, b) => a - b),
        0.5,
      ),
    ),
    allOk,
  };
}

/** Signs in through the real form; resolves with the Cookie header value of the session. */
export async function signInCookie(origin, email, password) {
  const response = await fetch(`${origin}/signin`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams({ email, password }).toString(),
    redirect: "manual",
  });
  const cookies = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .filter((pair) => pair.startsWith("__Host-session=") || pair.startsWith("__Host-d1-bookmark="));
  if (response.status !== 302 || !cookies.some((c) => c.startsWith("__Host-session="))) {
    throw new Error(`sign-in as ${email} answered ${response.status}`);
  }
  return cookies.join("; ");
}

/** A free TCP port on the loopback. */
export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * For the diagnostics (cpu-profile.mjs, gc-trace.mjs): serves the bench's copy of the build (.wrangler/bench-build)
 * against its scaled-up state (.wrangler/bench-state) through serve.mjs, with `env` added to its environment.
 * Resolves once it answers, with its origin, the child process and everything it has printed (`output()`).
 */
export async function serveBenchCopy(env = {}) {
  const root = path.resolve(import.meta.dirname, "../..");
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      path.join(import.meta.dirname, "serve.mjs"),
      ".wrangler/bench-build/server/wrangler.json",
      ".wrangler/bench-state",
      String(port),
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "inherit"] },
  );
  let printed = "";
  const origin = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      printed += chunk;
      const match = /READY (\S+)/.exec(String(chunk));
      if (match) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  return { origin, child, output: () => printed };
}
