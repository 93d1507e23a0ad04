import { and, count, desc, eq, inArray } from "drizzle-orm";
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

/** The buyer's own orders, newest first, with the host's name and the voucher code of a voucher order. */
export function listBuyerOrders(db: Db, userId: string, limit = 20) {
  return db
    .select({
      ...orderSummary,
      hostName: userProfiles.creatorName,
      voucherCode: vouchers.code,
      voucherStatus: vouchers.status,
    })
    .from(orders)
    .leftJoin(userProfiles, eq(userProfiles.userId, orders.hostId))
    .leftJoin(vouchers, eq(vouchers.orderId, orders.id))
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
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
