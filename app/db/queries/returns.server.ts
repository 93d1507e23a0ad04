import { and, type AnyColumn, desc, eq, gt, inArray, type SQLWrapper } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isPreparedSubquery, preparedRead, type PreparedSubquery } from "~/db/prepared.server";
import { orders, refundParts, refunds, returnRequests } from "~/db/schema";
import { COUNTED_REFUND_STATUSES, FINAL_REFUND_STATUSES } from "~/domain/payments";
import type { ReturnRequestKind } from "~/domain/shipping";

// Return requests (a buyer asks, the host approves with a refund or declines) and the refunds a buyer and a host
// see on an order. The refunds themselves are written by the payments pipeline (app/lib/payments/refunds/refunds.server.ts).

/**
 * Records a buyer's return request. The partial unique index allows one open request per order, so of two
 * concurrent requests one is stored; returns null when an open request already exists.
 */
export async function createReturnRequest(
  db: Db,
  input: { orderId: string; userId: string; hostId: string; reason: string; kind?: ReturnRequestKind },
): Promise<{ id: string } | null> {
  const [row] = await db
    .insert(returnRequests)
    .values({ id: crypto.randomUUID(), ...input, status: "requested" })
    .onConflictDoNothing()
    .returning({ id: returnRequests.id });
  return row ?? null;
}

const requestColumns = {
  id: returnRequests.id,
  orderId: returnRequests.orderId,
  kind: returnRequests.kind,
  reason: returnRequests.reason,
  status: returnRequests.status,
  declineReason: returnRequests.declineReason,
  refundId: returnRequests.refundId,
  createdAt: returnRequests.createdAt,
  decidedAt: returnRequests.decidedAt,
};

/** An order's return requests, newest first. */
export function listOrderReturnRequests(db: Db, orderId: string, limit = 20) {
  return db
    .select(requestColumns)
    .from(returnRequests)
    .where(eq(returnRequests.orderId, orderId))
    .orderBy(desc(returnRequests.createdAt), desc(returnRequests.id))
    .limit(limit);
}

/** `column in (…)` for a list of order ids or a subquery of them (e.g. `buyerOrderPageIds`). */
function inOrders(column: AnyColumn, orderIds: readonly string[] | SQLWrapper) {
  return Array.isArray(orderIds) ? inArray(column, [...orderIds]) : inArray(column, orderIds as SQLWrapper);
}

type ReturnState = { status: "requested" | "approved" | "declined"; declineReason: string | null };

/** The latest return request of each of these orders (for lists). */
export async function latestReturnRequests(db: Db, orderIds: readonly string[] | SQLWrapper) {
  if (Array.isArray(orderIds) && orderIds.length === 0) return new Map<string, ReturnState>();
  const rows = isPreparedSubquery(orderIds)
    ? await returnRequestsOfPageRead(db, orderIds).all(orderIds.values)
    : await returnRequestsOf(db, orderIds);
  const latest = new Map<string, ReturnState>();
  for (const r of rows)
    if (!latest.has(r.orderId)) latest.set(r.orderId, { status: r.status, declineReason: r.declineReason });
  return latest;
}

/** These orders' return requests, newest first. */
function returnRequestsOf(db: Db, orderIds: readonly string[] | SQLWrapper) {
  return db
    .select({
      orderId: returnRequests.orderId,
      status: returnRequests.status,
      declineReason: returnRequests.declineReason,
      createdAt: returnRequests.createdAt,
    })
    .from(returnRequests)
    .where(inOrders(returnRequests.orderId, orderIds))
    .orderBy(desc(returnRequests.createdAt), desc(returnRequests.id));
}

/** `returnRequestsOf` a page's orders, prepared once per shape of the page's subquery. */
const returnRequestsOfPageRead = preparedRead(
  (db, page: PreparedSubquery) => returnRequestsOf(db, page.template(db)).prepare(),
  (page) => page.key,
);

/** The host's open return requests, oldest first, with the order they are about. */
export function listHostOpenReturnRequests(db: Db, hostId: string, limit = 50) {
  return db
    .select({
      id: returnRequests.id,
      kind: returnRequests.kind,
      reason: returnRequests.reason,
      createdAt: returnRequests.createdAt,
      orderId: orders.id,
      orderNumber: orders.orderNumber,
      productName: orders.productName,
      customerName: orders.customerName,
      customerEmail: orders.customerEmail,
      amountCents: orders.amountCents,
      refundedCents: orders.refundedCents,
      currency: orders.currency,
      deliveredAt: orders.deliveredAt,
    })
    .from(returnRequests)
    .innerJoin(orders, eq(orders.id, returnRequests.orderId))
    .where(and(eq(returnRequests.hostId, hostId), eq(returnRequests.status, "requested")))
    .orderBy(returnRequests.createdAt, returnRequests.id)
    .limit(limit);
}

