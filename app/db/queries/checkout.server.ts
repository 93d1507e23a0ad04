import { and, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { reserveContributionStatement, type ContributionKeyValues } from "~/db/queries/contribution-keys.server";
import {
  checkoutSessions,
  paymentEvents,
  paymentProcessingFees,
  refunds,
  type CheckoutSession,
  type NewCheckoutSession,
  type NewPaymentProcessingFee,
} from "~/db/schema";
import { viewerIdSql, type ViewerKey } from "~/db/queries/sessions.server";
import type { RevenueRules } from "~/domain/revenue";

// Checkout sessions (one row per hosted checkout, provider 'stripe' or 'local') and webhook events by id.

export async function insertCheckoutSession(db: Db, row: NewCheckoutSession): Promise<void> {
  await db.insert(checkoutSessions).values(row);
}

export async function getCheckoutSession(db: Db, id: string): Promise<CheckoutSession | undefined> {
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
  return row;
}

/**
 * SQL: whether a checkout that may still be paid (open and not past its expiry, or complete and waiting for a bank
 * transfer) is for this product (bought, or a line in ANY of a cart's or group buy's line values `items`,
 * `items_2`…), this game or this group buy. Such a product, game or group buy is archived, ended or cancelled, never
 * deleted, so the payment can still be fulfilled (or refunded).
 */
export function payableCheckoutReferences(
  target: { productId: string } | { gameId: string } | { groupBuyId: string },
): SQL {
  const c = checkoutSessions;
  const refers =
    "productId" in target
      ? sql`(json_extract(${c.metadata}, '$.product_id') = ${target.productId} or exists (select 1 from json_each(${c.metadata}) j
          where (j.key = 'items' or j.key glob 'items_[0-9]*') and instr(j.value, ${JSON.stringify(target.productId)}) > 0))`
      : "gameId" in target
        ? sql`json_extract(${c.metadata}, '$.game_id') = ${target.gameId}`
        : sql`json_extract(${c.metadata}, '$.group_buy_id') = ${target.groupBuyId}`;
  return sql`exists (select 1 from ${c} where ${c.paymentStatus} = 'unpaid'
    and (${c.status} = 'complete' or (${c.status} = 'open' and (${c.expiresAt} is null or ${c.expiresAt} > ${Date.now()})))
    and ${refers})`;
}

/** Our checkout row for a provider session: by the session id, else by the reference carried in its metadata. */
export async function findCheckoutRow(db: Db, sessionId: string, reference: string | null | undefined) {
  const byId = await getCheckoutSession(db, sessionId);
  if (byId || !reference) return byId;
  return getCheckoutSession(db, reference);
}

/** A checkout that could not be created at the provider will never be paid. */
export async function expireCheckoutSession(db: Db, id: string): Promise<void> {
  await db.update(checkoutSessions).set({ status: "expired" }).where(eq(checkoutSessions.id, id));
}

/**
 * Our checkout row by the reference our metadata carries (checkout_id): the row keeps it as its id until re-keyed,
 * and in its metadata after. For an event that names no session (a charge's): found through the expression index
 * on metadata.checkout_id (checkout_sessions_reference_idx).
 */
export async function findCheckoutByReference(db: Db, reference: string): Promise<CheckoutSession | undefined> {
  const byId = await getCheckoutSession(db, reference);
  if (byId) return byId;
  const [row] = await db
    .select()
    .from(checkoutSessions)
    .where(sql`json_extract(${checkoutSessions.metadata}, '$.checkout_id') = ${reference}`)
    .limit(1);
  return row;
}

/** Re-keys a checkout row from our reference to the provider's session id. */
export async function rekeyCheckoutSession(
  db: Db,
  reference: string,
  session: { id: string; url: string | null; expiresAt: Date | null },
): Promise<void> {
  await db
    .update(checkoutSessions)
    .set({ id: session.id, url: session.url, expiresAt: session.expiresAt })
    .where(eq(checkoutSessions.id, reference));
}

/**
 * The gate of fulfilment, as a statement for a D1 batch: an unpaid checkout becomes paid (once), recording the
 * payment intent and the revenue rules in force. Returns the id when this call made it paid.
 */
type PaidClaim = { paymentIntentId: string | null; now: Date; rates: RevenueRules | null };

/** The columns a claim sets on an unpaid checkout: complete, paid, with its payment intent and the rates in force. */
function paidColumns(claim: PaidClaim) {
  return {
    status: "complete" as const,
    paymentStatus: "paid" as const,
    completedAt: claim.now,
    paymentIntentId: claim.paymentIntentId,
    ...(claim.rates ? { rates: claim.rates } : {}),
  };
}

export function claimCheckoutStatement(db: Db, id: string, claim: PaidClaim) {
  return db
    .update(checkoutSessions)
    .set(paidColumns(claim))
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.paymentStatus, "unpaid")))
    .returning({ id: checkoutSessions.id });
}

