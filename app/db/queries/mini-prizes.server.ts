// Mini prize winners (docs/decisions/072-mini-prizes.md): drawn from the pool's block hash once the pool is drawn,
// seen by the winners, marked delivered by the host. The rule itself is pure, in app/domain/mini-prizes.ts.

import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { columnPlaceholder, preparedRead } from "~/db/prepared.server";
import { currentPoolIdOf } from "~/db/queries/pools.server";
import { profileHostId, type ProfileAddress } from "~/db/queries/profiles.server";
import {
  miniPrizeWinners,
  prizeEntries,
  prizeEntryDisqualifications,
  prizeMiniPrizes,
  prizePools,
  userProfiles,
} from "~/db/schema";
import { miniPrizeCandidates, type MiniPrizeAward } from "~/domain/mini-prizes";
import { MAX_MINI_PRIZES } from "~/domain/pool";

const W = miniPrizeWinners;

/** SQL: a mini prize whose quantity is the whole number zero (nobody can win it). */
const zeroQuantity = sql`(trim(${prizeMiniPrizes.quantityText}) <> '' and trim(${prizeMiniPrizes.quantityText}) not glob '*[^0-9]*' and cast(trim(${prizeMiniPrizes.quantityText}) as integer) = 0)`;

/**
 * Drawn pools whose mini prizes are not drawn yet: a mini prize someone can win, a fan other than the main winner
 * holding a valid entry, and no winner row. A pool whose mini prizes nobody can win is never listed.
 */
export function listPoolsAwaitingMiniPrizeDraw(db: Db, limit = 20) {
  return db
    .select({ id: prizePools.id, blockHash: prizePools.drawBlockHash, winnerUserId: prizePools.winnerUserId })
    .from(prizePools)
    .where(
      and(
        eq(prizePools.status, "drawn"),
        isNotNull(prizePools.drawBlockHash),
        sql`exists (select 1 from ${prizeMiniPrizes} where ${prizeMiniPrizes.poolId} = ${prizePools.id} and not ${zeroQuantity})`,
        sql`exists (select 1 from ${prizeEntries} e where e.pool_id = ${prizePools.id} and e.user_id is not null
          and e.voided_at is null and e.user_id is not ${prizePools.winnerUserId}
          and not exists (select 1 from ${prizeEntryDisqualifications} d where d.pool_id = e.pool_id and d.entry_number = e.entry_number))`,
        sql`not exists (select 1 from ${W} where ${W.poolId} = ${prizePools.id})`,
      ),
    )
    .orderBy(asc(prizePools.drawnAt))
    .limit(limit);
}

/**
 * A pool's mini prizes (by its id, or the current pool of the host a profile address names) in the order they were saved, which is the
 * order the close awards them in: the profile, the settings form and the draw all read them here.
 */
export function listPoolMiniPrizes(db: Db, pool: string | { currentOf: ProfileAddress }) {
  const byId = typeof pool === "string";
  return poolMiniPrizesRead(db, byId).all({ pool: byId ? pool : pool.currentOf.idOrSlug });
}

const poolMiniPrizesRead = preparedRead(
  (db, byId: boolean) =>
    db
      .select({
        id: prizeMiniPrizes.id,
        name: prizeMiniPrizes.name,
        amountText: prizeMiniPrizes.amountText,
        quantityText: prizeMiniPrizes.quantityText,
      })
      .from(prizeMiniPrizes)
      .where(
        eq(
          prizeMiniPrizes.poolId,
          byId
            ? columnPlaceholder(prizeMiniPrizes.poolId, "pool")
            : currentPoolIdOf(profileHostId(sql.placeholder("pool"))),
        ),
      )
      .orderBy(asc(prizeMiniPrizes.createdAt), asc(prizeMiniPrizes.id))
      .limit(MAX_MINI_PRIZES)
      .prepare(),
  (byId) => (byId ? "id" : "current"),
);

/** A closed pool's frozen entries with their holder and whether they are still valid (not void, not disqualified). */
export async function listPoolEntryHolders(db: Db, poolId: string) {
  const rows = await db
    .select({
      entryNumber: prizeEntries.entryNumber,
      userId: prizeEntries.userId,
      voidedAt: prizeEntries.voidedAt,
      disqualified: sql<number>`exists (select 1 from ${prizeEntryDisqualifications} d where d.pool_id = ${prizeEntries.poolId} and d.entry_number = ${prizeEntries.entryNumber})`,
    })
    .from(prizeEntries)
    .where(eq(prizeEntries.poolId, poolId))
    .orderBy(asc(prizeEntries.entryNumber));
  return rows.map((r) => ({
    entryNumber: r.entryNumber,
    userId: r.userId,
    void: r.voidedAt !== null || Boolean(r.disqualified),
  }));
}

const INSERT_CHUNK = 14; // 7 bound values a row, D1 binds at most 100 per statement

/**
 * Records a pool's drawn mini prize winners in one batch, only while the pool is still drawn on that block hash;
 * a row already there (a concurrent run) is kept. Returns the number of rows written.
 */
