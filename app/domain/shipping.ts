// Shipping a physical order (docs/product.md#shipping-and-delivery): the carriers a host picks from and their
// tracking links, the tracking updates a host writes, Delivered only after Shipped, and the buyer's "not received"
// report. When a host never marks delivery, the order counts as delivered 30 days after it was shipped. Pure: no I/O.

import { MS_PER_DAY } from "./countdown";
import { RETURN_WINDOW_DAYS } from "./payments";

/**
 * The carriers a host chooses from, each with its tracking-link template (`{n}` is the URL-encoded tracking
 * number), and "Other" with no link.
 */
export const CARRIERS = [
  { name: "Pos Laju", template: "https://tracking.pos.com.my/tracking/{n}" },
  { name: "J&T", template: "https://www.jtexpress.my/tracking/{n}" },
  { name: "DHL", template: "https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id={n}" },
  { name: "FedEx", template: "https://www.fedex.com/fedextrack/?trknbr={n}" },
  { name: "UPS", template: "https://www.ups.com/track?tracknum={n}" },
  { name: "USPS", template: "https://tools.usps.com/go/TrackConfirmAction?tLabels={n}" },
  { name: "Royal Mail", template: "https://www.royalmail.com/track-your-item#/tracking-results/{n}" },
  { name: "Other", template: null },
] as const satisfies readonly { name: string; template: string | null }[];

export const CARRIER_NAMES = CARRIERS.map((c) => c.name) as [CarrierName, ...CarrierName[]];
export type CarrierName = (typeof CARRIERS)[number]["name"];

export function isCarrierName(value: unknown): value is CarrierName {
  return typeof value === "string" && (CARRIER_NAMES as readonly string[]).includes(value);
}

/** Tracking numbers: letters, digits, '-' and '_', up to 64 characters (no spaces or other characters). */
export const TRACKING_NUMBER = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The carrier's tracking page for a tracking number, or null ("Other", a carrier stored before the list existed,
 * or a number that is not a valid tracking number). The number is URL-encoded into the template.
 */
export function trackingLink(
  carrier: string | null | undefined,
  trackingNumber: string | null | undefined,
): string | null {
  if (!carrier || !trackingNumber || !TRACKING_NUMBER.test(trackingNumber)) return null;
  const found = CARRIERS.find((c) => c.name === carrier);
  if (!found?.template) return null;
  return found.template.replace("{n}", encodeURIComponent(trackingNumber));
}

// --- tracking updates ----------------------------------------------------------------------------------------------

export const TRACKING_DESCRIPTION_MAX = 200;
export const TRACKING_LOCATION_MAX = 100;

export const SHIPPING_MESSAGES = {
  carrierRequired: "Please choose a carrier from the list",
  descriptionRequired: "Please describe the tracking update",
  descriptionTooLong: `Please keep the description under ${TRACKING_DESCRIPTION_MAX} characters`,
  locationTooLong: `Please keep the location under ${TRACKING_LOCATION_MAX} characters`,
  timeInvalid: "Please enter a valid date and time",
  timeInFuture: "The time of a tracking update cannot be in the future",
  timeBeforeOrder: "The time of a tracking update cannot be before the order was placed",
  notPhysical: "Only orders with a physical item have tracking updates",
  notShipped: "Add tracking updates once the order has been shipped",
  deliveredBeforeShipped: "An order can be marked Delivered only after it has been marked Shipped",
  updateAdded: "Tracking update added",
  notReceivedNotDelivered: "You can report an order as not received once it has been delivered",
  notReceivedWindowClosed: `"Not received" can be reported within ${RETURN_WINDOW_DAYS} days of delivery`,
  notReceivedReason: "I have not received this order",
  notReceivedReported: "Thank you. The host has been told and the payment is on hold until this is resolved.",
} as const;

/** A tolerance for the clocks of the host's browser and the server when refusing a time "in the future". */
export const CLOCK_SKEW_MS = 2 * 60 * 1000;

/** Why a tracking update's time is refused, or null: not in the future, not before the order was placed. */
export function trackingTimeRefusal(at: Date, orderCreatedAt: Date, now: Date): string | null {
  if (Number.isNaN(at.getTime())) return SHIPPING_MESSAGES.timeInvalid;
  if (at.getTime() > now.getTime() + CLOCK_SKEW_MS) return SHIPPING_MESSAGES.timeInFuture;
  if (at.getTime() < orderCreatedAt.getTime()) return SHIPPING_MESSAGES.timeBeforeOrder;
  return null;
}

// --- delivery --------------------------------------------------------------------------------------------------

/** A shipped order the host never marks delivered counts as delivered this many days after it was shipped. */
export const DEEMED_DELIVERY_DAYS = 30;

/**
 * When the buyer counts as having the order: its Delivered time, else (never marked) Shipped + 30 days, else null
 * (not shipped yet). Digital products and vouchers carry their delivery time from payment.
 */
