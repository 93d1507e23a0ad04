import { and, asc, eq, getTableColumns, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "~/db/client.server";
import { checkoutSessions, disputes, heldPaymentEvents, orders, refundParts, refunds, vouchers } from "~/db/schema";
import {
  COUNTED_REFUND_STATUSES,
  D1_MAX_BOUND_PARAMETERS,
  DISPUTE_RETURNED_STATUSES,
  FINAL_DISPUTE_STATUSES,
  FINAL_REFUND_STATUSES,
  refundCounts,
  refundStatusRank,
  type RefundOrigin,
  type RefundPartKind,
  type RefundStatus,
  type ReversalStep,
} from "~/domain/payments";

// Refunds and disputes of a payment (by the provider's ids) and the refunded totals they make on its order and
// checkout. The event's row and the totals change in one batch: the totals move by the difference the event makes
// to what counts (computed from the row as it was before the batch), so a replay, an older event arriving late or a
// concurrent delivery moves them by nothing.

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
const COUNTED = list(COUNTED_REFUND_STATUSES);
const FINAL_REFUND = list(FINAL_REFUND_STATUSES);
const FINAL_DISPUTE = list(FINAL_DISPUTE_STATUSES);
const RETURNED_DISPUTE = list(DISPUTE_RETURNED_STATUSES);

/** SQL rank of a refund status (refundStatusRank in the domain). */
const rank = (status: SQL) =>
  sql`(case when ${status} in (${FINAL_REFUND}) then 2 when ${status} = 'succeeded' then 1 else 0 end)`;

/** Whether a dispute with these columns counts as money given back (disputeCounts in the domain). */
const disputeCountsSql = (status: SQL, withdrawn: SQL, reinstated: SQL) =>
  sql`(${status} = 'lost' or (${status} not in (${RETURNED_DISPUTE}) and ${withdrawn} = 1 and ${reinstated} = 0))`;

/** The statement that moves an order's refunded total by `delta` (an SQL expression) and sets its refund state. */
function orderTotalStatement(db: Db, orderId: string, delta: SQL<number>) {
  const refunded = sql<number>`max(0, ${orders.refundedCents} + ${delta})`;
  return db
    .update(orders)
    .set({
      refundedCents: refunded,
      refundState: sql`(case when ${refunded} <= 0 then 'none' when ${refunded} >= ${orders.amountCents} then 'full' else 'partial' end)`,
      updatedAt: new Date(),
    })
    .where(and(eq(orders.id, orderId), sql`${delta} <> 0`));
}

/** One order's part of a refund or dispute that names no order of a payment for several orders (refund_parts). */
export type RefundPartInput = { orderId: string; amountCents: number };

/** The most refund_parts rows one statement inserts (D1's parameter limit over the table's columns). */
const PARTS_PER_STATEMENT = Math.floor(D1_MAX_BOUND_PARAMETERS / Object.keys(getTableColumns(refundParts)).length);

/** The stored amount of a refund's or dispute's part on an order (fixed by the first event that stored it). */
const partAmount = (kind: RefundPartKind, sourceId: string, orderId: string) =>
  sql<number>`coalesce((select p.amount_cents from refund_parts p where p.kind = ${kind} and p.source_id = ${sourceId} and p.order_id = ${orderId}), 0)`;

/**
 * The statements that move an order's (or, for a refund or dispute split over a payment's orders, each order's by
 * its part) and its checkout's refunded totals by `factor` (1 when the event starts counting, -1 when it stops, 0
 * otherwise: an SQL expression over the stored event row, evaluated before the row changes) times the amount, and
 * set their refund states. The parts are stored first, once: a later or concurrent event keeps the first split.
 */
function totalsStatements(
  db: Db,
  row: { id: string; checkoutSessionId: string; orderId: string | null; amountCents: number; currency: string },
  kind: RefundPartKind,
  factor: SQL<number>,
  storedAmount: SQL<number>,
  parts: readonly RefundPartInput[] | null,
) {
  const statements: BatchItem<"sqlite">[] = [];
  if (parts && parts.length > 0) {
    // D1 binds at most 100 parameters a statement: the parts of a split over a join's or cart's 40 orders are
    // inserted a few rows a statement (every column of a row may be bound).
    for (let i = 0; i < parts.length; i += PARTS_PER_STATEMENT) {
      statements.push(
        db
          .insert(refundParts)
          .values(
            parts.slice(i, i + PARTS_PER_STATEMENT).map((p) => ({
              kind,
              sourceId: row.id,
              orderId: p.orderId,
              amountCents: p.amountCents,
              currency: row.currency,
            })),
          )
          .onConflictDoNothing(),
      );
    }
    for (const p of parts)
      statements.push(
        orderTotalStatement(db, p.orderId, sql<number>`(${factor}) * ${partAmount(kind, row.id, p.orderId)}`),
      );
  } else if (row.orderId) {
    statements.push(orderTotalStatement(db, row.orderId, sql<number>`(${factor}) * ${storedAmount}`));
  }
  const delta = sql<number>`(${factor}) * ${storedAmount}`;
  const refunded = sql<number>`max(0, ${checkoutSessions.refundedCents} + ${delta})`;
  statements.push(
    db
      .update(checkoutSessions)
      .set({
        refundedCents: refunded,
        refundState: sql`(case when ${refunded} <= 0 then 'none' when ${refunded} >= ${checkoutSessions.amountCents} then 'full' else 'partial' end)`,
      })
      .where(and(eq(checkoutSessions.id, row.checkoutSessionId), sql`${delta} <> 0`)),
  );
  return statements;
}

/** The orders whose totals an event moves: its own, or those it is split over. */
const touchedOrders = (orderId: string | null, parts: readonly RefundPartInput[] | null) =>
  parts && parts.length > 0 ? parts.map((p) => p.orderId) : orderId ? [orderId] : [];

/** A full refund voids the order's unredeemed voucher; once it is no longer full (a refund failed) it is active again. */
function voucherStatements(db: Db, orderId: string | null): BatchItem<"sqlite">[] {
  if (!orderId) return [];
  const state = sql`(select o.refund_state from orders o where o.id = ${orderId})`;
  return [
    db
      .update(vouchers)
      .set({ status: "void" })
      .where(and(eq(vouchers.orderId, orderId), eq(vouchers.status, "active"), sql`${state} = 'full'`)),
    db
      .update(vouchers)
      .set({ status: "active" })
      .where(and(eq(vouchers.orderId, orderId), eq(vouchers.status, "void"), sql`${state} <> 'full'`)),
  ];
}

/**
 * The status an order goes back to when its full refund stops counting (the refund failed): the last status its host
 * set (its shipping history), else the one its payment gave it (physical: processing, otherwise paid). The order's
 * columns are qualified: inside the subquery an unqualified "id" would be the shipping update's.
 */
const statusBeforeRefund = sql`coalesce((select su.status from shipping_updates su where su.order_id = "orders"."id" and su.status is not null and su.status <> 'refunded' order by su.created_at desc, su.rowid desc limit 1), case when "orders"."product_category" = 'physical' then 'processing' else 'paid' end)`;

/**
 * An order refunded in full takes the status refunded (one cancelled or unpaid keeps its own); once it is no longer
 * refunded in full (a refund failed) it goes back to its status from before. A partial refund leaves the status alone.
 * Driven by the refund state the batch's totals statement left, like the voucher's.
 */
function orderStatusStatement(db: Db, orderId: string): BatchItem<"sqlite"> {
  const full = sql`${orders.refundState} = 'full'`;
  return db
    .update(orders)
    .set({
      status: sql`(case when ${full} then 'refunded' else ${statusBeforeRefund} end)`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(orders.id, orderId),
        sql`((${full} and ${orders.status} not in ('refunded', 'cancelled', 'pending')) or (not ${full} and ${orders.status} = 'refunded'))`,
      ),
    );
}

/** What a change of an order's refund state changes with it: its voucher and its status. */
const refundStateStatements = (db: Db, orderId: string) => [
  ...voucherStatements(db, orderId),
  orderStatusStatement(db, orderId),
];

export type RefundRowInput = {
  id: string;
  checkoutSessionId: string;
  paymentIntentId: string;
  orderId: string | null;
  amountCents: number;
  currency: string;
  status: RefundStatus;
  origin: RefundOrigin;
  reason: string | null;
};

/**
 * Stores a provider refund (once by id) and its status with the totals, in one batch. A status only moves forward
 * (pending -> succeeded -> failed/canceled): an older event arriving late changes nothing. The totals move by the
 * refund's amount when it starts counting and back when it stops. A row first stored from an event without our
 * metadata (origin 'provider') takes the origin and reason a later one carries. The order's refund reason is the
 * newest counted refund's.
 */
export async function storeRefund(
  db: Db,
  row: RefundRowInput,
  parts: readonly RefundPartInput[] | null = null,
): Promise<void> {
  const now = new Date();
  const newRank = refundStatusRank(row.status);
  const newCounts = refundCounts(row.status) ? 1 : 0;
  const stored = sql`(select r.status from refunds r where r.id = ${row.id})`;
  const storedAmount = sql<number>`coalesce((select r.amount_cents from refunds r where r.id = ${row.id}), ${row.amountCents})`;
  const storedCounts = sql`(${stored} in (${COUNTED}))`;
  const factor = sql<number>`(case when ${stored} is null then ${newCounts}
    when ${newRank} > ${rank(stored)} then (${newCounts} - ${storedCounts})
    else 0 end)`;
  const newer = sql`${rank(sql`excluded.status`)} > ${rank(sql`${refunds.status}`)}`;
  const statements: BatchItem<"sqlite">[] = [
    ...totalsStatements(db, row, "refund", factor, storedAmount, parts),
    db
      .insert(refunds)
      .values({ ...row, reversal: "none", createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: refunds.id,
        set: {
          status: sql`case when ${newer} then excluded.status else ${refunds.status} end`,
          origin: sql`case when ${refunds.origin} = 'provider' then excluded.origin else ${refunds.origin} end`,
          reason: sql`coalesce(${refunds.reason}, excluded.reason)`,
          updatedAt: now,
        },
        setWhere: sql`${newer} or (${refunds.origin} = 'provider' and excluded.origin <> 'provider') or (${refunds.reason} is null and excluded.reason is not null)`,
      }),
    ...(row.orderId
      ? [
          db
            .update(orders)
            .set({
              refundReason: sql`coalesce((select r.reason from refunds r where r.order_id = ${row.orderId} and r.status in (${COUNTED}) and r.reason is not null order by r.created_at desc limit 1), ${orders.refundReason})`,
            })
            .where(eq(orders.id, row.orderId)),
        ]
      : []),
    ...touchedOrders(row.orderId, parts).flatMap((orderId) => refundStateStatements(db, orderId)),
  ];
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

export type DisputeRowInput = {
  id: string;
  checkoutSessionId: string;
  paymentIntentId: string;
  orderId: string | null;
  amountCents: number;
  currency: string;
  status: string;
  fundsWithdrawn: boolean;
  fundsReinstated: boolean;
};

/**
 * Stores a dispute event (once by id) with the totals, in one batch. A final status (won, lost) is never replaced;
 * withdrawn and reinstated funds are flags that stay set, so events in any order end at the same row. The totals
 * move by the disputed amount when it starts counting (funds withdrawn, or lost) and back when it stops (funds
 * reinstated, or won).
 */
export async function storeDispute(
  db: Db,
  row: DisputeRowInput,
  parts: readonly RefundPartInput[] | null = null,
): Promise<void> {
  const now = new Date();
  const d = (column: string) => sql`(select d.${sql.raw(column)} from disputes d where d.id = ${row.id})`;
  const storedStatus = d("status");
  const effStatus = sql`(case when ${storedStatus} in (${FINAL_DISPUTE}) then ${storedStatus} else ${row.status} end)`;
  const effWithdrawn = sql`max(${d("funds_withdrawn")}, ${row.fundsWithdrawn ? 1 : 0})`;
  const effReinstated = sql`max(${d("funds_reinstated")}, ${row.fundsReinstated ? 1 : 0})`;
  const before = disputeCountsSql(storedStatus, d("funds_withdrawn"), d("funds_reinstated"));
  const after = disputeCountsSql(effStatus, effWithdrawn, effReinstated);
  const fresh = disputeCountsSql(
    sql`${row.status}`,
    sql`${row.fundsWithdrawn ? 1 : 0}`,
    sql`${row.fundsReinstated ? 1 : 0}`,
  );
  const factor = sql<number>`(case when ${storedStatus} is null then (case when ${fresh} then 1 else 0 end)
    else ((case when ${after} then 1 else 0 end) - (case when ${before} then 1 else 0 end)) end)`;
  const storedAmount = sql<number>`coalesce(${d("amount_cents")}, ${row.amountCents})`;
  const statements: BatchItem<"sqlite">[] = [
    ...totalsStatements(db, row, "dispute", factor, storedAmount, parts),
    db
      .insert(disputes)
      .values({ ...row, reversal: "none", createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: disputes.id,
        set: {
          status: sql`case when ${disputes.status} in (${FINAL_DISPUTE}) then ${disputes.status} else excluded.status end`,
          fundsWithdrawn: sql`max(${disputes.fundsWithdrawn}, excluded.funds_withdrawn)`,
          fundsReinstated: sql`max(${disputes.fundsReinstated}, excluded.funds_reinstated)`,
          updatedAt: now,
        },
      }),
    ...touchedOrders(row.orderId, parts).flatMap((orderId) => refundStateStatements(db, orderId)),
  ];
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** A refund's or dispute's parts on the orders of its payment, by line (empty when it counts on one order or on none). */
export function listRefundParts(db: Db, kind: RefundPartKind, sourceId: string) {
  return db
    .select()
    .from(refundParts)
    .where(and(eq(refundParts.kind, kind), eq(refundParts.sourceId, sourceId)))
    .orderBy(sql`(select o.line from orders o where o.id = ${refundParts.orderId})`, refundParts.orderId);
}

export async function getRefund(db: Db, id: string) {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id)).limit(1);
  return row;
}

/**
 * Claims the buyer's mail about a refund: true for the one call that claims it, once the refund counts (pending
 * or succeeded); every other call (a replay, a second request with the same key, a racing delivery) gets false.
 */
export async function claimRefundMail(db: Db, id: string, now = new Date()): Promise<boolean> {
  const claimed = await db
    .update(refunds)
    .set({ buyerMailedAt: now })
    .where(and(eq(refunds.id, id), isNull(refunds.buyerMailedAt), sql`${refunds.status} in (${COUNTED})`))
    .returning({ id: refunds.id });
  return claimed.length === 1;
}

/**
 * Claims the buyer's mail that a refund did not go through (failed or canceled), once; null for every other call.
 * The answer says whether the buyer had been mailed the refund before (pending, then failed), so the mail can
 * correct it. The two claims are conditional on the stored status, so a refund failed on first sight never gets the
 * first mail.
 */
export async function claimRefundFailureMail(
  db: Db,
  id: string,
  now = new Date(),
): Promise<{ announced: boolean } | null> {
  const [claimed] = await db
    .update(refunds)
    .set({ buyerFailureMailedAt: now })
    .where(and(eq(refunds.id, id), isNull(refunds.buyerFailureMailedAt), sql`${refunds.status} in (${FINAL_REFUND})`))
    .returning({ buyerMailedAt: refunds.buyerMailedAt });
  return claimed ? { announced: claimed.buyerMailedAt !== null } : null;
}

export async function getDispute(db: Db, id: string) {
  const [row] = await db.select().from(disputes).where(eq(disputes.id, id)).limit(1);
  return row;
}

/** Whose pool reversal moves: a refund's or dispute's own, or (with `orderId`) that of its part on that order. */
export type ReversalOf = { kind: RefundPartKind; id: string; orderId?: string };

/**
 * Moves a pool reversal from one of `from` to `to`; true for the one caller that moved it. `counting` (true/false)
 * also requires the refund or dispute to count (or not) as money given back right now.
 */
export async function claimReversalStep(
  db: Db,
  { kind, id, orderId }: ReversalOf,
  step: { from: readonly ReversalStep[]; to: ReversalStep; counting?: boolean },
): Promise<boolean> {
  const { from, to, counting } = step;
  const counts =
    kind === "refund"
      ? sql`exists (select 1 from refunds r where r.id = ${id} and r.status in (${COUNTED}))`
      : sql`exists (select 1 from disputes d where d.id = ${id} and ${disputeCountsSql(sql`d.status`, sql`d.funds_withdrawn`, sql`d.funds_reinstated`)})`;
  const condition = counting === undefined ? undefined : counting ? counts : sql`not ${counts}`;
  if (orderId !== undefined) {
    const rows = await db
      .update(refundParts)
      .set({ reversal: to, updatedAt: new Date() })
      .where(
        and(
          eq(refundParts.kind, kind),
          eq(refundParts.sourceId, id),
          eq(refundParts.orderId, orderId),
          inArray(refundParts.reversal, [...from]),
          condition,
        ),
      )
      .returning({ orderId: refundParts.orderId });
    return rows.length > 0;
  }
  const table = kind === "refund" ? refunds : disputes;
  const rows = await db
    .update(table)
    .set({ reversal: to, updatedAt: new Date() })
    .where(and(eq(table.id, id), inArray(table.reversal, [...from]), condition))
    .returning({ id: table.id });
  return rows.length > 0;
}

/** The payment a refund or dispute belongs to, with what the reversal needs. */
export async function getPaymentForRefund(db: Db, checkoutSessionId: string) {
  const [row] = await db
    .select({
      id: checkoutSessions.id,
      purpose: checkoutSessions.purpose,
      hostId: checkoutSessions.hostId,
      amountCents: checkoutSessions.amountCents,
      currency: checkoutSessions.currency,
      paymentStatus: checkoutSessions.paymentStatus,
      paymentIntentId: checkoutSessions.paymentIntentId,
      refundedCents: checkoutSessions.refundedCents,
      rates: checkoutSessions.rates,
    })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, checkoutSessionId))
    .limit(1);
  return row;
}

