// Orders: the cart, orders, their shipping updates and vouchers.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { REFUND_STATES } from "../../domain/payments";
import { PRODUCT_CATEGORIES } from "../../domain/catalog";
import { DEFAULT_ORDER_STATUS, ORDER_STATUSES, PURCHASE_MODES } from "../../domain/orders";
import { VOUCHER_STATUSES } from "../../domain/vouchers";
import { id, timestamp, createdAt, updatedAt, cents, currency } from "./columns";
import { users } from "./accounts";
import { groupBuys } from "./group-buys";
import { prizePools } from "./pools";
import { products } from "./products";

/** Postal address as stored on an order (shipping and billing). */
export type Address = {
  name: string;
  street: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
};

/**
 * A signed-in fan's cart: one row per product, size and colour (empty text when the product has none), with the
 * quantity wanted. Prices are never stored here: checkout prices every line from the database.
 */
export const cartItems = sqliteTable(
  "cart_items",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    sizeName: text("size_name").notNull().default(""),
    colorName: text("color_name").notNull().default(""),
    quantity: integer("quantity").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId, t.sizeName, t.colorName] })],
);

export const orders = sqliteTable(
  "orders",
  {
    id: id(),
    /** 'ORD-' + last 8 characters (uppercased) of the checkout session id, or of the order id. */
    orderNumber: text("order_number").notNull(),
    /** The buyer (null for a guest checkout or a deleted account). */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    groupBuyId: text("group_buy_id").references(() => groupBuys.id, { onDelete: "restrict" }),
    /** Stripe or local checkout session id. */
    checkoutSessionId: text("checkout_session_id"),
    paymentIntentId: text("payment_intent_id"),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default(DEFAULT_ORDER_STATUS),
    purchaseMode: text("purchase_mode", { enum: PURCHASE_MODES }).notNull().default("buy-now"),
    amountCents: cents("amount_cents").notNull(),
    unitPriceCents: cents("unit_price_cents").notNull(),
    currency: currency(),
    quantity: integer("quantity").notNull().default(1),
    sizeName: text("size_name"),
    colorName: text("color_name"),
    customerEmail: text("customer_email"),
    customerName: text("customer_name"),
    shippingAddress: text("shipping_address", { mode: "json" }).$type<Address>(),
    billingAddress: text("billing_address", { mode: "json" }).$type<Address>(),
    // Snapshot of the product at purchase time.
    productName: text("product_name").notNull(),
    productImage: text("product_image"),
    productCategory: text("product_category", { enum: PRODUCT_CATEGORIES }).notNull().default("physical"),
    trackingNumber: text("tracking_number"),
    carrier: text("carrier"),
    estimatedDeliveryAt: timestamp("estimated_delivery_at"),
    poolId: text("pool_id").references(() => prizePools.id, { onDelete: "restrict" }),
    entryNumber: integer("entry_number"),
    /** Succeeded (or pending) refunds plus lost disputes of this order's payment, in cents. */
    refundedCents: cents("refunded_cents").notNull().default(0),
    /** The line of its checkout (a group-buy or cart checkout pays several orders; 0 for one-order checkouts). */
    line: integer("line").notNull().default(0),
    /** A group-buy order's value in RM (the group buy's currency), converted with the rate table at payment. */
    salesRmCents: cents("sales_rm_cents"),
    /** none, partial or full: kept apart from the fulfilment status. */
    refundState: text("refund_state", { enum: REFUND_STATES }).notNull().default("none"),
    /** Why the order was refunded without being fulfilled (shown to the buyer), or null. */
    refundReason: text("refund_reason"),
    /**
     * When the buyer received it: stamped by the host's Delivered only (payment for items that are never shipped);
     * "completed" alone never stamps it (docs/product.md#shipping-and-delivery). The return window starts here.
     */
    deliveredAt: timestamp("delivered_at"),
    /** When the host first marked it Shipped; unmarked delivery counts from here + 30 days (domain/shipping.ts). */
    shippedAt: timestamp("shipped_at"),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("orders_order_number_unique").on(t.orderNumber),
    uniqueIndex("orders_checkout_session_line_unique").on(t.checkoutSessionId, t.line),
    index("orders_user_created_idx").on(t.userId, t.createdAt),
    index("orders_host_created_idx").on(t.hostId, t.createdAt),
    index("orders_customer_email_idx").on(t.customerEmail),
    index("orders_tracking_number_idx").on(t.trackingNumber),
    index("orders_product_idx").on(t.productId),
    index("orders_group_buy_idx").on(t.groupBuyId),
    /** Orders still waiting for their pool contribution (normally for a moment): the cron's recovery scan. */
    index("orders_without_pool_idx")
      .on(t.createdAt)
      .where(sql`pool_id IS NULL AND status <> 'cancelled'`),
  ],
);

export const shippingUpdates = sqliteTable(
  "shipping_updates",
  {
    id: id(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    status: text("status", { enum: ORDER_STATUSES }),
    description: text("description").notNull(),
    location: text("location"),
    createdAt: createdAt(),
  },
  (t) => [index("shipping_updates_order_created_idx").on(t.orderId, t.createdAt)],
);

export const vouchers = sqliteTable(
  "vouchers",
  {
    id: id(),
    /** 'VCH-' + last 8 characters (uppercased) of the order id. */
    code: text("code").notNull(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    buyerId: text("buyer_id").references(() => users.id, { onDelete: "set null" }),
    valueCents: cents("value_cents").notNull(),
    currency: currency(),
    status: text("status", { enum: VOUCHER_STATUSES }).notNull().default("active"),
    expiresAt: timestamp("expires_at").notNull(),
    redeemedAt: timestamp("redeemed_at"),
    /** The user who redeemed it at the scanner. */
    redeemedBy: text("redeemed_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("vouchers_code_unique").on(t.code),
    uniqueIndex("vouchers_order_id_unique").on(t.orderId),
    index("vouchers_host_created_idx").on(t.hostId, t.createdAt),
    index("vouchers_buyer_idx").on(t.buyerId),
  ],
);

export type Order = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type ShippingUpdate = typeof shippingUpdates.$inferSelect;
export type NewShippingUpdate = typeof shippingUpdates.$inferInsert;
export type Voucher = typeof vouchers.$inferSelect;
export type NewVoucher = typeof vouchers.$inferInsert;
