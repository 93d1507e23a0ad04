// `npm run test:e2e`: the browser tests against the built app (run `npm run build` first).
// Fresh throw-away state in PERSIST_DIR=.wrangler/e2e-state (deleted first), migrations and seed into it,
// `vite preview` on a free port, then `node --test` over tests/e2e/ with E2E_BASE_URL set. Exits with the test
// runner's code, and with 1 when no test ran at all. Chromium and ffmpeg are found or installed first
// (ensureBrowserTools in prepare-local.mjs), or the run stops at once with the command to run.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import {
  childEnv,
  ensureBrowserTools,
  nodeBin,
  prepareLocal,
  root,
  serveAt,
  tools,
  waitForServer,
} from "./prepare-local.mjs";

const STATE_DIR = ".wrangler/e2e-state";
const SERVER_LOG = path.join(root, ".wrangler", "e2e-server.log");
const TAP_FILE = path.join(root, ".wrangler", "e2e-results.tap");
// `npm run test:e2e -- tests/e2e/some.test.ts` runs only the files named.
const TEST_GLOB = process.argv.length > 2 ? process.argv.slice(2) : ["tests/e2e/**/*.test.{ts,mjs}"];

/** A TCP port that is free right now (the OS picks it). */
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

/** Runs a child to completion and resolves with its exit code (signals count as failure). */
function exitCode(child) {
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

let server;
let tests;

function stopChildren(signal = "SIGTERM") {
  for (const child of [tests, server]) {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopChildren(signal);
    process.exit(130);
  });
}

async function main() {
  if (!existsSync(path.join(root, "build", "server", "index.js"))) {
    console.error("No build found: run `npm run build` before `npm run test:e2e`.");
    return 1;
  }
  // Chromium and ffmpeg: found, installed (as root or with passwordless sudo), or a stop with the command to run.
  const chromePath = ensureBrowserTools();

  rmSync(path.join(root, STATE_DIR), { recursive: true, force: true });
  await prepareLocal(STATE_DIR);

  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  serveAt(baseUrl);
  const log = createWriteStream(SERVER_LOG);
  server = spawn(nodeBin, [tools.vite, "preview", "--port", String(port), "--strictPort"], {
    cwd: root,
    env: childEnv({ PERSIST_DIR: STATE_DIR }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  const serverExited = exitCode(server);

  try {
    await waitForServer(`${baseUrl}/api/health`, 90_000, () => server.exitCode === null && server.signalCode === null);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n--- server log (${SERVER_LOG}) ---`);
    console.error(readFileSync(SERVER_LOG, "utf8"));
    stopChildren();
    return 1;
  }
  console.log(`Browser tests against ${baseUrl} (server log: ${path.relative(root, SERVER_LOG)})`);

  rmSync(TAP_FILE, { force: true });
  tests = spawn(
    nodeBin,
    [
      "--disable-warning=ExperimentalWarning",
      "--test",
      "--test-concurrency=1",
      // The walk (tests/e2e/walk.test.ts) may take up to 5 minutes on a busy machine; the others far less.
      "--test-timeout=300000",
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${TAP_FILE}`,
      ...TEST_GLOB,
    ],
    {
      cwd: root,
      env: childEnv({ E2E_BASE_URL: baseUrl, CHROME_PATH: chromePath }),
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const code = await exitCode(tests);

  stopChildren();
  await Promise.race([serverExited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");

  const tap = existsSync(TAP_FILE) ? readFileSync(TAP_FILE, "utf8") : "";
  const count = (name) => Number(tap.match(new RegExp(`^# ${name} (\\d+)$`, "m"))?.[1] ?? 0);
  const ran = count("tests");
  if (code !== 0) {
    console.error(`Browser tests failed (${count("fail")} of ${ran} failed). Server log: ${SERVER_LOG}`);
    return code;
  }
  if (ran === 0) {
    console.error(`No browser test ran (looked for ${TEST_GLOB}).`);
    return 1;
  }
  console.log(`e2e: ${count("pass")} passed, ${count("fail")} failed, ${count("skipped")} skipped`);
  return 0;
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    stopChildren();
    process.exit(1);
  });