/** An order's payment (checkout session id), or undefined when the order does not exist. */
export async function getOrderPayment(db: Db, orderId: string) {
  const [row] = await db
    .select({ id: orders.id, checkoutSessionId: orders.checkoutSessionId, paymentIntentId: orders.paymentIntentId })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  return row;
}

/** What counts as given back on an order now (its refunded total: counted refunds and disputes, maybe past its amount). */
export async function orderRefundedCents(db: Db, orderId: string): Promise<number> {
  const [row] = await db
    .select({ refundedCents: orders.refundedCents })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  return row?.refundedCents ?? 0;
}

/** Our checkout session id of a provider payment intent, or null. */
export async function findCheckoutIdByPaymentIntent(db: Db, paymentIntentId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.paymentIntentId, paymentIntentId))
    .limit(1);
  return row?.id ?? null;
}

/** The orders a checkout paid for (id, amount and refund totals), by line. */
export function listPaymentOrders(db: Db, checkoutSessionId: string) {
  return db
    .select({
      id: orders.id,
      hostId: orders.hostId,
      groupBuyId: orders.groupBuyId,
      amountCents: orders.amountCents,
      currency: orders.currency,
      refundedCents: orders.refundedCents,
      refundState: orders.refundState,
      poolId: orders.poolId,
      entryNumber: orders.entryNumber,
      productName: orders.productName,
      orderNumber: orders.orderNumber,
      status: orders.status,
      refundReason: orders.refundReason,
      metadata: orders.metadata,
    })
    .from(orders)
    .where(eq(orders.checkoutSessionId, checkoutSessionId))
    .orderBy(orders.line)
    .limit(100);
}

