import type { BatchItem } from "drizzle-orm/batch";
import {
  and,
  type AnyColumn,
  count,
  desc,
  eq,
  exists,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  notInArray,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import { preparedRead, type PreparedSubquery } from "~/db/prepared.server";
import {
  viewerIdSql,
  viewerParam,
  viewerValues,
  type SessionViewer,
  type ViewerShape,
} from "~/db/queries/sessions.server";
import type { Db } from "~/db/client.server";
import { containsText } from "~/db/text-match.server";
import { reserveContributionStatement, type ContributionKeyValues } from "~/db/queries/contribution-keys.server";
import {
  checkoutSessions,
  orders,
  productColors,
  products,
  productSizes,
  shippingUpdates,
  userProfiles,
  vouchers,
  type NewOrder,
} from "~/db/schema";
import { claimCheckoutStatement } from "~/db/queries/checkout.server";
import type { RevenueRules } from "~/domain/revenue";
import { LOCKED_ORDER_STATUSES } from "~/domain/order-updates";
import { OPEN_ORDER_STATUSES, type OrderStatus } from "~/domain/orders";

const orderSummary = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  userId: orders.userId,
  hostId: orders.hostId,
  productId: orders.productId,
  productName: orders.productName,
  productImage: orders.productImage,
  productCategory: orders.productCategory,
  status: orders.status,
  purchaseMode: orders.purchaseMode,
  amountCents: orders.amountCents,
  currency: orders.currency,
  quantity: orders.quantity,
  sizeName: orders.sizeName,
  colorName: orders.colorName,
  trackingNumber: orders.trackingNumber,
  createdAt: orders.createdAt,
};

/**
 * Whose orders a buyer's page lists: an account (its id), or the request's session resolved to the account in the
 * same query, so the page's reads go to D1 with the session's own lookup (ViewerKey, sessions.server).
 */
export type BuyerKey = { userId: string } | SessionViewer;

export type BuyerOrderFilter = {
  buyer: BuyerKey;
  /** Matches the product name or the host's name. */
  q?: string;
  type?: "voucher" | "physical" | "digital";
  page?: number;
  pageSize?: number;
};

const buyerShape = (buyer: BuyerKey): ViewerShape => ("sessionId" in buyer ? "session" : "id");

/** The values of a buyer's placeholders: "userId", or the session's "viewer" and "viewerAt". */
function buyerValues(buyer: BuyerKey) {
  return "sessionId" in buyer ? viewerValues(buyer) : { userId: buyer.userId };
}

/**
 * A buyer's orders: those whose user id is the buyer's account (placed while signed in, or a guest order claimed
 * through a link mailed to its address). Never an e-mail match: an address can change hands (decision 410). With the
 * buyer given, its values are in place; without, the placeholders of a prepared read of that shape.
 */
function buyerScope(shape: ViewerShape, buyer?: BuyerKey) {
  if (shape === "session") {
    return eq(orders.userId, buyer ? viewerIdSql(buyer as SessionViewer) : viewerParam("session", orders.userId));
  }
  return eq(orders.userId, buyer ? (buyer as { userId: string }).userId : sql.placeholder("userId"));
}

/**
 * Guest orders (no account) an account may claim: paid with its address while that address was already the
 * account's, and the account confirmed. Claiming also needs the one-time link mailed to the address (decision 410).
 */
function claimableBy(userId: string) {
  return sql`"orders"."user_id" is null and "orders"."customer_email" = (select u.email from users u where u.id = ${userId}
      and u.email_confirmed_at is not null and u.deleted_at is null)
    and "orders"."created_at" >= (select coalesce(u.email_since, u.created_at) from users u where u.id = ${userId})`;
}

/** How many guest orders the account may claim. */
export async function countClaimableGuestOrders(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(orders).where(claimableBy(userId));
  return row?.n ?? 0;
}

/** Makes the claimable guest orders the account's (after its mailed link was used); how many moved. */
export async function claimGuestOrders(db: Db, userId: string, now = new Date()): Promise<number> {
  const rows = await db
    .update(orders)
    .set({ userId, updatedAt: now })
    .where(claimableBy(userId))
    .returning({ id: orders.id });
  return rows.length;
}

/** Which buyer and filters a page of the buyer's orders has: each combination is its own prepared SQL. */
type BuyerPageShape = { buyer: ViewerShape; type: boolean; q: boolean };

/** The values of a page's placeholders (those of absent filters are left out). */
type BuyerPageValues = ReturnType<typeof buyerValues> & { type?: string; text?: string; limit: number; offset: number };

