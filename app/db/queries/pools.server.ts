import { and, count, desc, eq, inArray, isNull, lt, sql, sum } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { columnPlaceholder, preparedRead } from "~/db/prepared.server";
import {
  currentFirst,
  currentPoolIdOf,
  gameHostId,
  hostOfProduct,
  profileHostId,
  type ProfileAddress,
} from "~/db/queries/host-refs.server";
import {
  guessWinGames,
  hostDebits,
  prizeEntries,
  prizePoolContributions,
  prizePools,
  prizeWinners,
  userProfiles,
  type PrizePool as PoolRow,
} from "~/db/schema";
import { viewerParam, viewerShape, viewerValues, type ViewerKey, type ViewerShape } from "./sessions.server";

export type { PoolRow };

/** Whose current pool a page reads: a host's id, the host a profile address names, or the host of a product or a game. */
export type PoolHost = string | ProfileAddress | { ofProduct: string } | { ofGame: string };
type PoolHostShape = "id" | "address" | "product" | "game";

function poolHostShape(host: PoolHost): PoolHostShape {
  if (typeof host === "string") return "id";
  return "idOrSlug" in host ? "address" : "ofProduct" in host ? "product" : "game";
}

function poolHostValue(host: PoolHost): string {
  if (typeof host === "string") return host;
  return "idOrSlug" in host ? host.idOrSlug : "ofProduct" in host ? host.ofProduct : host.ofGame;
}

/**
 * The host's open pool, or else their latest one, or undefined when they never had one. A host named by a profile
 * address, a product or a game is resolved in the same query, so the read goes in the page's first batch.
 */
export async function getCurrentPool(db: Db, host: PoolHost) {
  return currentPoolRead(db, poolHostShape(host)).get({ host: poolHostValue(host) });
}

const currentPoolRead = preparedRead(
  (db, shape: PoolHostShape) => {
    const host = sql.placeholder("host");
    const hostId = {
      id: columnPlaceholder(prizePools.hostId, "host"),
      address: profileHostId(host),
      product: hostOfProduct(host),
      game: gameHostId(host),
    }[shape];
    return db
      .select({
        id: prizePools.id,
        status: prizePools.status,
        targetCents: prizePools.targetCents,
        amountCents: prizePools.amountCents,
        currency: prizePools.currency,
        entriesCount: prizePools.entriesCount,
        autoRenew: prizePools.autoRenew,
        startAt: prizePools.startAt,
        endAt: prizePools.endAt,
        closedAt: prizePools.closedAt,
        drawBlockHeight: prizePools.drawBlockHeight,
        entriesDigest: prizePools.entriesDigest,
      })
      .from(prizePools)
      .where(eq(prizePools.hostId, hostId))
      .orderBy(...currentFirst)
      .limit(1)
      .prepare();
  },
  (shape) => shape,
);

/**
 * The viewer's valid (not void) entries in a host's current pool ("your entries: N of M", docs/product.md#winners),
 * resolved with the host and the session in one query so it goes in the page's first batch. Never sent over the
 * pools' public sockets.
 */
export async function countViewerEntries(db: Db, host: PoolHost, viewer: ViewerKey): Promise<number> {
  const shape = { host: poolHostShape(host), viewer: viewerShape(viewer) };
  const row = await viewerEntriesRead(db, shape).get({ host: poolHostValue(host), ...viewerValues(viewer) });
  return row?.n ?? 0;
}

const viewerEntriesRead = preparedRead(
  (db, shape: { host: PoolHostShape; viewer: ViewerShape }) => {
    const host = sql.placeholder("host");
    const hostId = {
      id: sql`${columnPlaceholder(prizePools.hostId, "host")}`,
      address: profileHostId(host),
      product: hostOfProduct(host),
      game: gameHostId(host),
    }[shape.host];
    return db
      .select({ n: count() })
      .from(prizeEntries)
      .where(
        and(
          eq(prizeEntries.poolId, currentPoolIdOf(hostId)),
          eq(prizeEntries.userId, viewerParam(shape.viewer, prizeEntries.userId)),
          isNull(prizeEntries.voidedAt),
        ),
      )
      .prepare();
  },
  (shape) => `${shape.host}:${shape.viewer}`,
);

/** A pool's ledger summed per source type (at most one row per type). */
export async function listContributionTotals(db: Db, poolId: string) {
  const rows = await db
    .select({ sourceType: prizePoolContributions.sourceType, totalCents: sum(prizePoolContributions.amountCents) })
    .from(prizePoolContributions)
    .where(eq(prizePoolContributions.poolId, poolId))
    .groupBy(prizePoolContributions.sourceType)
    .limit(20);
  return rows.map((row) => ({ sourceType: row.sourceType, totalCents: Number(row.totalCents ?? 0) }));
}

