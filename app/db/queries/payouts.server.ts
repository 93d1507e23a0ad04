import { and, count, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import {
  paymentEvents,
  payoutMethods,
  payouts,
  prizeClaims,
  prizePools,
  prizeWinners,
  userProfiles,
  users,
  type Payout,
  type PayoutMethod,
} from "~/db/schema";
import {
  eventReturnsMoney,
  payoutEventFrom,
  payoutEventTo,
  type BankPayoutStatus,
  type PayoutEvent,
  type PayoutType,
} from "~/domain/payouts";
import { availableBalanceSql } from "./earnings.server";

// Payout methods (Stripe Connect accounts) and payout requests. Every status change is one conditional UPDATE
// (from the states the domain's state machine allows), so replayed or reordered events change a payout once.

// --- payout methods ---------------------------------------------------------------------------------------------

export function listPayoutMethods(db: Db, userId: string): Promise<PayoutMethod[]> {
  return db.select().from(payoutMethods).where(eq(payoutMethods.userId, userId)).orderBy(desc(payoutMethods.createdAt));
}

export async function getDefaultPayoutMethod(db: Db, userId: string): Promise<PayoutMethod | undefined> {
  const [row] = await db
    .select()
    .from(payoutMethods)
    .where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.isDefault, true)))
    .limit(1);
  return row;
}

/** The user's connected account still being onboarded (not verified), to resume its onboarding. */
export async function getUnverifiedConnectMethod(db: Db, userId: string): Promise<PayoutMethod | undefined> {
  const [row] = await db
    .select()
    .from(payoutMethods)
    .where(
      and(
        eq(payoutMethods.userId, userId),
        eq(payoutMethods.verified, false),
        sql`${payoutMethods.connectedAccountId} is not null`,
      ),
    )
    .orderBy(desc(payoutMethods.createdAt))
    .limit(1);
  return row;
}

export async function insertConnectMethod(
  db: Db,
  input: { userId: string; accountId: string; holderName: string },
): Promise<void> {
  await db
    .insert(payoutMethods)
    .values({
      userId: input.userId,
      type: "bank_account",
      holderName: input.holderName,
      accountLast4: "",
      bankName: "",
      verified: false,
      isDefault: false,
      connectedAccountId: input.accountId,
    })
    .onConflictDoNothing();
}

export async function getMethodByAccount(db: Db, accountId: string): Promise<PayoutMethod | undefined> {
  const [row] = await db.select().from(payoutMethods).where(eq(payoutMethods.connectedAccountId, accountId)).limit(1);
  return row;
}

/**
 * Applies an `account.updated` event unless a newer one was applied already: verified = payouts enabled; the bank
 * shown; and a verified method becomes the default when the user has none. Returns whether it applied.
 */
export async function applyAccountUpdate(
  db: Db,
  update: {
    accountId: string;
    eventAt: Date;
    payoutsEnabled: boolean;
    bankName: string | null;
    last4: string | null;
    country: string | null;
  },
): Promise<boolean> {
  const newer = sql`(${payoutMethods.accountEventAt} is null or ${payoutMethods.accountEventAt} <= ${update.eventAt.getTime()})`;
  const applied = await db
    .update(payoutMethods)
    .set({
      verified: update.payoutsEnabled,
      ...(update.bankName !== null ? { bankName: update.bankName } : {}),
      ...(update.last4 !== null ? { accountLast4: update.last4 } : {}),
      ...(update.country !== null ? { country: update.country } : {}),
      accountEventAt: update.eventAt,
      ...(update.payoutsEnabled ? {} : { isDefault: false }),
    })
    .where(and(eq(payoutMethods.connectedAccountId, update.accountId), newer))
    .returning({ id: payoutMethods.id, userId: payoutMethods.userId });
  const method = applied[0];
  if (!method) return false;
  if (update.payoutsEnabled) {
    await db
      .update(payoutMethods)
      .set({ isDefault: true })
      .where(
        and(
          eq(payoutMethods.id, method.id),
          sql`not exists (select 1 from payout_methods d where d.user_id = ${method.userId} and d.is_default = 1)`,
        ),
      );
  }
  return true;
}