/** Which of the buyer's orders a page lists: its shape, its values and the page. */
function buyerOrderPage(f: BuyerOrderFilter) {
  const pageSize = f.pageSize ?? 20;
  const page = Math.max(1, f.page ?? 1);
  const shape: BuyerPageShape = { buyer: buyerShape(f.buyer), type: !!f.type, q: !!f.q };
  const values: BuyerPageValues = {
    ...buyerValues(f.buyer),
    type: f.type,
    text: f.q || undefined,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  };
  return { shape, key: `${shape.buyer}:${Number(shape.type)}${Number(shape.q)}`, values, pageSize, page };
}

/** The buyer's scope and a page's filters, with placeholders, or with the values in place (`f` given). */
function buyerOrderWhere(shape: BuyerPageShape, f?: BuyerOrderFilter) {
  const conditions = [buyerScope(shape.buyer, f?.buyer)];
  if (shape.type) conditions.push(eq(orders.productCategory, f ? f.type! : sql.placeholder("type")));
  if (shape.q) {
    const typed = f ? f.q! : sql.placeholder("text");
    conditions.push(or(containsText(orders.productName, typed), containsText(userProfiles.creatorName, typed))!);
  }
  return and(...conditions);
}

/** One page of the buyer's orders, newest first, with host name, voucher code and entry number. */
export async function listBuyerOrders(db: Db, f: BuyerOrderFilter) {
  const { shape, key, values, pageSize, page } = buyerOrderPage(f);
  const rows = await buyerOrdersRead(db, { shape, key }).all({ ...values, limit: pageSize + 1 });
  return { orders: rows.slice(0, pageSize), hasNext: rows.length > pageSize, page };
}

const buyerOrdersRead = preparedRead(
  (db, { shape }: { shape: BuyerPageShape; key: string }) =>
    db
      .select({
        ...orderSummary,
        entryNumber: orders.entryNumber,
        poolId: orders.poolId,
        ...entryState,
        hostName: userProfiles.creatorName,
        voucherCode: vouchers.code,
        voucherStatus: vouchers.status,
        voucherExpiresAt: vouchers.expiresAt,
        refundedCents: orders.refundedCents,
        refundReason: orders.refundReason,
      })
      .from(orders)
      .leftJoin(userProfiles, eq(userProfiles.userId, orders.hostId))
      .leftJoin(vouchers, eq(vouchers.orderId, orders.id))
      .where(buyerOrderWhere(shape))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare(),
  ({ key }) => key,
);

/** The ids of the orders on a page of the buyer's orders, with placeholders or with the values in place. */
function buyerOrderIdsQuery(db: Db, shape: BuyerPageShape, page?: { f: BuyerOrderFilter; values: BuyerPageValues }) {
  return db
    .select({ id: orders.id })
    .from(orders)
    .leftJoin(userProfiles, eq(userProfiles.userId, orders.hostId))
    .where(buyerOrderWhere(shape, page?.f))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(page?.values.limit ?? sql.placeholder("limit"))
    .offset(page?.values.offset ?? sql.placeholder("offset"));
}

/**
 * The ids of the orders `listBuyerOrders` lists for the same filter, as a subquery: what is read per listed order
 * (refunds, returns) goes in the same batch as the list, each read prepared once per combination of filters.
 */
export function buyerOrderPageIds(db: Db, f: BuyerOrderFilter): PreparedSubquery {
  const { shape, key, values } = buyerOrderPage(f);
  return {
    key: `buyerOrderPage:${key}`,
    values,
    template: (templateDb) => buyerOrderIdsQuery(templateDb, shape),
    getSQL: () => buyerOrderIdsQuery(db, shape, { f, values }).getSQL(),
  };
}

/** The buyer's stat cards, counted in SQL over all their orders. */
export async function buyerOrderStats(db: Db, buyer: BuyerKey) {
  const row = await buyerOrderStatsRead(db, buyerShape(buyer)).get(buyerValues(buyer));
  return row ?? { total: 0, spentCents: 0, inTransit: 0, vouchers: 0, entries: 0 };
}