export async function recordMiniPrizeWinners(
  db: Db,
  poolId: string,
  blockHash: string,
  prizeIds: readonly string[],
  awards: readonly MiniPrizeAward[],
): Promise<number> {
  if (awards.length === 0) return 0;
  const now = new Date();
  const values = awards.map((a) => ({
    id: crypto.randomUUID(),
    miniPrizeId: prizeIds[a.prizeIndex]!,
    poolId,
    userId: a.userId,
    entryNumber: a.entryNumber,
    createdAt: now,
  }));
  const [pool] = await db
    .select({ id: prizePools.id })
    .from(prizePools)
    .where(and(eq(prizePools.id, poolId), eq(prizePools.status, "drawn"), eq(prizePools.drawBlockHash, blockHash)))
    .limit(1);
  if (!pool) return 0;
  const inserts = [];
  for (let i = 0; i < values.length; i += INSERT_CHUNK) {
    inserts.push(
      db
        .insert(W)
        .values(values.slice(i, i + INSERT_CHUNK))
        .onConflictDoNothing()
        .returning({ id: W.id }),
    );
  }
  const [first, ...rest] = inserts;
  const results = await db.batch([first!, ...rest]);
  return results.reduce((n, rows) => n + rows.length, 0);
}

/** The recorded mini prize winners of a pool, by prize then entry number (public: names, no user ids). */
export async function listPoolMiniPrizeWinners(db: Db, poolId: string) {
  return db
    .select({
      miniPrizeId: W.miniPrizeId,
      entryNumber: W.entryNumber,
      winnerName: userProfiles.creatorName,
      delivered: sql<boolean>`${W.deliveredAt} is not null`,
    })
    .from(W)
    .leftJoin(userProfiles, eq(userProfiles.userId, W.userId))
    .where(eq(W.poolId, poolId))
    .orderBy(asc(W.entryNumber));
}

/** The mini prizes a fan won, newest first, with the host and whether it was delivered. */
export function listUserMiniPrizes(db: Db, userId: string, limit = 20) {
  return db
    .select({
      id: W.id,
      poolId: W.poolId,
      name: prizeMiniPrizes.name,
      amountText: prizeMiniPrizes.amountText,
      entryNumber: W.entryNumber,
      hostName: userProfiles.creatorName,
      deliveredAt: W.deliveredAt,
      createdAt: W.createdAt,
    })
    .from(W)
    .innerJoin(prizeMiniPrizes, eq(prizeMiniPrizes.id, W.miniPrizeId))
    .leftJoin(userProfiles, eq(userProfiles.userId, prizeMiniPrizes.hostId))
    .where(eq(W.userId, userId))
    .orderBy(desc(W.createdAt), asc(W.entryNumber))
    .limit(limit);
}

/** The host's mini prize winners still to deliver first, then the latest delivered ones. */
export function listHostMiniPrizeWinners(db: Db, hostId: string, limit = 50) {
  return db
    .select({
      id: W.id,
      poolId: W.poolId,
      name: prizeMiniPrizes.name,
      amountText: prizeMiniPrizes.amountText,
      entryNumber: W.entryNumber,
      winnerName: userProfiles.creatorName,
      deliveredAt: W.deliveredAt,
      createdAt: W.createdAt,
    })
    .from(W)
    .innerJoin(prizeMiniPrizes, eq(prizeMiniPrizes.id, W.miniPrizeId))
    .leftJoin(userProfiles, eq(userProfiles.userId, W.userId))
    .where(eq(prizeMiniPrizes.hostId, hostId))
    .orderBy(sql`${W.deliveredAt} is not null`, desc(W.createdAt), asc(W.entryNumber))
    .limit(limit);
}

/**
 * The host marks a mini prize winner's gift delivered (once). "not_found" when the winner row is not one of this
 * host's mini prizes, "already" when it was delivered before.
 */
export async function markMiniPrizeDelivered(
  db: Db,
  hostId: string,
  winnerId: string,
  now: Date,
): Promise<"ok" | "not_found" | "already"> {
  const ownPrizes = db
    .select({ id: prizeMiniPrizes.id })
    .from(prizeMiniPrizes)
    .where(eq(prizeMiniPrizes.hostId, hostId));
  const updated = await db
    .update(W)
    .set({ deliveredAt: now })
    .where(and(eq(W.id, winnerId), isNull(W.deliveredAt), inArray(W.miniPrizeId, ownPrizes)))
    .returning({ id: W.id });
  if (updated.length === 1) return "ok";
  const [row] = await db
    .select({ id: W.id })
    .from(W)
    .innerJoin(prizeMiniPrizes, eq(prizeMiniPrizes.id, W.miniPrizeId))
    .where(and(eq(W.id, winnerId), eq(prizeMiniPrizes.hostId, hostId)))
    .limit(1);
  return row ? "already" : "not_found";
}

/**
 * What the verification page shows of a drawn pool's mini prizes: each prize in draw order with its recorded winners,
 * and the candidates' entry numbers (each fan's lowest valid entry, the main winner left out; no user ids), from
 * which anyone can recompute the winners with the block hash. Null when the pool has no mini prizes.
 */
export async function getMiniPrizeVerification(db: Db, poolId: string, mainWinnerUserId: string | null) {
  const prizes = await listPoolMiniPrizes(db, poolId);
  if (prizes.length === 0) return null;
  const [entries, winners] = await Promise.all([
    listPoolEntryHolders(db, poolId),
    listPoolMiniPrizeWinners(db, poolId),
  ]);
  return {
    prizes: prizes.map((p) => ({
      name: p.name,
      amountText: p.amountText,
      quantityText: p.quantityText,
      winners: winners
        .filter((w) => w.miniPrizeId === p.id)
        .map((w) => ({
          entryNumber: w.entryNumber,
          name: w.winnerName ?? `Entry #${w.entryNumber}`,
          delivered: Boolean(w.delivered),
        })),
    })),
    candidates: miniPrizeCandidates(entries, mainWinnerUserId).map((c) => c.entryNumber),
  };
}