/** A refund or dispute (or its part on one order) counting on a group buy's order, for the host's earnings. */
export type GroupBuyOrderReversal = {
  kind: RefundPartKind;
  /** The reversal's key: the refund's or dispute's id, or '<id>:<order id>' for its part on a cart's order. */
  key: string;
  checkoutSessionId: string;
  orderId: string;
  amountCents: number;
  currency: string;
  origin: RefundOrigin;
  poolId: string | null;
  /** What the pool's close left the host to carry of it (host_debits under its key), else null (the pool gave it back). */
  hostDebit: { hostId: string; poolId: string; amountCents: number } | null;
};

/**
 * The refunds and disputes whose pool reversal was applied to a group buy's orders, except the group buy's own
 * tier and cancellation refunds (booked with its sales): what its end books in the host's earnings, since a sale the
 * group buy has not booked yet cannot take a refund back (docs/decisions/340-refunds-before-a-group-buy-ends.md).
 */
export async function listGroupBuyOrderReversals(db: Db, groupBuyId: string): Promise<GroupBuyOrderReversal[]> {
  const inGroupBuy = (orderId: SQL) =>
    sql`${orderId} in (select o.id from orders o where o.group_buy_id = ${groupBuyId})`;
  // The host debit booked under a reversal key, and the pool of the order it counts on.
  const debit = (key: SQL) => ({
    debitHostId: sql<string | null>`(select hd.host_id from host_debits hd where hd.reversal_key = ${key})`,
    debitPoolId: sql<string | null>`(select hd.pool_id from host_debits hd where hd.reversal_key = ${key})`,
    debitCents: sql<number | null>`(select hd.amount_cents from host_debits hd where hd.reversal_key = ${key})`,
  });
  const orderPool = (orderId: SQL) => sql<string | null>`(select o.pool_id from orders o where o.id = ${orderId})`;
  const [own, disputed, parts] = await Promise.all([
    db
      .select({
        key: refunds.id,
        checkoutSessionId: refunds.checkoutSessionId,
        orderId: sql<string>`${refunds.orderId}`,
        amountCents: refunds.amountCents,
        currency: refunds.currency,
        origin: refunds.origin,
        orderPoolId: orderPool(sql`${refunds.orderId}`),
        ...debit(sql`${refunds.id}`),
      })
      .from(refunds)
      .where(
        and(
          inGroupBuy(sql`${refunds.orderId}`),
          eq(refunds.reversal, "applied"),
          sql`${refunds.origin} <> 'group_buy'`,
        ),
      ),
    db
      .select({
        key: disputes.id,
        checkoutSessionId: disputes.checkoutSessionId,
        orderId: sql<string>`${disputes.orderId}`,
        amountCents: disputes.amountCents,
        currency: disputes.currency,
        orderPoolId: orderPool(sql`${disputes.orderId}`),
        ...debit(sql`${disputes.id}`),
      })
      .from(disputes)
      .where(and(inGroupBuy(sql`${disputes.orderId}`), eq(disputes.reversal, "applied"))),
    db
      .select({
        kind: refundParts.kind,
        key: sql<string>`${refundParts.sourceId} || ':' || ${refundParts.orderId}`,
        orderId: refundParts.orderId,
        amountCents: refundParts.amountCents,
        currency: refundParts.currency,
        checkoutSessionId: sql<string>`coalesce((select r.checkout_session_id from refunds r where ${refundParts.kind} = 'refund' and r.id = ${refundParts.sourceId}), (select d.checkout_session_id from disputes d where ${refundParts.kind} = 'dispute' and d.id = ${refundParts.sourceId}))`,
        origin: sql<RefundOrigin | null>`(select r.origin from refunds r where ${refundParts.kind} = 'refund' and r.id = ${refundParts.sourceId})`,
        orderPoolId: orderPool(sql`${refundParts.orderId}`),
        ...debit(sql`${refundParts.sourceId} || ':' || ${refundParts.orderId}`),
      })
      .from(refundParts)
      .where(
        and(
          inGroupBuy(sql`${refundParts.orderId}`),
          eq(refundParts.reversal, "applied"),
          sql`${refundParts.amountCents} > 0`,
        ),
      ),
  ]);
  type Row = {
    key: string;
    checkoutSessionId: string;
    orderId: string;
    amountCents: number;
    currency: string;
    orderPoolId: string | null;
    debitHostId: string | null;
    debitPoolId: string | null;
    debitCents: number | null;
  };
  const reversal = (kind: RefundPartKind, origin: RefundOrigin, r: Row): GroupBuyOrderReversal => ({
    kind,
    key: r.key,
    checkoutSessionId: r.checkoutSessionId,
    orderId: r.orderId,
    amountCents: r.amountCents,
    currency: r.currency,
    origin,
    poolId: r.debitPoolId ?? r.orderPoolId,
    hostDebit:
      r.debitHostId !== null && r.debitPoolId !== null
        ? { hostId: r.debitHostId, poolId: r.debitPoolId, amountCents: r.debitCents ?? 0 }
        : null,
  });
  return [
    ...own.map((r) => reversal("refund", r.origin, r)),
    ...disputed.map((d) => reversal("dispute", "dispute", d)),
    ...parts
      .filter((p) => p.origin !== "group_buy")
      .map((p) => reversal(p.kind, p.kind === "dispute" ? "dispute" : (p.origin ?? "provider"), p)),
  ];
}