/** A return request with its order, for the host deciding it; undefined when missing. */
export async function getReturnRequestWithOrder(db: Db, id: string) {
  const [row] = await db
    .select({
      id: returnRequests.id,
      hostId: returnRequests.hostId,
      userId: returnRequests.userId,
      status: returnRequests.status,
      reason: returnRequests.reason,
      refundId: returnRequests.refundId,
      orderId: orders.id,
      orderNumber: orders.orderNumber,
      productName: orders.productName,
      checkoutSessionId: orders.checkoutSessionId,
      amountCents: orders.amountCents,
      refundedCents: orders.refundedCents,
      currency: orders.currency,
      customerEmail: orders.customerEmail,
    })
    .from(returnRequests)
    .innerJoin(orders, eq(orders.id, returnRequests.orderId))
    .where(eq(returnRequests.id, id))
    .limit(1);
  return row;
}

/**
 * Answers an open request once: approved (with the refund that paid it) or declined (with the host's reason).
 * Returns false when it was already answered (a double submit, or another tab).
 */
export async function decideReturnRequest(
  db: Db,
  id: string,
  decision: { status: "approved"; refundId: string } | { status: "declined"; declineReason: string },
): Promise<boolean> {
  const rows = await db
    .update(returnRequests)
    .set({
      status: decision.status,
      refundId: decision.status === "approved" ? decision.refundId : null,
      declineReason: decision.status === "declined" ? decision.declineReason : null,
      decidedAt: new Date(),
    })
    .where(and(eq(returnRequests.id, id), eq(returnRequests.status, "requested")))
    .returning({ id: returnRequests.id });
  return rows.length === 1;
}

/**
 * The refunds of these orders the buyer and host see (newest first): those that went through or are on their way,
 * and those that did not go through (failed or canceled: nothing was given back, and the pages say so, as the buyer
 * may have been told it was coming). Every refund (host, return, group buy, undeliverable order,
 * dispute) is stored here by the payments pipeline, with its origin and reason; a refund that named no order of a
 * payment for several orders (a cart refunded in Stripe's dashboard) shows as its part on each order (refund_parts).
 */
export async function listOrderRefunds(db: Db, orderIds: readonly string[] | SQLWrapper) {
  if (Array.isArray(orderIds) && orderIds.length === 0) return [];
  const [own, parts] = isPreparedSubquery(orderIds)
    ? await Promise.all([
        ownRefundsOfPageRead(db, orderIds).all(orderIds.values),
        refundPartsOfPageRead(db, orderIds).all(orderIds.values),
      ])
    : await Promise.all([ownRefundsOf(db, orderIds), refundPartsOf(db, orderIds)]);
  return [...own, ...parts].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
}

const refundLine = {
  id: refunds.id,
  amountCents: refunds.amountCents,
  currency: refunds.currency,
  status: refunds.status,
  origin: refunds.origin,
  reason: refunds.reason,
  createdAt: refunds.createdAt,
};

/** The refunds a page shows: those that went through or are on their way, and those that did not go through. */
const shownRefund = () => inArray(refunds.status, [...COUNTED_REFUND_STATUSES, ...FINAL_REFUND_STATUSES]);

/** The refunds that name one of these orders. */
function ownRefundsOf(db: Db, orderIds: readonly string[] | SQLWrapper) {
  return db
    .select({ ...refundLine, orderId: refunds.orderId })
    .from(refunds)
    .where(and(inOrders(refunds.orderId, orderIds), shownRefund()));
}

/** The parts of a cart's refunds that fell on these orders. */
function refundPartsOf(db: Db, orderIds: readonly string[] | SQLWrapper) {
  return db
    .select({ ...refundLine, orderId: refundParts.orderId, amountCents: refundParts.amountCents })
    .from(refundParts)
    .innerJoin(refunds, eq(refunds.id, refundParts.sourceId))
    .where(
      and(
        eq(refundParts.kind, "refund"),
        inOrders(refundParts.orderId, orderIds),
        gt(refundParts.amountCents, 0),
        shownRefund(),
      ),
    );
}

/** `ownRefundsOf` and `refundPartsOf` a page's orders, prepared once per shape of the page's subquery. */
const ownRefundsOfPageRead = preparedRead(
  (db, page: PreparedSubquery) => ownRefundsOf(db, page.template(db)).prepare(),
  (page) => page.key,
);
const refundPartsOfPageRead = preparedRead(
  (db, page: PreparedSubquery) => refundPartsOf(db, page.template(db)).prepare(),
  (page) => page.key,
);
