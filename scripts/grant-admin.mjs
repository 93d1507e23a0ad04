// Gives a user the platform owner role: `npm run grant-admin -- EMAIL [--remote]` (local database by default,
// in PERSIST_DIR). The account must exist already (sign up first). Uses `wrangler d1 execute`, so --remote needs
// `wrangler login` (or CLOUDFLARE_API_TOKEN) and the real database_id in wrangler.toml.
import { spawn } from "node:child_process";
import { childEnv, nodeBin, persistDir, root, tools } from "./prepare-local.mjs";

const args = process.argv.slice(2);
const remote = args.includes("--remote");
const rest = args.filter((a) => a !== "--remote" && a !== "--local");
const email = (rest[0] ?? "").trim().toLowerCase();

// A plain address only: no quotes, spaces or anything else that could leave the SQL string literal.
if (rest.length !== 1 || !/^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(email)) {
  console.error("Usage: npm run grant-admin -- EMAIL [--remote]");
  process.exit(1);
}

const where = remote ? ["--remote"] : ["--local", "--persist-to", persistDir()];
const sql = `UPDATE users SET role = 'admin' WHERE email = '${email}'; SELECT email, role FROM users WHERE email = '${email}';`;
const child = spawn(nodeBin, [tools.wrangler, "d1", "execute", "DB", ...where, "--json", "--command", sql], {
  cwd: root,
  env: childEnv({ CI: "true" }),
  stdio: ["ignore", "pipe", "inherit"],
});
let out = "";
child.stdout.on("data", (chunk) => (out += chunk));
child.on("exit", (code) => {
  if (code !== 0) {
    process.stderr.write(out);
    console.error(`wrangler d1 execute failed (exit ${code})`);
    process.exit(1);
  }
  let granted = false;
  try {
    const results = JSON.parse(out);
    granted = results.some((r) => (r.results ?? []).some((row) => row.email === email && row.role === "admin"));
  } catch {
    process.stderr.write(out);
  }
  const where = remote ? "remote" : `local (${persistDir()})`;
  if (granted) {
    console.log(`${email} is now an admin (platform owner) in the ${where} database.`);
  } else {
    console.error(`No user ${email} in the ${where} database: sign up first, then run this again.`);
    process.exit(1);
  }
});