/**
 * A group buy's own end refunds (tier and cancellation) of its orders whose pool share was given back again: the
 * refund failed or was canceled. Each is restored in the host's earnings like any failed refund (decision 380), with
 * what the pool's close left the host to carry of the restore (host_debits under '<id>:restore').
 */
export async function listGroupBuyRestoredEndRefunds(db: Db, groupBuyId: string): Promise<GroupBuyOrderReversal[]> {
  const key = sql`${refunds.id} || ':restore'`;
  const rows = await db
    .select({
      key: refunds.id,
      checkoutSessionId: refunds.checkoutSessionId,
      orderId: sql<string>`${refunds.orderId}`,
      amountCents: refunds.amountCents,
      currency: refunds.currency,
      orderPoolId: sql<string | null>`(select o.pool_id from orders o where o.id = ${refunds.orderId})`,
      debitHostId: sql<string | null>`(select hd.host_id from host_debits hd where hd.reversal_key = ${key})`,
      debitPoolId: sql<string | null>`(select hd.pool_id from host_debits hd where hd.reversal_key = ${key})`,
      debitCents: sql<number | null>`(select hd.amount_cents from host_debits hd where hd.reversal_key = ${key})`,
    })
    .from(refunds)
    .where(
      and(
        sql`${refunds.orderId} in (select o.id from orders o where o.group_buy_id = ${groupBuyId})`,
        eq(refunds.origin, "group_buy"),
        inArray(refunds.reversal, ["restoring", "restored"]),
      ),
    );
  return rows.map((r) => ({
    kind: "refund" as const,
    key: r.key,
    checkoutSessionId: r.checkoutSessionId,
    orderId: r.orderId,
    amountCents: r.amountCents,
    currency: r.currency,
    origin: "group_buy" as const,
    poolId: r.debitPoolId ?? r.orderPoolId,
    hostDebit:
      r.debitHostId !== null && r.debitPoolId !== null
        ? { hostId: r.debitHostId, poolId: r.debitPoolId, amountCents: r.debitCents ?? 0 }
        : null,
  }));
}