/** Makes one of the user's verified methods the default. */
export async function setDefaultPayoutMethod(db: Db, userId: string, methodId: string): Promise<boolean> {
  const [method] = await db
    .select({ id: payoutMethods.id })
    .from(payoutMethods)
    .where(and(eq(payoutMethods.id, methodId), eq(payoutMethods.userId, userId), eq(payoutMethods.verified, true)))
    .limit(1);
  if (!method) return false;
  await db.batch([
    db
      .update(payoutMethods)
      .set({ isDefault: false })
      .where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.isDefault, true))),
    db.update(payoutMethods).set({ isDefault: true }).where(eq(payoutMethods.id, methodId)),
  ]);
  return true;
}

// --- payout requests --------------------------------------------------------------------------------------------

// Conditional inserts (INSERT ... SELECT ... WHERE) run in one D1 batch, which D1 applies as one transaction; they
// are written in SQL and sent through D1 directly (drizzle's raw statements cannot join a D1 batch).
const dialect = new SQLiteAsyncDialect();

function statement(db: Db, query: SQL): D1PreparedStatement {
  const built = dialect.sqlToQuery(query);
  return db.$client.prepare(built.sql).bind(...built.params);
}

async function runBatch(db: Db, queries: SQL[]): Promise<D1Result[]> {
  return db.$client.batch(queries.map((q) => statement(db, q)));
}

const withdrawalKey = (payoutId: string, attempt: number) => `withdrawal:${payoutId}:${attempt}`;
const feeKey = (payoutId: string, attempt: number) => `fee:${payoutId}:${attempt}`;

/** The ledger rows that take a withdrawal attempt's amount and fee, inserted only while the payout is pending at that attempt. */
function takeMoneyStatements(
  db: Db,
  p: {
    id: string;
    hostId: string;
    amountCents: number;
    feeCents: number;
    currency: string;
    attempt: number;
    now: Date;
  },
) {
  const gate = sql`exists (select 1 from payouts where id = ${p.id} and status = 'pending' and attempt = ${p.attempt})`;
  const insert = (kind: "withdrawal" | "platform_fee", key: string, amount: number, description: string) =>
    sql`insert into earnings_ledger (id, host_id, kind, source_key, amount_cents, platform_cents, currency, description, payout_id, available_at, occurred_at)
      select ${crypto.randomUUID()}, ${p.hostId}, ${kind}, ${key}, ${amount}, ${kind === "platform_fee" ? p.feeCents : 0}, ${p.currency}, ${description}, ${p.id}, ${p.now.getTime()}, ${p.now.getTime()}
      where ${gate} on conflict (source_key) do nothing`;
  return [
    insert("withdrawal", withdrawalKey(p.id, p.attempt), -p.amountCents, "Withdrawal to your payout account"),
    ...(p.feeCents > 0
      ? [insert("platform_fee", feeKey(p.id, p.attempt), -p.feeCents, "Platform fee on withdrawal")]
      : []),
  ];
}

/** The rows that give an attempt's amount and fee back, inserted only if the payout reached `status` at that attempt. */
function returnMoneyStatements(db: Db, p: Payout, status: "failed" | "cancelled", now: Date) {
  const gate = sql`exists (select 1 from payouts where id = ${p.id} and status = ${status} and attempt = ${p.attempt})`;
  const insert = (kind: "withdrawal_return" | "fee_return", key: string, amount: number, description: string) =>
    sql`insert into earnings_ledger (id, host_id, kind, source_key, amount_cents, platform_cents, currency, description, payout_id, available_at, occurred_at)
      select ${crypto.randomUUID()}, ${p.userId}, ${kind}, ${key}, ${amount}, ${kind === "fee_return" ? -p.feeCents : 0}, ${p.currency}, ${description}, ${p.id}, ${now.getTime()}, ${now.getTime()}
      where ${gate} on conflict (source_key) do nothing`;
  return [
    insert(
      "withdrawal_return",
      `withdrawal-return:${p.id}:${p.attempt}`,
      p.amountCents,
      "Withdrawal returned to your balance",
    ),
    ...(p.feeCents > 0
      ? [insert("fee_return", `fee-return:${p.id}:${p.attempt}`, p.feeCents, "Platform fee returned")]
      : []),
  ];
}

