// Lighthouse (the installed npm package, mobile defaults: Moto G Power emulation, simulated slow 4G and 4x CPU
// slowdown) driving the system Chromium, performance category only. Returns the score and the main metrics.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const CHROME = process.env.CHROME_PATH || "/usr/bin/chromium";

/** Runs Lighthouse once on `url` in a child process; resolves with { score, metrics } or { error }. */
export function lighthouse(root, url, { keepReportAt } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tribe-lighthouse-"));
  const output = keepReportAt ?? path.join(dir, "report.json");
  const args = [
    path.join(root, "node_modules", "lighthouse", "cli", "index.js"),
    url,
    "--only-categories=performance",
    "--output=json",
    `--output-path=${output}`,
    "--quiet",
    `--chrome-path=${CHROME}`,
    "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
    "--max-wait-for-load=60000",
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, CHROME_PATH: CHROME },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("exit", (code) => {
      try {
        if (code !== 0) throw new Error(`lighthouse exited ${code}: ${stderr.trim().split("\n").slice(-3).join(" ")}`);
        const report = JSON.parse(readFileSync(output, "utf8"));
        const audit = (id) => report.audits[id]?.numericValue;
        resolve({
          score: Math.round((report.categories.performance.score ?? 0) * 100),
          metrics: {
            fcp: audit("first-contentful-paint"),
            lcp: audit("largest-contentful-paint"),
            tbt: audit("total-blocking-time"),
            cls: audit("cumulative-layout-shift"),
            si: audit("speed-index"),
          },
          transferKB: (audit("total-byte-weight") ?? NaN) / 1024,
        });
      } catch (error) {
        resolve({ error: error instanceof Error ? error.message : String(error) });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