/** The latest winners across a host's pools. */
export function listHostWinners(db: Db, hostId: string, limit = 5) {
  return db
    .select({
      id: prizeWinners.id,
      winnerName: prizeWinners.winnerName,
      prizeAmountCents: prizeWinners.prizeAmountCents,
      currency: prizeWinners.currency,
      prizeType: prizeWinners.prizeType,
      gameQuestion: guessWinGames.question,
      createdAt: prizeWinners.createdAt,
    })
    .from(prizeWinners)
    .innerJoin(prizePools, eq(prizePools.id, prizeWinners.poolId))
    .leftJoin(guessWinGames, eq(guessWinGames.id, prizeWinners.gameId))
    .where(eq(prizePools.hostId, hostId))
    .orderBy(desc(prizeWinners.createdAt))
    .limit(limit);
}

// --- the pool service's reads and writes (app/lib/pools.server.ts) --------------------------------------------

/** A pool's row by id, or null. */
export async function getPoolById(db: Db, poolId: string): Promise<PoolRow | null> {
  const [row] = await db.select().from(prizePools).where(eq(prizePools.id, poolId)).limit(1);
  return row ?? null;
}

/** The rows of the given pools (unknown ids are left out). */
export async function getPoolsByIds(db: Db, poolIds: readonly string[]): Promise<PoolRow[]> {
  if (poolIds.length === 0) return [];
  return db
    .select()
    .from(prizePools)
    .where(inArray(prizePools.id, [...poolIds]));
}

/** The host's open pool, or null. */
export async function getOpenPoolForHost(db: Db, hostId: string): Promise<PoolRow | null> {
  const [row] = await db
    .select()
    .from(prizePools)
    .where(and(eq(prizePools.hostId, hostId), eq(prizePools.status, "open")))
    .limit(1);
  return row ?? null;
}

/** Inserts an open pool unless the host has one (the partial unique index allows one open pool per host). */
export async function insertOpenPool(
  db: Db,
  values: { hostId: string; targetCents: number; currency: string; startAt: Date; endAt: Date },
): Promise<void> {
  await db
    .insert(prizePools)
    .values({
      id: crypto.randomUUID(),
      hostId: values.hostId,
      status: "open",
      targetCents: values.targetCents,
      currency: values.currency,
      autoRenew: true,
      startAt: values.startAt,
      endAt: values.endAt,
      createdAt: values.startAt,
      updatedAt: values.startAt,
    })
    .onConflictDoNothing();
}

/**
 * The host's pool settings, or null without a profile: the target and duration saved in prize pool settings (the
 * next pool's terms, decision 640) and whether their pools renew.
 */
export async function getHostPoolSettings(
  db: Db,
  hostId: string,
): Promise<{ targetCents: number; durationDays: number; autoRenew: boolean } | null> {
  const [profile] = await db
    .select({
      targetCents: userProfiles.prizePoolTargetCents,
      durationDays: userProfiles.prizePoolDurationDays,
      autoRenew: userProfiles.prizePoolAutoRenew,
    })
    .from(userProfiles)
    .where(eq(userProfiles.userId, hostId))
    .limit(1);
  return profile ?? null;
}

/** Changes an open pool's target and/or end; returns the row, or null when the pool is not open. */
export async function updateOpenPoolTerms(
  db: Db,
  poolId: string,
  terms: { targetCents?: number; endAt?: Date },
): Promise<PoolRow | null> {
  const [row] = await db
    .update(prizePools)
    .set({ targetCents: terms.targetCents, endAt: terms.endAt, updatedAt: new Date() })
    .where(and(eq(prizePools.id, poolId), eq(prizePools.status, "open")))
    .returning();
  return row ?? null;
}

/** The public display name of a user (their profile's creator name), or null. */
export async function getDisplayName(db: Db, userId: string): Promise<string | null> {
  const [profile] = await db
    .select({ name: userProfiles.creatorName })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .limit(1);
  return profile?.name ?? null;
}

/** Where a source key was recorded (D1's mirror of every pool's ledger), or null. */
export async function findRecordedSource(
  db: Db,
  sourceKey: string,
): Promise<{ poolId: string; entryNumber: number | null } | null> {
  const [contribution] = await db
    .select({ poolId: prizePoolContributions.poolId, entryNumber: prizePoolContributions.entryNumber })
    .from(prizePoolContributions)
    .where(eq(prizePoolContributions.sourceKey, sourceKey))
    .limit(1);
  if (contribution) return contribution;
  // Entries without money behind them (free guesses) are only in prize_entries.
  const [entry] = await db
    .select({ poolId: prizeEntries.poolId, entryNumber: prizeEntries.entryNumber })
    .from(prizeEntries)
    .where(eq(prizeEntries.sourceKey, sourceKey))
    .limit(1);
  return entry ?? null;
}