/**
 * One atomic D1 step: a pending withdrawal is created, and its amount and fee leave the ledger, only if the host's
 * available balance covers both at this moment. Concurrent requests are serialised by D1, so together they never
 * take more than the balance. Returns false (nothing written) when it does not.
 */
export async function createWithdrawal(
  db: Db,
  w: {
    id: string;
    hostId: string;
    amountCents: number;
    feeCents: number;
    currency: string;
    methodId: string;
    accountId: string;
    now: Date;
  },
): Promise<boolean> {
  const total = w.amountCents + w.feeCents;
  const [created] = await runBatch(db, [
    sql`insert into payouts (id, user_id, amount_cents, currency, payout_type, payout_method_id, status, fee_cents, attempt, connected_account_id, created_at, updated_at)
      select ${w.id}, ${w.hostId}, ${w.amountCents}, ${w.currency}, 'host_earnings', ${w.methodId}, 'pending', ${w.feeCents}, 0, ${w.accountId}, ${w.now.getTime()}, ${w.now.getTime()}
      where ${availableBalanceSql(w.hostId, w.now)} >= ${total}`,
    ...takeMoneyStatements(db, { ...w, attempt: 0 }),
  ]);
  return (created?.meta.changes ?? 0) === 1;
}

/** A prize payout (payout type prize_winner), once per prize, payable from `payableAt`. Returns whether it is new. */
/**
 * The winner notice's records, in one batch: the pending prize payout (once per prize) and the winner's claim
 * (decision 540), whose window runs PRIZE_CLAIM_DAYS from now. Returns false when the prize had its payout already.
 */
export async function createPrizePayout(
  db: Db,
  p: {
    winnerId: string;
    userId: string;
    amountCents: number;
    currency: string;
    payableAt: Date;
    poolId: string;
    entryNumber: number;
    noticedAt: Date;
    claimBy: Date;
  },
): Promise<boolean> {
  const payoutId = crypto.randomUUID();
  const [inserted] = await db.batch([
    db
      .insert(payouts)
      .values({
        id: payoutId,
        userId: p.userId,
        amountCents: p.amountCents,
        currency: p.currency,
        payoutType: "prize_winner",
        prizeWinnerId: p.winnerId,
        status: "pending",
        payableAt: p.payableAt,
      })
      .onConflictDoNothing({ target: payouts.prizeWinnerId })
      .returning({ id: payouts.id }),
    // Only with the payout this batch made (a replay inserts neither).
    db.insert(prizeClaims).select(
      sql`SELECT ${crypto.randomUUID()}, ${p.poolId}, ${p.entryNumber}, ${p.userId}, ${payoutId}, ${p.amountCents},
        ${p.currency}, ${p.noticedAt.getTime()}, ${p.claimBy.getTime()}, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL,
        ${p.noticedAt.getTime()}
      WHERE EXISTS (SELECT 1 FROM payouts WHERE id = ${payoutId})
      ON CONFLICT DO NOTHING`,
    ),
  ]);
  return inserted.length === 1;
}

/** Main prizes of drawn pools that have no payout yet, with what the winner's notice and mail need. */
export function listNewMainPrizes(db: Db, limit = 20) {
  return db
    .select({
      winnerId: prizeWinners.id,
      userId: prizeWinners.userId,
      winnerName: prizeWinners.winnerName,
      amountCents: prizeWinners.prizeAmountCents,
      currency: prizeWinners.currency,
      entryNumber: prizeWinners.entryNumber,
      poolId: prizePools.id,
      drawnAt: prizePools.drawnAt,
      email: users.email,
      winnerNotifications: userProfiles.winnerNotifications,
    })
    .from(prizeWinners)
    .innerJoin(prizePools, eq(prizePools.id, prizeWinners.poolId))
    .leftJoin(users, eq(users.id, prizeWinners.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, prizeWinners.userId))
    .leftJoin(payouts, eq(payouts.prizeWinnerId, prizeWinners.id))
    .where(
      and(
        eq(prizeWinners.prizeType, "main"),
        eq(prizePools.status, "drawn"),
        isNull(payouts.id),
        sql`${prizeWinners.userId} is not null`,
      ),
    )
    .limit(limit);
}