const buyerOrderStatsRead = preparedRead(
  (db, shape: ViewerShape) =>
    db
      .select({
        total: count(),
        spentCents: sql<number>`coalesce(sum(case when ${orders.status} not in ('pending', 'cancelled', 'refunded') then ${orders.amountCents} - ${orders.refundedCents} else 0 end), 0)`,
        inTransit: sql<number>`coalesce(sum(case when ${orders.status} in ('processing', 'pending_shipping', 'shipped') and ${orders.productCategory} = 'physical' then 1 else 0 end), 0)`,
        vouchers: sql<number>`coalesce(sum(case when ${orders.productCategory} = 'voucher' then 1 else 0 end), 0)`,
        // Entries that stand: one a refund or dispute voided is not counted (its card says it is void). The order's
        // columns are named with their table: drizzle writes a one-table select's columns bare, which inside the
        // subquery would name prize_entries' own.
        entries: sql<number>`coalesce(sum(case when ${orders.entryNumber} is not null and not exists (select 1 from prize_entries e where e.pool_id = "orders"."pool_id" and e.entry_number = "orders"."entry_number" and e.voided_at is not null) then 1 else 0 end), 0)`,
      })
      .from(orders)
      .where(buyerScope(shape))
      .prepare(),
  (shape) => shape,
);

export async function countOpenHostOrders(db: Db, hostId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.hostId, hostId), inArray(orders.status, [...OPEN_ORDER_STATUSES])));
  return row?.n ?? 0;
}

/**
 * Whether the order's prize pool entry is void (a refund or dispute took it out) and whether its pool is still open:
 * a void entry of a closed pool was not in its draw (entryStanding in the domain). Null without an entry.
 */
const entryState = {
  entryVoided: sql<
    number | null
  >`(select case when e.voided_at is null then 0 else 1 end from prize_entries e where e.pool_id = ${orders.poolId} and e.entry_number = ${orders.entryNumber})`,
  poolOpen: sql<
    number | null
  >`(select case when p.status = 'open' then 1 else 0 end from prize_pools p where p.id = ${orders.poolId})`,
};

const orderDetail = {
  ...orderSummary,
  ...entryState,
  hostName: userProfiles.creatorName,
  customerName: orders.customerName,
  customerEmail: orders.customerEmail,
  shippingAddress: orders.shippingAddress,
  carrier: orders.carrier,
  estimatedDeliveryAt: orders.estimatedDeliveryAt,
  entryNumber: orders.entryNumber,
  refundedCents: orders.refundedCents,
  refundReason: orders.refundReason,
  deliveredAt: orders.deliveredAt,
  shippedAt: orders.shippedAt,
  updatedAt: orders.updatedAt,
  /** A voucher order whose voucher has been used at the host's scanner (1), else 0. */
  voucherRedeemed: sql<number>`exists (select 1 from vouchers v where v.order_id = ${orders.id} and v.status = 'redeemed')`,
};

export async function getOrderByNumber(db: Db, orderNumber: string) {
  const [row] = await db
    .select(orderDetail)
    .from(orders)
    .leftJoin(userProfiles, eq(userProfiles.userId, orders.hostId))
    .where(eq(orders.orderNumber, orderNumber.toUpperCase()))
    .limit(1);
  return row;
}

export async function getOrderById(db: Db, id: string) {
  const [row] = await db
    .select(orderDetail)
    .from(orders)
    .leftJoin(userProfiles, eq(userProfiles.userId, orders.hostId))
    .where(eq(orders.id, id))
    .limit(1);
  return row;
}

/**
 * What the public tracking page may show for a tracking number: no names, e-mails or street addresses (only the
 * destination city and country). The lookup is an exact match on the indexed tracking_number column.
 */
export async function getTrackedOrder(db: Db, trackingNumber: string) {
  const [row] = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      productName: orders.productName,
      productImage: orders.productImage,
      status: orders.status,
      carrier: orders.carrier,
      trackingNumber: orders.trackingNumber,
      estimatedDeliveryAt: orders.estimatedDeliveryAt,
      createdAt: orders.createdAt,
      shipCity: sql<string | null>`json_extract(${orders.shippingAddress}, '$.city')`,
      shipCountry: sql<string | null>`json_extract(${orders.shippingAddress}, '$.country')`,
    })
    .from(orders)
    .where(eq(orders.trackingNumber, trackingNumber))
    .orderBy(desc(orders.updatedAt))
    .limit(1);
  return row;
}

/** An order's shipping history, newest first. */
export function listShippingUpdates(db: Db, orderId: string, limit = 50) {
  return (
    db
      .select({
        id: shippingUpdates.id,
        status: shippingUpdates.status,
        description: shippingUpdates.description,
        location: shippingUpdates.location,
        createdAt: shippingUpdates.createdAt,
      })
      .from(shippingUpdates)
      .where(eq(shippingUpdates.orderId, orderId))
      // rowid breaks ties between updates written in the same millisecond (insertion order).
      .orderBy(desc(shippingUpdates.createdAt), desc(sql`${shippingUpdates}.rowid`))
      .limit(limit)
  );
}

