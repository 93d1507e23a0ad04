import { and, count, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { orders, shippingUpdates, userProfiles, vouchers } from "~/db/schema";

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

/** What the public tracking page may show for a tracking number: no names, e-mails or street addresses. */
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
    })
    .from(orders)
    .where(eq(orders.trackingNumber, trackingNumber))
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
    .orderBy(desc(shippingUpdates.createdAt))
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
