// The readable line a host's status change adds to an order's shipping history.

import type { SettableOrderStatus } from "./orders";

/** Orders in these statuses are unpaid or closed: a host can no longer change them. */
export const LOCKED_ORDER_STATUSES = ["pending", "cancelled", "refunded"] as const;

export const ORDER_LOCKED_MESSAGE = "This order can no longer be updated";

export function isOrderLocked(status: unknown): boolean {
  return typeof status === "string" && (LOCKED_ORDER_STATUSES as readonly string[]).includes(status);
}

/**
 * "Shipped with DHL, tracking TRK-1" / "Shipped, tracking TRK-1" / "Order completed" / ...
 */
export function shippingUpdateDescription(
  status: SettableOrderStatus,
  trackingNumber: string | null,
  carrier: string | null,
): string {
  switch (status) {
    case "shipped":
      return `Shipped${carrier ? ` with ${carrier}` : ""}${trackingNumber ? `, tracking ${trackingNumber}` : ""}`;
    case "delivered":
      return "Delivered";
    case "completed":
      return "Order completed";
    case "pending_shipping":
      return "Order packed and waiting for shipment";
    case "processing":
      return "Order is being processed";
  }
}