// --- the host's order and voucher lists (/orders, /voucher-management and their CSV export) ----------------------

/** Export files stop at this many rows. */
export const EXPORT_ROW_CAP = 10_000;

export type HostOrderFilter = {
  hostId: string;
  /** Matches the order number, the buyer's name or e-mail, or the product name. */
  q?: string;
  status?: OrderStatus;
};

/** Any of the columns contains q (ASCII case ignored). */
function matchesAny(q: string, columns: (AnyColumn | SQL)[]): SQL {
  return or(...columns.map((c) => containsText(c, q)))!;
}

/** The order's buyer column, qualified (inside a subquery an unqualified "user_id" would be the subquery's own). */
const orderUserId = sql.raw(`"orders"."user_id"`);
/** The buyer account's e-mail (null for a guest checkout or a deleted account). */
const buyerAccountEmail = sql<
  string | null
>`(select u.email from users u where u.id = ${orderUserId} and u.deleted_at is null)`;

/**
 * The buyer as the host's lists and export show them: the name the checkout collected (with a shipping address),
 * else the buyer account's name, else the e-mail (a voucher or digital checkout asks for no address); and the
 * e-mail the checkout was paid with, else the account's.
 */
const customerEmailShown = sql<string | null>`coalesce(${orders.customerEmail}, ${buyerAccountEmail})`;
const customerNameShown = sql<
  string | null
>`coalesce(${orders.customerName}, (select p.creator_name from user_profiles p where p.user_id = ${orderUserId}), ${customerEmailShown})`;

function hostOrderWhere(f: HostOrderFilter) {
  const conditions: SQL[] = [eq(orders.hostId, f.hostId)];
  if (f.status) conditions.push(eq(orders.status, f.status));
  if (f.q)
    conditions.push(matchesAny(f.q, [orders.orderNumber, customerNameShown, customerEmailShown, orders.productName]));
  return and(...conditions);
}

/** The host's orders matching the filter, newest first: one page (limit/offset) or the export (no offset). */
export function searchHostOrders(
  db: Db,
  f: HostOrderFilter,
  { limit, offset = 0 }: { limit: number; offset?: number },
) {
  return db
    .select({
      ...orderSummary,
      customerName: customerNameShown,
      customerEmail: customerEmailShown,
      carrier: orders.carrier,
      refundedCents: orders.refundedCents,
      shippedAt: orders.shippedAt,
      updatedAt: orders.updatedAt,
    })
    .from(orders)
    .where(hostOrderWhere(f))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit)
    .offset(offset);
}

export async function countHostOrdersMatching(db: Db, f: HostOrderFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(orders).where(hostOrderWhere(f));
  return row?.n ?? 0;
}

export type HostVoucherFilter = {
  hostId: string;
  /** Matches the voucher code, the order number, the buyer's name or e-mail, or the product name. */
  q?: string;
  /** Active means not yet expired; expired includes active vouchers past their expiry. */
  status?: "active" | "redeemed" | "expired";
  now: Date;
};

/** A voucher's status as shown: an active voucher past its expiry is expired. */
function voucherShownStatus(now: Date) {
  return sql<
    "active" | "redeemed" | "expired"
  >`case when ${vouchers.status} = 'active' and ${vouchers.expiresAt} < ${now.getTime()} then 'expired' else ${vouchers.status} end`;
}

function hostVoucherWhere(f: HostVoucherFilter) {
  const conditions: SQL[] = [eq(vouchers.hostId, f.hostId)];
  if (f.status) conditions.push(sql`${voucherShownStatus(f.now)} = ${f.status}`);
  if (f.q) {
    conditions.push(
      matchesAny(f.q, [vouchers.code, orders.orderNumber, customerNameShown, customerEmailShown, orders.productName]),
    );
  }
  return and(...conditions);
}