/** Pending prize payouts whose settlement period is over (the winner's pool still drawn to them). */
export function listPayablePrizePayouts(db: Db, now: Date, limit = 20) {
  return db
    .select({ payout: payouts, poolWinner: prizePools.winnerUserId, poolStatus: prizePools.status })
    .from(payouts)
    .innerJoin(prizeWinners, eq(prizeWinners.id, payouts.prizeWinnerId))
    .innerJoin(prizePools, eq(prizePools.id, prizeWinners.poolId))
    .where(
      and(
        eq(payouts.payoutType, "prize_winner"),
        eq(payouts.status, "pending"),
        sql`${payouts.payableAt} <= ${now.getTime()}`,
      ),
    )
    .limit(limit);
}

/** Points a pending prize at the winner's default payout account. */
export async function setPrizeDestination(
  db: Db,
  payoutId: string,
  methodId: string,
  accountId: string,
): Promise<void> {
  await db
    .update(payouts)
    .set({ payoutMethodId: methodId, connectedAccountId: accountId })
    .where(and(eq(payouts.id, payoutId), eq(payouts.status, "pending")));
}

/** Prizes (main prizes) of a user with their pool and payout state, newest first. */
export function listUserPrizes(db: Db, userId: string, limit = 20) {
  return db
    .select({
      payoutId: payouts.id,
      status: payouts.status,
      amountCents: payouts.amountCents,
      currency: payouts.currency,
      payableAt: payouts.payableAt,
      failureReason: payouts.failureReason,
      manualNote: payouts.manualNote,
      poolId: prizeWinners.poolId,
      createdAt: payouts.createdAt,
      /** Whether the winner has confirmed the prize's claim (decision 540). */
      claimConfirmed: sql<boolean>`${prizeClaims.confirmedAt} IS NOT NULL`.mapWith(Boolean),
    })
    .from(payouts)
    .innerJoin(prizeWinners, eq(prizeWinners.id, payouts.prizeWinnerId))
    .leftJoin(prizeClaims, eq(prizeClaims.payoutId, payouts.id))
    .where(and(eq(payouts.userId, userId), eq(payouts.payoutType, "prize_winner")))
    .orderBy(desc(payouts.createdAt))
    .limit(limit);
}

/** Prizes past their settlement period and still unpaid (pending or failed): the admin's list. */
export function listUnclaimedPrizes(db: Db, now: Date, limit = 50) {
  return db
    .select({
      payoutId: payouts.id,
      status: payouts.status,
      amountCents: payouts.amountCents,
      currency: payouts.currency,
      payableAt: payouts.payableAt,
      failureReason: payouts.failureReason,
      winnerName: prizeWinners.winnerName,
      email: users.email,
      country: payoutMethods.country,
      poolId: prizeWinners.poolId,
      claimConfirmed: sql<boolean>`${prizeClaims.confirmedAt} IS NOT NULL`.mapWith(Boolean),
      idChecked: sql<boolean>`${prizeClaims.idCheckedAt} IS NOT NULL`.mapWith(Boolean),
    })
    .from(payouts)
    .innerJoin(prizeWinners, eq(prizeWinners.id, payouts.prizeWinnerId))
    .leftJoin(prizeClaims, eq(prizeClaims.payoutId, payouts.id))
    .leftJoin(users, eq(users.id, payouts.userId))
    .leftJoin(payoutMethods, and(eq(payoutMethods.userId, payouts.userId), eq(payoutMethods.isDefault, true)))
    .where(
      and(
        eq(payouts.payoutType, "prize_winner"),
        sql`${payouts.status} in ('pending', 'failed')`,
        sql`${payouts.payableAt} <= ${now.getTime()}`,
      ),
    )
    .orderBy(desc(payouts.payableAt))
    .limit(limit);
}