/** The metadata key that marks a paid checkout refunded in full because nothing of it could be delivered. */
export const UNDELIVERABLE_KEY = "undeliverable";

/**
 * Claims an unpaid checkout as paid and marks it undeliverable (with the buyer's reason) in the same statement: from
 * then on fulfilment only refunds it, however the state that made it undeliverable changes. True when this call
 * claimed it.
 */
export async function claimUndeliverableCheckout(
  db: Db,
  id: string,
  claim: PaidClaim,
  reason: string,
): Promise<boolean> {
  const claimed = await db
    .update(checkoutSessions)
    .set({
      ...paidColumns(claim),
      metadata: sql`json_set(${checkoutSessions.metadata}, ${`$.${UNDELIVERABLE_KEY}`}, ${reason})`,
    })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.paymentStatus, "unpaid")))
    .returning({ id: checkoutSessions.id });
  return claimed.length === 1;
}

/**
 * Claims a paid checkout and reserves its pool contribution's source key in the same batch (a payment whose pool
 * object call is lost is then re-applied by the cron). True when this call claimed it.
 */
export async function claimCheckoutReserving(
  db: Db,
  id: string,
  claim: PaidClaim,
  contribution: ContributionKeyValues,
): Promise<boolean> {
  const paid = sql`exists (select 1 from ${checkoutSessions} where ${checkoutSessions.id} = ${id} and ${checkoutSessions.paymentStatus} = 'paid')`;
  const [claimed] = await db.batch([
    claimCheckoutStatement(db, id, claim),
    reserveContributionStatement(db, contribution, paid),
  ]);
  return claimed.length === 1;
}

/** Keeps extra metadata on a checkout row (the local provider keeps a collected address for a later event). */
export async function setCheckoutMetadata(db: Db, id: string, metadata: Record<string, string>): Promise<void> {
  await db.update(checkoutSessions).set({ metadata }).where(eq(checkoutSessions.id, id));
}

/** A completed checkout whose payment is still to come (bank transfer). */
export async function markCheckoutAwaitingPayment(db: Db, id: string, paymentIntentId: string | null): Promise<void> {
  await db
    .update(checkoutSessions)
    .set({ status: "complete", paymentIntentId })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.paymentStatus, "unpaid")));
}

/** Purchases a buyer's /my-orders lists while their payment is still to come (a guess or a deposit is not one). */
const PURCHASE_PURPOSES = ["product", "cart", "group_buy"] as const;

/**
 * The buyer's checkouts awaiting payment (a bank transfer that has not arrived: complete and unpaid), newest
 * first, at most `limit`. Once paid they are orders; once failed or expired they are no longer listed.
 */
export function listAwaitingPayments(db: Db, buyer: ViewerKey, limit = 10) {
  return db
    .select({
      id: checkoutSessions.id,
      purpose: checkoutSessions.purpose,
      amountCents: checkoutSessions.amountCents,
      currency: checkoutSessions.currency,
      description: sql<string | null>`json_extract(${checkoutSessions.metadata}, '$.description')`,
      createdAt: checkoutSessions.createdAt,
    })
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.userId, viewerIdSql(buyer)),
        eq(checkoutSessions.status, "complete"),
        eq(checkoutSessions.paymentStatus, "unpaid"),
        inArray(checkoutSessions.purpose, [...PURCHASE_PURPOSES]),
      ),
    )
    .orderBy(desc(checkoutSessions.createdAt), desc(checkoutSessions.id))
    .limit(limit);
}

