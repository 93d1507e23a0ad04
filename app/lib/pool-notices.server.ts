// A pool's close and draw told to everyone holding entries in it (with their entry numbers and the verification
// link) and to its host (docs/product.md#notifications). A pool can reach thousands of entrants, so the close never
// tells them itself: the cron enqueues them a chunk per run (POOL_NOTICE_CHUNK accounts in all), keeping its place
// by account id, and the deliveries follow through the cron's delivery step in their own chunks.
import { getDb } from "~/db/client.server";
import { listPoolEntrants, listPoolsToTell, recordPoolNoticeProgress } from "~/db/queries/notifications.server";
import { getPoolLogStamp } from "~/db/queries/transparency.server";
import { formatCents } from "~/domain/money";
import { POOL_NOTICE_CHUNK } from "~/domain/notifications";
import { poolLogStampText } from "~/domain/transparency-log";
import { siteOrigin } from "~/lib/config.server";
import { createNotifications } from "~/lib/notify.server";

type PoolToTell = Awaited<ReturnType<typeof listPoolsToTell>>[number];
type PoolEvent = "closed" | "drawn";

/** At most this many entry numbers are listed in one notice (then "and N more"). */
const NUMBERS_SHOWN = 20;

function entryList(numbers: readonly number[]): string {
  const shown = numbers
    .slice(0, NUMBERS_SHOWN)
    .map((n) => `#${n}`)
    .join(", ");
  return numbers.length > NUMBERS_SHOWN ? `${shown} and ${numbers.length - NUMBERS_SHOWN} more` : shown;
}

function fanNotice(origin: string, event: PoolEvent, pool: PoolToTell, numbers: readonly number[], stamp: string) {
  const host = pool.hostName ?? "A host";
  const link = `${origin}/winner-selection/${pool.poolId}`;
  const yours = `Your entr${numbers.length === 1 ? "y" : "ies"}: ${entryList(numbers)}.`;
  if (event === "closed") {
    return {
      subject: `${host}'s prize pool closed`,
      text:
        `${host}'s prize pool closed at ${formatCents(pool.amountCents, pool.currency)} with ${pool.entriesCount} entries. ${yours}\n\n` +
        `The winner is drawn from Bitcoin block ${pool.drawBlockHeight ?? "(being committed)"}; check the entry list and the draw: ${link}\n\n${stamp}`,
    };
  }
  const won = pool.winnerEntryNumber !== null && numbers.includes(pool.winnerEntryNumber);
  return {
    subject: `${host}'s prize pool was drawn`,
    text:
      `${host}'s prize pool was drawn: entry #${pool.winnerEntryNumber} won the main prize${won ? " (that's yours!)" : ""}. ${yours}\n\n` +
      `See how it was drawn: ${link}\n\n${stamp}`,
  };
}

function hostNotice(origin: string, event: PoolEvent, pool: PoolToTell, stamp: string) {
  const link = `${origin}/winner-selection/${pool.poolId}`;
  return event === "closed"
    ? {
        subject: "Your prize pool closed",
        text: `Your prize pool closed at ${formatCents(pool.amountCents, pool.currency)} with ${pool.entriesCount} entries. Its winner is drawn from a future Bitcoin block: ${link}\n\n${stamp}`,
      }
    : {
        subject: "Your prize pool was drawn",
        text: `Your prize pool was drawn: entry #${pool.winnerEntryNumber} won the main prize. ${link}\n\n${stamp}`,
      };
}

/** The cron step: tells the next chunk of closed and drawn pools' entrants (and each pool's host once). */
export async function tellPoolEntrants(
  env: Env,
  now: Date,
  chunk = POOL_NOTICE_CHUNK,
): Promise<{ told: number; pools: number }> {
  const db = getDb(env);
  const origin = siteOrigin(env);
  let budget = chunk;
  let told = 0;
  let pools = 0;
  for (const event of ["closed", "drawn"] as const) {
    for (const pool of await listPoolsToTell(db, event, now)) {
      if (budget <= 0) return { told, pools };
      const after = pool.afterUserId ?? "";
      const kind = event === "closed" ? "pool_closed" : "pool_drawn";
      const key = `pool-${event}:${pool.poolId}`;
      const url = `/winner-selection/${pool.poolId}`;
      // The pool's record in the public commitment log and the head at this moment (issue 29 item 6).
      const stamp = poolLogStampText(await getPoolLogStamp(db, pool.poolId));
      if (after === "") {
        await createNotifications(env, kind, [
          { userId: pool.hostId, key, url, ...hostNotice(origin, event, pool, stamp) },
        ]);
      }
      const limit = budget;
      const entrants = await listPoolEntrants(db, pool.poolId, after, limit);
      const created = await createNotifications(
        env,
        kind,
        entrants.map((e) => ({ userId: e.userId, key, url, ...fanNotice(origin, event, pool, e.entryNumbers, stamp) })),
      );
      told += created.length;
      budget -= entrants.length;
      pools++;
      const last = entrants.at(-1)?.userId ?? after;
      await recordPoolNoticeProgress(
        db,
        // Fewer than asked for: that was the last of them.
        { poolId: pool.poolId, event, afterUserId: last, done: entrants.length < limit },
        now,
      );
    }
  }
  return { told, pools };
}