/** The contribution a payment made (not a reversal row), or null. */
export async function getPaymentContribution(db: Db, sourceKey: string) {
  const [row] = await db
    .select({
      poolId: prizePoolContributions.poolId,
      hostId: prizePoolContributions.hostId,
      amountCents: prizePoolContributions.amountCents,
      currency: prizePoolContributions.currency,
      entryNumber: prizePoolContributions.entryNumber,
    })
    .from(prizePoolContributions)
    .where(and(eq(prizePoolContributions.sourceKey, sourceKey), isNull(prizePoolContributions.reversesKey)))
    .limit(1);
  return row ?? null;
}

/** Books a host debit once per reversal key; returns whether it was new. */
export async function insertHostDebit(
  db: Db,
  values: Omit<typeof hostDebits.$inferInsert, "id" | "createdAt">,
): Promise<boolean> {
  const rows = await db.insert(hostDebits).values(values).onConflictDoNothing().returning({ id: hostDebits.id });
  return rows.length === 1;
}

/** The host debit booked under a reversal key, or null. */
export async function getHostDebit(db: Db, reversalKey: string) {
  const [row] = await db
    .select({ amountCents: hostDebits.amountCents, reason: hostDebits.reason, poolId: hostDebits.poolId })
    .from(hostDebits)
    .where(eq(hostDebits.reversalKey, reversalKey))
    .limit(1);
  return row ?? null;
}

/** The host debits booked for a payment (net, positive = owed by the host). */
export async function sumHostDebitsForSource(db: Db, sourceKey: string): Promise<number> {
  const [row] = await db
    .select({ total: sum(hostDebits.amountCents) })
    .from(hostDebits)
    .where(eq(hostDebits.sourceKey, sourceKey));
  return Number(row?.total ?? 0);
}

/** Closed pools that moved their amount out (no entries) whose next pool has not received it yet. */
export async function listPendingCarryOvers(db: Db, limit: number) {
  return db
    .select({
      poolId: prizePoolContributions.poolId,
      hostId: prizePoolContributions.hostId,
      amountCents: prizePoolContributions.amountCents,
      currency: prizePoolContributions.currency,
    })
    .from(prizePoolContributions)
    .where(
      and(
        eq(prizePoolContributions.sourceType, "carry_over"),
        lt(prizePoolContributions.amountCents, 0),
        sql`NOT EXISTS (SELECT 1 FROM pool_contribution_keys k WHERE k.source_key = 'carry:' || ${prizePoolContributions.poolId} || ':in')`,
      ),
    )
    .limit(limit);
}

/** Points each sealed guess of a closed pool at its entry (guess:{guess id} keys). */
export async function linkGuessEntries(db: Db, poolId: string): Promise<void> {
  await db.run(sql`
    UPDATE guess_win_participants
    SET pool_id = ${poolId},
        entry_number = (SELECT e.entry_number FROM prize_entries e WHERE e.pool_id = ${poolId} AND e.source_key = 'guess:' || guess_win_participants.id)
    WHERE pool_id IS NULL
      AND (id IN (SELECT substr(e.source_key, 7) FROM prize_entries e WHERE e.pool_id = ${poolId} AND e.source_key LIKE 'guess:%')
        -- a guess taken with no entry (its account held the per-person cap, decision 560): linked, entry_number null
        OR id IN (SELECT substr(c.source_key, 7) FROM prize_pool_contributions c WHERE c.pool_id = ${poolId} AND c.source_key LIKE 'guess:%'))`);
}

/**
 * What checkout needs to tell whether the per-person cap leaves room for an entry (decision 560), in one statement:
 * the host's open pool's valid entries (the object's mirrored count), the account's valid entries in it, and the
 * stored cap setting (raw). Null when the host has no open pool.
 */
export async function getEntryCapFacts(
  db: Db,
  input: { hostId: string; userId: string; settingKey: string },
): Promise<{ poolEntries: number; held: number; setting: unknown } | null> {
  const row = await db.get<{ pool_entries: number; held: number; setting: unknown }>(sql`
    SELECT p.entries_count AS pool_entries,
           (SELECT COUNT(*) FROM ${prizeEntries} e
             WHERE e.user_id = ${input.userId} AND e.pool_id = p.id AND e.voided_at IS NULL) AS held,
           (SELECT s.setting_value FROM platform_settings s WHERE s.setting_key = ${input.settingKey}) AS setting
    FROM ${prizePools} p
    WHERE p.host_id = ${input.hostId} AND p.status = 'open'
    LIMIT 1`);
  if (!row) return null;
  return { poolEntries: Number(row.pool_entries), held: Number(row.held), setting: row.setting ?? null };
}
