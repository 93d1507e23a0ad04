import { and, type AnyColumn, count, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { orders, shippingUpdates, userProfiles, vouchers, type ORDER_STATUSES } from "~/db/schema";

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

export type BuyerOrderFilter = {
  userId: string;
  email: string;
  /** Matches the product name or the host's name. */
  q?: string;
  type?: "voucher" | "physical" | "digital";
  page?: number;
  pageSize?: number;
};

/** A buyer's orders: placed while signed in, or paid with the buyer's e-mail. */
function buyerScope(f: Pick<BuyerOrderFilter, "userId" | "email">) {
  return or(eq(orders.userId, f.userId), eq(orders.customerEmail, f.email.toLowerCase()));
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One page of the buyer's orders, newest first, with host name, voucher code and entry number. */
export async function listBuyerOrders(db: Db, f: BuyerOrderFilter) {
  const pageSize = f.pageSize ?? 20;
  const page = Math.max(1, f.page ?? 1);
  const conditions = [buyerScope(f)];
  if (f.type) conditions.push(eq(orders.productCategory, f.type));
  if (f.q) {
    const pattern = `%${escapeLike(f.q.toLowerCase())}%`;
    conditions.push(
      or(
        sql`lower(${orders.productName}) LIKE ${pattern} ESCAPE '\\'`,
        sql`lower(${userProfiles.creatorName}) LIKE ${pattern} ESCAPE '\\'`,
      )!,
    );
  }
  const rows = await db
    .select({
      ...orderSummary,
      entryNumber: orders.entryNumber,
      poolId: orders.poolId,
      hostName: userProfiles.creatorName,
      voucherCode: vouchers.code,
      voucherStatus: vouchers.status,
    })
    .from(orders)
    .leftJoin(userProfiles, eq(userProfiles.userId, orders.hostId))
    .leftJoin(vouchers, eq(vouchers.orderId, orders.id))
    .where(and(...conditions))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  return { orders: rows.slice(0, pageSize), hasNext: rows.length > pageSize, page };
}

/** The buyer's stat cards, counted in SQL over all their orders. */
export async function buyerOrderStats(db: Db, f: Pick<BuyerOrderFilter, "userId" | "email">) {
  const [row] = await db
    .select({
      total: count(),
      spentCents: sql<number>`coalesce(sum(case when ${orders.status} not in ('pending', 'cancelled', 'refunded') then ${orders.amountCents} - ${orders.refundedCents} else 0 end), 0)`,
      inTransit: sql<number>`coalesce(sum(case when ${orders.status} in ('processing', 'pending_shipping', 'shipped') and ${orders.productCategory} = 'physical' then 1 else 0 end), 0)`,
      vouchers: sql<number>`coalesce(sum(case when ${orders.productCategory} = 'voucher' then 1 else 0 end), 0)`,
      entries: sql<number>`coalesce(sum(case when ${orders.entryNumber} is not null then 1 else 0 end), 0)`,
    })
    .from(orders)
    .where(buyerScope(f));
  return row ?? { total: 0, spentCents: 0, inTransit: 0, vouchers: 0, entries: 0 };
}

/** Orders for a host's products, newest first. */
export function listHostOrders(db: Db, hostId: string, limit = 20) {
  return db
    .select({ ...orderSummary, customerName: orders.customerName, customerEmail: orders.customerEmail })
    .from(orders)
    .where(eq(orders.hostId, hostId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
}

/** Statuses of an order the host still has to act on. */
export const OPEN_ORDER_STATUSES = ["paid", "processing", "pending_shipping"] as const;

export async function countOpenHostOrders(db: Db, hostId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.hostId, hostId), inArray(orders.status, [...OPEN_ORDER_STATUSES])));
  return row?.n ?? 0;
}

const orderDetail = {
  ...orderSummary,
  hostName: userProfiles.creatorName,
  customerName: orders.customerName,
  customerEmail: orders.customerEmail,
  shippingAddress: orders.shippingAddress,
  carrier: orders.carrier,
  estimatedDeliveryAt: orders.estimatedDeliveryAt,
  entryNumber: orders.entryNumber,
  refundedCents: orders.refundedCents,
  updatedAt: orders.updatedAt,
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
  return db
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
    .limit(limit);
}

/** Store sales: orders with status paid, completed, shipped or delivered. */
export const STORE_SALE_STATUSES = ["paid", "completed", "shipped", "delivered"] as const;

/** A host's latest store sales (the revenue page's transactions). */
export function listHostSales(db: Db, hostId: string, limit = 20) {
  return db
    .select(orderSummary)
    .from(orders)
    .where(and(eq(orders.hostId, hostId), inArray(orders.status, [...STORE_SALE_STATUSES])))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
}

// --- the host's order and voucher lists (/orders, /voucher-management and their CSV export) ----------------------

type StoredOrderStatus = (typeof ORDER_STATUSES)[number];

/** Export files stop at this many rows. */
export const EXPORT_ROW_CAP = 10_000;

export type HostOrderFilter = {
  hostId: string;
  /** Matches the order number, the customer's name or e-mail, or the product name. */
  q?: string;
  status?: StoredOrderStatus;
};

/** A `lower(column) LIKE %q%` match over any of the columns (q is lowercased and its wildcards escaped). */
function matchesAny(q: string, columns: AnyColumn[]): SQL {
  const pattern = `%${escapeLike(q.toLowerCase())}%`;
  return or(...columns.map((c) => sql`lower(${c}) LIKE ${pattern} ESCAPE '\\'`))!;
}

function hostOrderWhere(f: HostOrderFilter) {
  const conditions: SQL[] = [eq(orders.hostId, f.hostId)];
  if (f.status) conditions.push(eq(orders.status, f.status));
  if (f.q) conditions.push(matchesAny(f.q, [orders.orderNumber, orders.customerName, orders.customerEmail, orders.productName]));
  return and(...conditions);
}

/** The host's orders matching the filter, newest first: one page (limit/offset) or the export (no offset). */
export function searchHostOrders(db: Db, f: HostOrderFilter, { limit, offset = 0 }: { limit: number; offset?: number }) {
  return db
    .select({
      ...orderSummary,
      customerName: orders.customerName,
      customerEmail: orders.customerEmail,
      carrier: orders.carrier,
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
  /** Matches the voucher code, the order number, the customer's name or e-mail, or the product name. */
  q?: string;
  /** Active means not yet expired; expired includes active vouchers past their expiry. */
  status?: "active" | "redeemed" | "expired";
  now: Date;
};

/** A voucher's status as shown: an active voucher past its expiry is expired. */
function voucherShownStatus(now: Date) {
  return sql<"active" | "redeemed" | "expired">`case when ${vouchers.status} = 'active' and ${vouchers.expiresAt} < ${now.getTime()} then 'expired' else ${vouchers.status} end`;
}

function hostVoucherWhere(f: HostVoucherFilter) {
  const conditions: SQL[] = [eq(vouchers.hostId, f.hostId)];
  if (f.status) conditions.push(sql`${voucherShownStatus(f.now)} = ${f.status}`);
  if (f.q) {
    conditions.push(
      matchesAny(f.q, [vouchers.code, orders.orderNumber, orders.customerName, orders.customerEmail, orders.productName]),
    );
  }
  return and(...conditions);
}

export function searchHostVouchers(db: Db, f: HostVoucherFilter, { limit, offset = 0 }: { limit: number; offset?: number }) {
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
      customerName: orders.customerName,
      customerEmail: orders.customerEmail,
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
    })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.hostId, hostId)))
    .limit(1);
  return row;
}

/**
 * Sets an order's status (and tracking number and carrier when given) and records the change in its shipping
 * history, in one batch (one transaction in D1).
 */
export async function updateHostOrderStatus(
  db: Db,
  u: {
    hostId: string;
    orderId: string;
    status: StoredOrderStatus;
    trackingNumber: string | null;
    carrier: string | null;
    description: string;
  },
) {
  const now = new Date();
  await db.batch([
    db
      .update(orders)
      .set({
        status: u.status,
        ...(u.trackingNumber ? { trackingNumber: u.trackingNumber } : {}),
        ...(u.carrier ? { carrier: u.carrier } : {}),
        updatedAt: now,
      })
      .where(and(eq(orders.id, u.orderId), eq(orders.hostId, u.hostId))),
    db.insert(shippingUpdates).values({ orderId: u.orderId, status: u.status, description: u.description, createdAt: now }),
  ]);
}