// --- events held until their payment is known ------------------------------------------------------------------

/** A refund or dispute event of a payment not known yet, as held (docs/decisions/380-held-payment-events.md). */
export type HeldPaymentEventInput = {
  eventId: string;
  type: string;
  paymentIntentId: string | null;
  chargeId: string | null;
  object: string;
};

/** Holds an event by its id (once: a repeated delivery keeps the first). */
export async function holdPaymentEvent(db: Db, event: HeldPaymentEventInput, now = new Date()): Promise<void> {
  await db
    .insert(heldPaymentEvents)
    .values({ ...event, receivedAt: now })
    .onConflictDoNothing({ target: heldPaymentEvents.eventId });
}

/**
 * The held events not applied yet, first received first (the order they are applied in): those of one payment intent,
 * or (the cron's sweep) those whose payment intent is now of a paid checkout.
 */
export function listWaitingPaymentEvents(db: Db, paymentIntentId: string | null, limit = 100) {
  const known = sql`exists (select 1 from checkout_sessions c where c.payment_intent_id = ${heldPaymentEvents.paymentIntentId} and c.payment_status = 'paid')`;
  return db
    .select()
    .from(heldPaymentEvents)
    .where(
      and(
        isNull(heldPaymentEvents.appliedAt),
        paymentIntentId === null ? known : eq(heldPaymentEvents.paymentIntentId, paymentIntentId),
      ),
    )
    .orderBy(asc(heldPaymentEvents.receivedAt), asc(heldPaymentEvents.eventId))
    .limit(limit);
}