export function searchHostVouchers(
  db: Db,
  f: HostVoucherFilter,
  { limit, offset = 0 }: { limit: number; offset?: number },
) {
  return db
    .select({
      id: vouchers.id,
      code: vouchers.code,
      valueCents: vouchers.valueCents,
      currency: vouchers.currency,
      status: voucherShownStatus(f.now),
      expiresAt: vouchers.expiresAt,
      redeemedAt: vouchers.redeemedAt,
      createdAt: vouchers.createdAt,
      orderNumber: orders.orderNumber,
      productName: orders.productName,
      customerName: customerNameShown,
      customerEmail: customerEmailShown,
    })
    .from(vouchers)
    .innerJoin(orders, eq(orders.id, vouchers.orderId))
    .where(hostVoucherWhere(f))
    .orderBy(desc(vouchers.createdAt), desc(vouchers.id))
    .limit(limit)
    .offset(offset);
}

export async function countHostVouchersMatching(db: Db, f: HostVoucherFilter): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(vouchers)
    .innerJoin(orders, eq(orders.id, vouchers.orderId))
    .where(hostVoucherWhere(f));
  return row?.n ?? 0;
}

/** The host's own order (by id) with what a status change needs, or undefined (missing or another host's). */
export async function getHostOrder(db: Db, hostId: string, orderId: string) {
  const [row] = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      status: orders.status,
      productCategory: orders.productCategory,
      trackingNumber: orders.trackingNumber,
      carrier: orders.carrier,
      checkoutSessionId: orders.checkoutSessionId,
      amountCents: orders.amountCents,
      refundedCents: orders.refundedCents,
      currency: orders.currency,
      userId: orders.userId,
      productName: orders.productName,
      shippedAt: orders.shippedAt,
      deliveredAt: orders.deliveredAt,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.hostId, hostId)))
    .limit(1);
  return row;
}

/**
 * Sets an order's status (and tracking number and carrier when given) and records the change in its shipping
 * history, in one batch (one transaction in D1). The first Shipped stamps shipped_at; only Delivered stamps
 * delivered_at, and only on an order already shipped (docs/product.md#shipping-and-delivery): "completed" alone
 * stamps nothing. Returns false when nothing changed (locked since the page's check, or Delivered before Shipped).
 */
export async function updateHostOrderStatus(
  db: Db,
  u: {
    hostId: string;
    orderId: string;
    status: OrderStatus;
    trackingNumber: string | null;
    carrier: string | null;
    description: string;
  },
): Promise<boolean> {
  const now = new Date();
  // Guarded on the order still being open to its host: a refund (or cancellation) landing after the page's check
  // keeps its status, and the history line is written only when the status was (changes() of the update).
  const [, history] = await db.batch([
    db
      .update(orders)
      .set({
        status: u.status,
        ...(u.trackingNumber ? { trackingNumber: u.trackingNumber } : {}),
        ...(u.carrier ? { carrier: u.carrier } : {}),
        ...(u.status === "shipped" ? { shippedAt: sql`coalesce(${orders.shippedAt}, ${now.getTime()})` } : {}),
        // The return window starts when the buyer has it: the first Delivered.
        ...(u.status === "delivered" ? { deliveredAt: sql`coalesce(${orders.deliveredAt}, ${now.getTime()})` } : {}),
        updatedAt: now,
      })
      .where(
        and(
          eq(orders.id, u.orderId),
          eq(orders.hostId, u.hostId),
          notInArray(orders.status, [...LOCKED_ORDER_STATUSES]),
          u.status === "delivered" ? isNotNull(orders.shippedAt) : undefined,
        ),
      ),
    // All of the table's columns, in its order (id, order_id, status, description, location, created_at).
    db
      .insert(shippingUpdates)
      .select(
        sql`select ${crypto.randomUUID()}, ${u.orderId}, ${u.status}, ${u.description}, null, ${now.getTime()} where changes() = 1`,
      )
      .returning({ id: shippingUpdates.id }),
  ]);
  return history.length === 1;
}

/**
 * A host's tracking update (description, optional location, the time it happened) added to the shipping history of
 * their own physical order that is still open to them, in one conditional statement: another host's order, a
 * locked one, or one that is not physical adds nothing. Returns the update's id, or null.
 */
export async function insertTrackingUpdate(
  db: Db,
  u: { hostId: string; orderId: string; description: string; location: string | null; at: Date },
): Promise<string | null> {
  const id = crypto.randomUUID();
  // All of the table's columns, in its order (id, order_id, status, description, location, created_at).
  const rows = await db
    .insert(shippingUpdates)
    .select(
      sql`select ${id}, ${u.orderId}, null, ${u.description}, ${u.location}, ${u.at.getTime()} where exists (
        select 1 from ${orders} where ${orders.id} = ${u.orderId} and ${orders.hostId} = ${u.hostId}
          and ${orders.productCategory} = 'physical'
          and ${notInArray(orders.status, [...LOCKED_ORDER_STATUSES])})`,
    )
    .returning({ id: shippingUpdates.id });
  return rows[0]?.id ?? null;
}

