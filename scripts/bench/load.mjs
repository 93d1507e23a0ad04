// A bounded closed-loop HTTP load generator (Node's http with a keep-alive agent): `connections` loops, each
// sending its next GET as soon as the previous answer has been read in full, for `seconds` (and never more than
// `maxRequests` in all). Every response must be a 200; anything else is counted, never retried.
import http from "node:http";

/**
 * @param {string} url
 * @param {{ connections?: number, seconds?: number, maxRequests?: number, timeoutMs?: number }} options
 * @returns {Promise<{ requests: number, ok: number, non200: Record<string, number>, errors: number, firstError: string | null,
 *   seconds: number, rps: number, p50: number, p90: number, p99: number, max: number, bytes: number }>}
 */
export async function load(url, { connections = 16, seconds = 6, maxRequests = 1_000_000, timeoutMs = 10_000 } = {}) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const latencies = new Float64Array(maxRequests);
  let sent = 0;
  let recorded = 0;
  let ok = 0;
  let errors = 0;
  let bytes = 0;
  let firstError = null;
  const non200 = {};

  const once = () =>
    new Promise((resolve) => {
      const started = process.hrtime.bigint();
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: "GET",
          agent,
          headers: { accept: "text/html" },
        },
        (response) => {
          response.on("data", (chunk) => {
            bytes += chunk.length;
          });
          response.on("end", () => {
            latencies[recorded++] = Number(process.hrtime.bigint() - started) / 1e6;
            if (response.statusCode === 200) ok++;
            else non200[response.statusCode] = (non200[response.statusCode] ?? 0) + 1;
            resolve();
          });
          response.on("error", (error) => {
            errors++;
            firstError ??= error.message;
            resolve();
          });
        },
      );
      request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      request.on("error", (error) => {
        errors++;
        firstError ??= error.message;
        resolve();
      });
      request.end();
    });

  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline && sent < maxRequests) {
      sent++;
      await once();
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();

  const sorted = latencies.subarray(0, recorded).sort();
  const at = (q) => (recorded === 0 ? NaN : sorted[Math.min(recorded - 1, Math.ceil(q * recorded) - 1)]);
  return {
    requests: sent,
    ok,
    non200,
    errors,
    firstError,
    seconds: elapsed,
    rps: recorded / elapsed,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: recorded ? sorted[recorded - 1] : NaN,
    bytes,
  };
}