/** Marks a held event applied; true for the one call that marked it. */
export async function markPaymentEventApplied(db: Db, eventId: string, now = new Date()): Promise<boolean> {
  const rows = await db
    .update(heldPaymentEvents)
    .set({ appliedAt: now })
    .where(and(eq(heldPaymentEvents.eventId, eventId), isNull(heldPaymentEvents.appliedAt)))
    .returning({ eventId: heldPaymentEvents.eventId });
  return rows.length === 1;
}

/** The held events still waiting for their payment since `receivedBefore` or earlier (the admin's list), oldest first. */
export function listUnmatchedPaymentEvents(db: Db, receivedBefore: Date, limit = 50) {
  return db
    .select({
      eventId: heldPaymentEvents.eventId,
      type: heldPaymentEvents.type,
      paymentIntentId: heldPaymentEvents.paymentIntentId,
      chargeId: heldPaymentEvents.chargeId,
      receivedAt: heldPaymentEvents.receivedAt,
      amountCents: sql<number | null>`json_extract(${heldPaymentEvents.object}, '$.amount')`,
      currency: sql<string | null>`json_extract(${heldPaymentEvents.object}, '$.currency')`,
    })
    .from(heldPaymentEvents)
    .where(and(isNull(heldPaymentEvents.appliedAt), lte(heldPaymentEvents.receivedAt, receivedBefore)))
    .orderBy(asc(heldPaymentEvents.receivedAt))
    .limit(limit);
}