/** What a download needs: the order's buyer and status and the product's private file. */
export async function getOrderDownload(db: Db, orderId: string) {
  const [row] = await db
    .select({
      userId: orders.userId,
      status: orders.status,
      refundState: orders.refundState,
      productName: orders.productName,
      fileKey: products.digitalFileKey,
    })
    .from(orders)
    .innerJoin(products, eq(products.id, orders.productId))
    .where(eq(orders.id, orderId))
    .limit(1);
  return row;
}

// --- fulfilment ------------------------------------------------------------------------------------------------

/**
 * Fulfils a paid product checkout in ONE D1 batch: claims the checkout (unpaid -> paid, recording the rates in
 * force), inserts the order (unique per checkout session, so a repeat inserts nothing), and only when the order is
 * new either takes the stock (never below zero) and counts the sale, or, when the stock ran out (or the variant
 * vanished) since the checkout, cancels the order with the reason the buyer reads (it is then refunded). Returns
 * whether this call claimed the checkout, inserted the order, and took the stock.
 */
export async function insertPaidOrder(
  db: Db,
  input: {
    checkoutId: string;
    paymentIntentId: string | null;
    rates: RevenueRules | null;
    order: NewOrder & { id: string; checkoutSessionId: string; hostId: string; quantity: number; amountCents: number };
    sizeId: string | null;
    colourId: string | null;
    /** The reason the buyer reads when the stock ran out (or the variant vanished) before the payment. */
    shortfallReason: string;
    /** The payment's pool contribution, reserved in this batch when the order goes ahead. */
    contribution: ContributionKeyValues;
    now: Date;
  },
) {
  const { order, now } = input;
  const isNewOrder = exists(
    db
      .select({ one: sql`1` })
      .from(orders)
      .where(eq(orders.id, order.id)),
  );
  const sizeShort = sql`not exists (select 1 from ${productSizes} where ${productSizes.id} = ${input.sizeId ?? ""} and ${productSizes.availableUnits} >= ${order.quantity})`;
  const colourShort =
    input.colourId === null
      ? sql`0`
      : sql`not exists (select 1 from ${productColors} where ${productColors.id} = ${input.colourId} and ${productColors.availableUnits} >= ${order.quantity})`;
  // The order this batch inserted goes ahead unless it was cancelled for want of stock just before.
  const goesAhead = and(isNewOrder, sql`(select o.status from orders o where o.id = ${order.id}) <> 'cancelled'`);
  const [claimed, inserted, cancelled] = await db.batch([
    claimCheckoutStatement(db, input.checkoutId, { paymentIntentId: input.paymentIntentId, now, rates: input.rates }),
    db
      .insert(orders)
      .values(order)
      .onConflictDoNothing({ target: [orders.checkoutSessionId, orders.line] })
      .returning({ id: orders.id }),
    db
      .update(orders)
      .set({ status: "cancelled", refundReason: input.shortfallReason, updatedAt: now })
      .where(and(eq(orders.id, order.id), isNewOrder, sql`(${sizeShort} or ${colourShort})`))
      .returning({ id: orders.id }),
    db
      .update(productSizes)
      .set({ availableUnits: sql`${productSizes.availableUnits} - ${order.quantity}` })
      .where(and(eq(productSizes.id, input.sizeId ?? ""), goesAhead)),
    db
      .update(productColors)
      .set({ availableUnits: sql`${productColors.availableUnits} - ${order.quantity}` })
      .where(and(eq(productColors.id, input.colourId ?? ""), goesAhead)),
    db
      .update(products)
      .set({
        salesCount: sql`${products.salesCount} + ${order.quantity}`,
        revenueCents: sql`${products.revenueCents} + ${order.amountCents}`,
      })
      .where(and(eq(products.id, order.productId), goesAhead)),
    db
      .update(userProfiles)
      .set({
        totalSales: sql`${userProfiles.totalSales} + ${order.quantity}`,
        totalRevenueCents: sql`${userProfiles.totalRevenueCents} + ${order.amountCents}`,
      })
      .where(and(eq(userProfiles.userId, order.hostId), goesAhead)),
    reserveContributionStatement(db, input.contribution, goesAhead ?? sql`0`),
  ]);
  return {
    claimed: claimed.length === 1,
    inserted: inserted.length === 1,
    stockTaken: cancelled.length === 0,
  };
}