/** Drawn pools past their settlement period whose host share is not in the earnings ledger yet. */
export function listSettledPoolsWithoutHostShare(db: Db, before: Date, limit = 20) {
  return db
    .select({
      id: prizePools.id,
      hostId: prizePools.hostId,
      amountCents: prizePools.amountCents,
      currency: prizePools.currency,
      drawnAt: prizePools.drawnAt,
    })
    .from(prizePools)
    .where(
      and(
        eq(prizePools.status, "drawn"),
        sql`${prizePools.drawnAt} <= ${before.getTime()}`,
        sql`not exists (select 1 from earnings_ledger l where l.source_key = 'pool-share:' || ${prizePools.id})`,
      ),
    )
    .limit(limit);
}

export async function getPayout(db: Db, id: string): Promise<Payout | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id)).limit(1);
  return row;
}

export async function getPayoutByTransfer(db: Db, transferId: string): Promise<Payout | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.transferId, transferId)).limit(1);
  return row;
}

/**
 * Applies one state-machine event to a payout at its current attempt: a conditional UPDATE from the allowed
 * states, plus (for cancel, refusal and reversal of a withdrawal) the ledger rows that return its amount and fee,
 * in one batch. Returns the payout after the change, or null when the event did not apply.
 */
export async function applyPayoutEvent(
  db: Db,
  payout: Payout,
  event: PayoutEvent,
  now: Date,
  extra: {
    transferId?: string;
    failureReason?: string;
    estimatedArrivalAt?: Date;
    matchTransferId?: string;
    manualNote?: string;
  } = {},
): Promise<Payout | null> {
  const status = payoutEventTo(event);
  const from = sql.join(
    payoutEventFrom(event).map((s) => sql`${s}`),
    sql`, `,
  );
  const sets: SQL[] = [sql`status = ${status}`, sql`updated_at = ${now.getTime()}`];
  if (extra.transferId) sets.push(sql`transfer_id = ${extra.transferId}`);
  if (event === "transfer_created" || event === "settle_manually")
    sets.push(sql`completed_at = ${now.getTime()}`, sql`failure_reason = null`);
  if (extra.manualNote) sets.push(sql`manual_note = ${extra.manualNote}`);
  if (extra.estimatedArrivalAt) sets.push(sql`estimated_arrival_at = ${extra.estimatedArrivalAt.getTime()}`);
  if (extra.failureReason) sets.push(sql`failure_reason = ${extra.failureReason}`);
  const update = sql`update payouts set ${sql.join(sets, sql`, `)}
    where id = ${payout.id} and attempt = ${payout.attempt} and status in (${from})
    ${extra.matchTransferId ? sql`and transfer_id = ${extra.matchTransferId}` : sql``}`;
  const returns =
    payout.payoutType === "host_earnings" && eventReturnsMoney(event)
      ? returnMoneyStatements(db, payout, status as "failed" | "cancelled", now)
      : [];
  const [updated] = await runBatch(db, [update, ...returns]);
  if ((updated?.meta.changes ?? 0) !== 1) return null;
  return (await getPayout(db, payout.id)) ?? null;
}

/**
 * Retries a failed withdrawal: back to pending at the next attempt (a new transfer key), taking its amount and fee
 * again only if the available balance covers them now. Atomic like `createWithdrawal`.
 */
export async function retryWithdrawal(db: Db, payout: Payout, now: Date): Promise<boolean> {
  const total = payout.amountCents + payout.feeCents;
  const next = payout.attempt + 1;
  const covered =
    payout.payoutType === "host_earnings" ? sql`${availableBalanceSql(payout.userId, now)} >= ${total}` : sql`1`;
  const [updated] = await runBatch(db, [
    sql`update payouts set status = 'pending', attempt = ${next}, transfer_id = null, failure_reason = null,
      bank_payout_id = null, bank_payout_status = null, updated_at = ${now.getTime()}
      where id = ${payout.id} and status = 'failed' and attempt = ${payout.attempt} and ${covered}`,
    ...(payout.payoutType === "host_earnings"
      ? takeMoneyStatements(db, {
          id: payout.id,
          hostId: payout.userId,
          amountCents: payout.amountCents,
          feeCents: payout.feeCents,
          currency: payout.currency,
          attempt: next,
          now,
        })
      : []),
  ]);
  return (updated?.meta.changes ?? 0) === 1;
}

