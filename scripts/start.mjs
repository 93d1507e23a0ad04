// `npm start`: build, prepare local state (.dev.vars, D1 migrations, demo seed) and serve the built app with
// `vite preview`, which runs the Worker in workerd with local D1, R2 and Durable Objects from PERSIST_DIR.
import { spawn } from "node:child_process";
import {
  childEnv,
  nodeBin,
  persistDir,
  prepareLocal,
  root,
  run,
  serveAt,
  tools,
  waitForServer,
} from "./prepare-local.mjs";

const port = Number(process.env.PORT || 8787);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(1);
}

async function main() {
  const started = Date.now();
  const dir = persistDir();

  await run(tools.reactRouter, ["build"]);
  await prepareLocal(dir);
  serveAt(`http://localhost:${port}`);

  const server = spawn(nodeBin, [tools.vite, "preview", "--port", String(port), "--strictPort"], {
    cwd: root,
    env: childEnv({ PERSIST_DIR: dir }),
    stdio: ["ignore", "inherit", "inherit"],
  });
  let exited = false;
  const forward = (signal) => {
    if (!exited) server.kill(signal);
  };
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  server.on("exit", (code, signal) => {
    exited = true;
    process.exit(code ?? (signal ? 0 : 1));
  });

  await waitForServer(`http://localhost:${port}/api/health`, 60_000, () => !exited);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nTribe is running at http://localhost:${port}  (ready in ${seconds} s; Ctrl+C to stop)\n`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