/** One order of a paid cart checkout, with the size and colour rows whose stock it takes. */
export interface CartOrderLine {
  order: NewOrder & {
    id: string;
    checkoutSessionId: string;
    hostId: string;
    productId: string;
    quantity: number;
    amountCents: number;
  };
  sizeId: string | null;
  colourId: string | null;
}

/**
 * The statements that insert a multi-item checkout's orders, one statement per order (an order binds some thirty
 * parameters, so several in one statement would pass D1's 100 from the fourth line on), each unique per checkout
 * session and line, so a repeat inserts nothing. They follow the claim at the head of the batch (results 1..n).
 */
export function insertLineOrderStatements(db: Db, lines: readonly { order: NewOrder }[]): BatchItem<"sqlite">[] {
  return lines.map((l) =>
    db
      .insert(orders)
      .values(l.order)
      .onConflictDoNothing({ target: [orders.checkoutSessionId, orders.line] })
      .returning({ id: orders.id }),
  );
}

/** Whether the batch's order inserts (results 1..count) inserted any order. */
export function insertedAnyOrder(results: readonly unknown[][], count: number): boolean {
  return results.slice(1, 1 + count).some((r) => (r?.length ?? 0) > 0);
}

/**
 * Fulfils a paid cart checkout in ONE D1 batch: claims the checkout (`claim`, unpaid -> paid), inserts one order per
 * line (unique per checkout session and line, so a repeat inserts nothing) and, only when this call inserted them,
 * takes each line's stock and counts each sale on the product and the host. Reports which lines got their stock.
 * Every statement binds a fixed number of parameters, whatever the number of lines (decision 370).
 */
export async function insertPaidCartOrders(
  db: Db,
  input: { claim: BatchItem<"sqlite">; lines: readonly CartOrderLine[] },
) {
  const first = input.lines[0];
  if (!first) throw new RangeError("a cart checkout has at least one line");
  const isNew = sql`exists (select 1 from ${orders} where ${orders.id} = ${first.order.id})`;
  const statements: BatchItem<"sqlite">[] = [input.claim, ...insertLineOrderStatements(db, input.lines)];
  const stockAt: StockAt[] = [];
  for (const line of input.lines) {
    const q = line.order.quantity;
    stockAt.push(pushLineStock(db, statements, line, isNew));
    statements.push(
      db
        .update(userProfiles)
        .set({
          totalSales: sql`${userProfiles.totalSales} + ${q}`,
          totalRevenueCents: sql`${userProfiles.totalRevenueCents} + ${line.order.amountCents}`,
        })
        .where(and(eq(userProfiles.userId, line.order.hostId), isNew)),
    );
  }
  const results = (await db.batch(
    statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]],
  )) as unknown as unknown[][];
  return {
    claimed: results[0]?.length === 1,
    inserted: insertedAnyOrder(results, input.lines.length),
    stockTaken: stockTakenFrom(results, input.lines, stockAt),
  };
}

/** Where one line's stock statements stand in a batch (null: none). */
export type StockAt = { size: number | null; colour: number | null };

/**
 * Appends one order line's part of a multi-item fulfilment batch (a cart's or a group buy's), all only when `isNew`:
 * its size's and colour's stock taken (never below zero) and its product's sale counted. Returns where the stock
 * statements stand, for `stockTakenFrom`.
 */
export function pushLineStock(
  db: Db,
  statements: BatchItem<"sqlite">[],
  line: {
    sizeId: string | null;
    colourId: string | null;
    order: { productId: string; quantity: number; amountCents: number };
  },
  isNew: SQL,
): StockAt {
  const q = line.order.quantity;
  const at: StockAt = { size: null, colour: null };
  if (line.sizeId) {
    at.size = statements.length;
    statements.push(
      db
        .update(productSizes)
        .set({ availableUnits: sql`${productSizes.availableUnits} - ${q}` })
        .where(and(eq(productSizes.id, line.sizeId), gte(productSizes.availableUnits, q), isNew))
        .returning({ id: productSizes.id }),
    );
  }
  if (line.colourId) {
    at.colour = statements.length;
    statements.push(
      db
        .update(productColors)
        .set({ availableUnits: sql`${productColors.availableUnits} - ${q}` })
        .where(and(eq(productColors.id, line.colourId), gte(productColors.availableUnits, q), isNew))
        .returning({ id: productColors.id }),
    );
  }
  statements.push(
    db
      .update(products)
      .set({
        salesCount: sql`${products.salesCount} + ${q}`,
        revenueCents: sql`${products.revenueCents} + ${line.order.amountCents}`,
      })
      .where(and(eq(products.id, line.order.productId), isNew)),
  );
  return at;
}

