// Order and voucher numbers, order status rules and the buyer's voucher/order actions.

import { productCategory } from "./catalog";

export const ORDER_NUMBER_PREFIX = "ORD-";
export const VOUCHER_CODE_PREFIX = "VCH-";
/** Order and voucher numbers use the last 8 characters of an id, uppercased. */
export const ID_SUFFIX_LENGTH = 8;

function suffix(id: string): string {
  return id.slice(-ID_SUFFIX_LENGTH).toUpperCase();
}

/**
 * 'ORD-' + the last 8 characters, uppercased, of the payment session id, or of the order id when the session id
 * is absent (null, undefined or empty): `orderNumber("cs_test_a1b2c3d4e5", "x")` -> "ORD-B2C3D4E5".
 */
export function orderNumber(sessionId: string | null | undefined, orderId: string): string {
  return ORDER_NUMBER_PREFIX + suffix(sessionId ? sessionId : orderId);
}

/** 'VCH-' + the last 8 characters of the order id, uppercased. */
export function voucherCode(orderId: string): string {
  return VOUCHER_CODE_PREFIX + suffix(orderId);
}

// --- order statuses -------------------------------------------------------------------------------------------

/** Every status an order is stored with (its fulfilment state; the refund state is kept apart). */
export const ORDER_STATUSES = [
  "pending",
  "paid",
  "processing",
  "pending_shipping",
  "shipped",
  "delivered",
  "completed",
  "cancelled",
  "refunded",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const DEFAULT_ORDER_STATUS: OrderStatus = "processing";

/**
 * Statuses a host may set on an order with a physical item. Delivered only after Shipped, and only Delivered
 * stamps the delivery (docs/product.md#shipping-and-delivery).
 */
export const PHYSICAL_ORDER_STATUSES = ["processing", "pending_shipping", "shipped", "delivered", "completed"] as const;
/** Statuses a host may set on an order with no physical item (digital, voucher). */
export const NON_PHYSICAL_ORDER_STATUSES = ["processing", "completed"] as const;

export type SettableOrderStatus = (typeof PHYSICAL_ORDER_STATUSES)[number];

/** The statuses a host may choose for an order whose product has this category (unknown categories are physical). */
export function allowedOrderStatuses(category: unknown): readonly SettableOrderStatus[] {
  return productCategory(category) === "physical" ? PHYSICAL_ORDER_STATUSES : NON_PHYSICAL_ORDER_STATUSES;
}

export function canSetOrderStatus(category: unknown, next: unknown): next is SettableOrderStatus {
  return typeof next === "string" && (allowedOrderStatuses(category) as readonly string[]).includes(next);
}

/** Moving an order to shipped needs a tracking number. */
export function requiresTracking(next: unknown): boolean {
  return next === "shipped";
}

export const TRACKING_REQUIRED_MESSAGE = "Please enter a tracking number for shipped orders";
export const ORDER_STATUS_NOT_ALLOWED_MESSAGE = "This status cannot be set for this order";

/**
 * Validates a host's status change: the status must be allowed for the category and shipped needs a non-empty
 * (trimmed) tracking number. Returns the trimmed tracking number, or null when none was given.
 */
export function validateOrderStatusUpdate(
  category: unknown,
  next: unknown,
  trackingNumber: unknown,
): { ok: true; status: SettableOrderStatus; trackingNumber: string | null } | { ok: false; message: string } {
  if (!canSetOrderStatus(category, next)) return { ok: false, message: ORDER_STATUS_NOT_ALLOWED_MESSAGE };
  const tracking = typeof trackingNumber === "string" ? trackingNumber.trim() : "";
  if (requiresTracking(next) && tracking === "") return { ok: false, message: TRACKING_REQUIRED_MESSAGE };
  return { ok: true, status: next, trackingNumber: tracking === "" ? null : tracking };
}

/** Orders in these statuses count as store sales. */
export const STORE_SALE_STATUSES = [
  "paid",
  "completed",
  "shipped",
  "delivered",
] as const satisfies readonly OrderStatus[];

/** Orders a host still has to act on (the dashboard's open orders). */
export const OPEN_ORDER_STATUSES = ["paid", "processing", "pending_shipping"] as const satisfies readonly OrderStatus[];

/** Orders whose digital file may be downloaded (paid for, not cancelled or refunded). */
export const DOWNLOADABLE_ORDER_STATUSES = [
  "paid",
  "processing",
  "pending_shipping",
  "shipped",
  "delivered",
  "completed",
] as const satisfies readonly OrderStatus[];

/** The most units of one product in one checkout. */
export const MAX_ORDER_QUANTITY = 99;

export type StatusTone = "green" | "blue" | "yellow" | "red" | "grey";

/** Colour of a status on the tracking screen: delivered green, shipped blue, processing yellow, cancelled red, else grey. */
export function trackingStatusTone(status: unknown): StatusTone {
  switch (status) {
    case "delivered":
      return "green";
    case "shipped":
      return "blue";
    case "processing":
      return "yellow";
    case "cancelled":
      return "red";
    default:
      return "grey";
  }
}

/** A status shown capitalised, underscores as spaces: "pending_shipping" -> "Pending shipping". */
export function orderStatusText(status: string): string {
  const text = status.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// --- purchase mode ---------------------------------------------------------------------------------------------

/** How an order was bought: Buy Now (a single product or a cart) or in a group buy. */
export const PURCHASE_MODES = ["buy-now", "group-buy"] as const;
export type PurchaseMode = (typeof PURCHASE_MODES)[number];

/** A purchase mode as the host's order list shows it. */
export const PURCHASE_MODE_TEXT: Readonly<Record<PurchaseMode, string>> = {
  "buy-now": "Buy now",
  "group-buy": "Group buy",
};

// --- buyer actions ---------------------------------------------------------------------------------------------

/** A buyer's physical order offers 'Track Order' when shipped or processing, else 'View Order'. */
export function physicalOrderAction(status: unknown): "Track Order" | "View Order" {
  return status === "shipped" || status === "processing" ? "Track Order" : "View Order";
}
