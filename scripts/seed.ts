// Demo data for local runs and browser tests: hosts with shops, pools, games and a group buy, fans with orders and
// guesses, and pools already drawn on real Bitcoin blocks. Run with `npm run seed` (after the migrations); it writes
// through wrangler's getPlatformProxy into the same local state the app reads (PERSIST_DIR, default
// .wrangler/state, whose `v3` folder holds D1 and R2), and does nothing when the database already holds its marker.
// The rows are built by the modules in scripts/seed/ (one per thing the seed makes, see build.ts) and written in
// one batch.
import path from "node:path";
import { drizzle } from "drizzle-orm/d1";
import { getPlatformProxy } from "wrangler";
import * as schema from "../app/db/schema";
import { DEMO_FAN_EMAIL, DEMO_HOST_EMAIL, DEMO_PASSWORD } from "../app/lib/demo";
import { buildRows } from "./seed/build";
import { SEED_MARKER_KEY } from "./seed/earnings";
import type { R2Like } from "./seed/media";
import { writeRows } from "./seed/write";

const PERSIST_DIR = process.env.PERSIST_DIR || ".wrangler/state";

async function main() {
  const started = Date.now();
  const persistPath = path.resolve(PERSIST_DIR, "v3");
  const proxy = await getPlatformProxy<Record<string, unknown>>({
    configPath: "wrangler.toml",
    // getPlatformProxy takes the `v3` folder itself (wrangler --persist-to and the vite plugin add `v3`).
    persist: { path: persistPath },
    remoteBindings: false,
  });
  try {
    const d1 = proxy.env.DB as Parameters<typeof drizzle>[0];
    const media = proxy.env.MEDIA as R2Like;
    const db = drizzle(d1, { schema });

    let seeded: unknown;
    try {
      seeded = await db.query.platformSettings.findFirst({
        where: (s, { eq }) => eq(s.settingKey, SEED_MARKER_KEY),
      });
    } catch (error) {
      throw new Error(
        `Cannot read the local database (${error instanceof Error ? error.message : error}). Apply the migrations first: wrangler d1 migrations apply DB --local`,
        { cause: error },
      );
    }
    if (seeded) {
      console.log(`Seed: demo data already present in ${PERSIST_DIR} (marker '${SEED_MARKER_KEY}'); nothing to do.`);
      return;
    }

    // The checkout rows' success and cancel addresses, as the local checkout writes them where `npm start` serves.
    const siteOrigin = typeof proxy.env.SITE_ORIGIN === "string" ? proxy.env.SITE_ORIGIN : "http://localhost:8787";
    const { rows, uploads } = await buildRows(media, siteOrigin);
    await writeRows(db, rows);

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Seed: ${rows.users.length} accounts, ${rows.products.length} products, ${rows.guessWinGames.length} games, ` +
        `${rows.orders.length} orders, ${rows.prizePools.length} pools (${rows.prizeWinners.filter((w) => w.prizeType === "main").length} drawn), ` +
        `${uploads} media files in ${seconds} s. Sign in as ${DEMO_HOST_EMAIL} or ${DEMO_FAN_EMAIL} with password ${DEMO_PASSWORD}.`,
    );
  } finally {
    await proxy.dispose();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