/**
 * Records the bank payout of a connected account on a completed payout (information only), and returns the payout as
 * it then stands (null when no payout is its).
 */
export async function recordBankPayout(
  db: Db,
  match: { payoutId?: string; accountId: string },
  bank: { id: string; status: BankPayoutStatus; arrivalAt: Date | null },
): Promise<Payout | null> {
  const set = {
    bankPayoutId: bank.id,
    bankPayoutStatus: bank.status,
    ...(bank.arrivalAt ? { estimatedArrivalAt: bank.arrivalAt } : {}),
  };
  // Already recorded for this bank payout: a replay, or a later status of the same payout. A bank payout can fail
  // after it was paid (the bank returns it), never the other way: a `payout.paid` delivered after its
  // `payout.failed` (Stripe keeps no order) leaves the failure standing.
  const [known] = await db.select().from(payouts).where(eq(payouts.bankPayoutId, bank.id)).limit(1);
  if (known) {
    const [updated] = await db
      .update(payouts)
      .set(set)
      .where(
        and(
          eq(payouts.bankPayoutId, bank.id),
          bank.status === "failed" ? undefined : sql`coalesce(${payouts.bankPayoutStatus}, '') <> 'failed'`,
        ),
      )
      .returning();
    return updated ?? known;
  }
  let targetId = match.payoutId;
  if (!targetId) {
    const [latest] = await db
      .select({ id: payouts.id })
      .from(payouts)
      .where(
        and(
          eq(payouts.connectedAccountId, match.accountId),
          eq(payouts.status, "completed"),
          isNull(payouts.bankPayoutId),
        ),
      )
      .orderBy(desc(payouts.completedAt))
      .limit(1);
    targetId = latest?.id;
  }
  if (!targetId) return null;
  const updated = await db
    .update(payouts)
    .set(set)
    .where(and(eq(payouts.id, targetId), eq(payouts.connectedAccountId, match.accountId), isNull(payouts.bankPayoutId)))
    .returning();
  return updated[0] ?? null;
}

/** One page of a user's payouts, newest first, with the total count. */
export async function listPayouts(
  db: Db,
  userId: string,
  options: { limit: number; offset: number; type?: PayoutType },
) {
  const where = and(eq(payouts.userId, userId), options.type ? eq(payouts.payoutType, options.type) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(payouts)
      .where(where)
      .orderBy(desc(payouts.createdAt), desc(payouts.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(payouts).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Points a failed payout at another payout account before it is retried. */
export async function setPayoutDestination(
  db: Db,
  payoutId: string,
  methodId: string,
  accountId: string,
): Promise<void> {
  await db
    .update(payouts)
    .set({ payoutMethodId: methodId, connectedAccountId: accountId })
    .where(and(eq(payouts.id, payoutId), eq(payouts.status, "failed")));
}

// --- Connect events (recorded by id in payment_events, like the payment webhook's) --------------------------------

/** Records an event id; false when it was processed (or ignored) already, so a replay changes nothing. */
export async function recordConnectEvent(db: Db, id: string, type: string): Promise<boolean> {
  const inserted = await db
    .insert(paymentEvents)
    .values({ id, type, status: "received" })
    .onConflictDoNothing({ target: paymentEvents.id })
    .returning({ id: paymentEvents.id });
  if (inserted.length === 1) return true;
  const [existing] = await db
    .select({ status: paymentEvents.status })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, id))
    .limit(1);
  return !(existing?.status === "processed" || existing?.status === "ignored");
}

export async function setConnectEventOutcome(
  db: Db,
  id: string,
  status: "processed" | "ignored" | "failed",
  note: string | null,
): Promise<void> {
  await db
    .update(paymentEvents)
    .set({ status, processedAt: new Date(), error: note ? note.slice(0, 1000) : null })
    .where(eq(paymentEvents.id, id));
}