export function effectiveDeliveredAt(order: { deliveredAt: Date | null; shippedAt: Date | null }): Date | null {
  if (order.deliveredAt) return order.deliveredAt;
  if (order.shippedAt) return new Date(order.shippedAt.getTime() + DEEMED_DELIVERY_DAYS * MS_PER_DAY);
  return null;
}

/**
 * Why the buyer may not report a shipped order as not received now, or null: the window is the return window, from
 * delivery (Delivered, else Shipped + 30 days) until 7 days later. The checks a return shares (an open request, a
 * full refund, a closed order) are returnEligibility's.
 */
export function notReceivedRefusal(
  order: { productCategory: string; deliveredAt: Date | null; shippedAt: Date | null },
  now: Date,
): string | null {
  if (order.productCategory !== "physical") return SHIPPING_MESSAGES.notPhysical;
  const delivered = effectiveDeliveredAt(order);
  if (!order.shippedAt || !delivered || now.getTime() < delivered.getTime())
    return SHIPPING_MESSAGES.notReceivedNotDelivered;
  if (now.getTime() > delivered.getTime() + RETURN_WINDOW_DAYS * MS_PER_DAY)
    return SHIPPING_MESSAGES.notReceivedWindowClosed;
  return null;
}

/** What a buyer's return request is: a return of a delivered order, or a report that it never arrived. */
export const RETURN_REQUEST_KINDS = ["return", "not_received"] as const;
export type ReturnRequestKind = (typeof RETURN_REQUEST_KINDS)[number];

// --- what the buyer and the host are told ----------------------------------------------------------------------

/** A shipping fact as notify() takes it: the key naming the fact (one notification per recipient and key, issue 30). */
export type ShippingNotice = { key: string; subject: string; text: string; url: string };
type NoticeOrder = { id: string; orderNumber: string; productName: string };
type Shipment = { carrier: string | null; trackingNumber: string | null };

/** Where to follow a shipment: the tracking page, and the carrier's page when its template knows the number. */
function trackingLines(origin: string, { carrier, trackingNumber }: Shipment): string {
  if (!trackingNumber) return "";
  const link = trackingLink(carrier, trackingNumber);
  return (
    `\nTracking number: ${trackingNumber}${carrier ? ` (${carrier})` : ""}` +
    `\nFollow it: ${origin}/shipping-tracking?tracking=${encodeURIComponent(trackingNumber)}` +
    (link ? `\nOn the carrier's site: ${link}` : "")
  );
}

const orderPath = (order: NoticeOrder) => `/order/${order.orderNumber}`;

/** The buyer's notice of the first Shipped: `shipped:<order id>`. */
export function shippedNotice(order: NoticeOrder, shipment: Shipment, origin: string): ShippingNotice {
  return {
    key: `shipped:${order.id}`,
    subject: `Your order ${order.orderNumber} has shipped`,
    text:
      `${order.productName} (order ${order.orderNumber}) is on its way.` +
      trackingLines(origin, shipment) +
      `\n\nSee the order: ${origin}${orderPath(order)}`,
    url: orderPath(order),
  };
}

/** The buyer's notice of a host's tracking update: `tracking:<update id>`. */
export function trackingNotice(
  updateId: string,
  order: NoticeOrder,
  update: { description: string; location: string | null },
  shipment: Shipment,
  origin: string,
): ShippingNotice {
  return {
    key: `tracking:${updateId}`,
    subject: `Tracking update for order ${order.orderNumber}`,
    text:
      `${order.productName} (order ${order.orderNumber}): ${update.description}` +
      (update.location ? ` (${update.location})` : "") +
      trackingLines(origin, shipment),
    url: orderPath(order),
  };
}

/** The buyer's notice of the first Delivered: `delivered:<order id>`. */
export function deliveredNotice(order: NoticeOrder, origin: string): ShippingNotice {
  return {
    key: `delivered:${order.id}`,
    subject: `Your order ${order.orderNumber} was delivered`,
    text:
      `${order.productName} (order ${order.orderNumber}) was marked delivered by the host.\n\n` +
      `If it has not reached you, report it as not received within ${RETURN_WINDOW_DAYS} days on the order page: ` +
      `${origin}${orderPath(order)}`,
    url: orderPath(order),
  };
}

/** The host's notice of the buyer's "not received" report: `not-received:<order id>`. */
export function notReceivedNotice(order: NoticeOrder, origin: string): ShippingNotice {
  return {
    key: `not-received:${order.id}`,
    subject: `Order ${order.orderNumber} reported not received`,
    text:
      `The buyer reports that ${order.productName} (order ${order.orderNumber}) has not arrived.\n\n` +
      `The sale's earnings are on hold until you answer the request on ${origin}/orders ` +
      `(approve to refund the buyer, or decline with a reason).`,
    url: "/orders",
  };
}