/** An unpaid checkout that will never be paid (expired, or its delayed payment failed). */
export async function markUnpaidCheckoutExpired(db: Db, id: string): Promise<void> {
  await db
    .update(checkoutSessions)
    .set({ status: "expired" })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.paymentStatus, "unpaid")));
}

// --- webhook events --------------------------------------------------------------------------------------------

/**
 * Records an event id once. Returns "new" for the first delivery, else the recorded status ("processed" and
 * "ignored" mean done; "received" and "failed" are applied again, which every handler makes harmless).
 */
export async function recordPaymentEvent(db: Db, id: string, type: string): Promise<"new" | CheckoutEventStatus> {
  const recorded = await db
    .insert(paymentEvents)
    .values({ id, type, status: "received" })
    .onConflictDoNothing({ target: paymentEvents.id })
    .returning({ id: paymentEvents.id });
  if (recorded.length === 1) return "new";
  const [existing] = await db
    .select({ status: paymentEvents.status })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, id))
    .limit(1);
  return existing?.status ?? "received";
}
type CheckoutEventStatus = "received" | "processed" | "ignored" | "failed";

export async function setPaymentEventOutcome(
  db: Db,
  id: string,
  outcome: { status: CheckoutEventStatus; error: string | null; processed: boolean },
): Promise<void> {
  await db
    .update(paymentEvents)
    .set({
      status: outcome.status,
      error: outcome.error,
      ...(outcome.processed ? { processedAt: new Date() } : {}),
    })
    .where(eq(paymentEvents.id, id));
}

/** Records a payment's processing fee once (a repeat for the same payment intent adds nothing). Returns whether new. */
export async function recordProcessingFee(db: Db, row: NewPaymentProcessingFee): Promise<boolean> {
  const inserted = await db
    .insert(paymentProcessingFees)
    .values(row)
    .onConflictDoNothing({ target: paymentProcessingFees.paymentIntentId })
    .returning({ id: paymentProcessingFees.id });
  return inserted.length === 1;
}

/** Whether a payment's processing fee is recorded already. */
export async function hasProcessingFee(db: Db, paymentIntentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentProcessingFees.id })
    .from(paymentProcessingFees)
    .where(eq(paymentProcessingFees.paymentIntentId, paymentIntentId))
    .limit(1);
  return row !== undefined;
}

/** The processing fees the platform paid, in total and over the last 30 days, by currency. */
export async function processingFeeTotals(db: Db, since: Date) {
  return db
    .select({
      currency: paymentProcessingFees.currency,
      payments: sql<number>`count(*)`,
      feeCents: sql<number>`coalesce(sum(${paymentProcessingFees.feeCents}), 0)`,
      recentFeeCents: sql<number>`coalesce(sum(case when ${paymentProcessingFees.createdAt} >= ${since.getTime()} then ${paymentProcessingFees.feeCents} else 0 end), 0)`,
    })
    .from(paymentProcessingFees)
    .groupBy(paymentProcessingFees.currency);
}

/**
 * The refunds of a whole payment that has no order (a paid checkout that could not be delivered at all), not failed:
 * their amounts and the reasons the buyer reads on the payment page.
 */
export function listWholePaymentRefunds(db: Db, checkoutId: string) {
  return db
    .select({ amountCents: refunds.amountCents, currency: refunds.currency, reason: refunds.reason })
    .from(refunds)
    .where(
      and(
        eq(refunds.checkoutSessionId, checkoutId),
        isNull(refunds.orderId),
        inArray(refunds.status, ["pending", "requires_action", "succeeded"]),
      ),
    )
    .limit(10);
}