/** Per order of a multi-item batch: whether its stock was taken (false: it sold out first, or its variant is gone). */
export function stockTakenFrom(
  results: unknown[][],
  lines: readonly { order: { id: string } }[],
  stockAt: readonly StockAt[],
) {
  const taken = (index: number | null) => index === null || (results[index]?.length ?? 0) === 1;
  return stockAt.map((at, i) => ({
    orderId: lines[i]!.order.id,
    taken: at.size !== null && taken(at.size) && taken(at.colour),
  }));
}

/**
 * An order that was paid but cannot be delivered (the item is gone or its stock ran out): it is cancelled with the
 * reason the buyer reads, and its sale is taken back from the counters. Only the first call changes anything.
 */
export async function cancelUndeliverableOrder(db: Db, orderId: string, reason: string): Promise<boolean> {
  const [order] = await db
    .select({
      id: orders.id,
      productId: orders.productId,
      hostId: orders.hostId,
      quantity: orders.quantity,
      amountCents: orders.amountCents,
    })
    .from(orders)
    .where(and(eq(orders.id, orderId), isNull(orders.refundReason)))
    .limit(1);
  if (!order) return false;
  const cancelled = await db
    .update(orders)
    .set({ status: "cancelled", refundReason: reason, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), isNull(orders.refundReason)))
    .returning({ id: orders.id });
  if (cancelled.length === 0) return false;
  await db.batch([
    db
      .update(products)
      .set({
        salesCount: sql`max(0, ${products.salesCount} - ${order.quantity})`,
        revenueCents: sql`max(0, ${products.revenueCents} - ${order.amountCents})`,
      })
      .where(eq(products.id, order.productId)),
    db
      .update(userProfiles)
      .set({
        totalSales: sql`max(0, ${userProfiles.totalSales} - ${order.quantity})`,
        totalRevenueCents: sql`max(0, ${userProfiles.totalRevenueCents} - ${order.amountCents})`,
      })
      .where(eq(userProfiles.userId, order.hostId)),
  ]);
  return true;
}

/** The order a checkout session created, with what fulfilment and refunds need. */
export async function getOrderForCheckout(db: Db, sessionIds: readonly string[]) {
  const [row] = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      userId: orders.userId,
      hostId: orders.hostId,
      status: orders.status,
      poolId: orders.poolId,
      entryNumber: orders.entryNumber,
      amountCents: orders.amountCents,
      currency: orders.currency,
      refundReason: orders.refundReason,
      productName: orders.productName,
      customerEmail: orders.customerEmail,
    })
    .from(orders)
    .where(inArray(orders.checkoutSessionId, [...sessionIds]))
    .limit(1);
  return row;
}

/** Stores the pool and entry an order's contribution got (once). */
export async function setOrderPoolEntry(
  db: Db,
  orderId: string,
  entry: { poolId: string; entryNumber: number | null },
) {
  await db
    .update(orders)
    .set({ poolId: entry.poolId, entryNumber: entry.entryNumber })
    .where(and(eq(orders.id, orderId), isNull(orders.poolId)));
}

/** Whether another checkout's order already has this order number. */
export async function isOrderNumberTaken(db: Db, orderNumber: string, sessionId: string): Promise<boolean> {
  const [taken] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.orderNumber, orderNumber), ne(orders.checkoutSessionId, sessionId)))
    .limit(1);
  return taken !== undefined;
}

/**
 * Paid cart checkouts with an order that has no pool contribution yet, created before `before`: the fulfilment was
 * cut off between its D1 batch and the pool (the cron resumes them). Uses the partial index of orders without pool.
 */
export async function listCartCheckoutsMissingContribution(db: Db, before: Date, limit: number) {
  return db
    .selectDistinct({ id: checkoutSessions.id })
    .from(orders)
    .innerJoin(checkoutSessions, eq(checkoutSessions.id, orders.checkoutSessionId))
    .where(
      and(
        isNull(orders.poolId),
        sql`${orders.status} <> 'cancelled'`,
        lt(orders.createdAt, before),
        eq(checkoutSessions.purpose, "cart"),
        eq(checkoutSessions.paymentStatus, "paid"),
      ),
    )
    .limit(limit);
}
