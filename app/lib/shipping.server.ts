// Shipping a physical order (docs/product.md#shipping-and-delivery, decision 580): the host's status changes
// (Shipped with a carrier of the list, Delivered only after Shipped), the tracking updates a host writes, and the
// buyer's "not received" report, which opens a return and holds the sale's earnings. Each fact is told once, under
// its key (`shipped:<order>`, `tracking:<update>`, `delivered:<order>`, `not-received:<order>`).
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { getHostOrder, getOrderById, insertTrackingUpdate, updateHostOrderStatus } from "~/db/queries/orders.server";
import { createReturnRequest, listOrderReturnRequests } from "~/db/queries/returns.server";
import { isOrderLocked, ORDER_LOCKED_MESSAGE, shippingUpdateDescription } from "~/domain/order-updates";
import { validateOrderStatusUpdate } from "~/domain/orders";
import { RETURN_MESSAGES, returnEligibility } from "~/domain/returns";
import {
  deliveredNotice,
  notReceivedNotice,
  notReceivedRefusal,
  SHIPPING_MESSAGES,
  shippedNotice,
  type ShippingNotice,
  TRACKING_DESCRIPTION_MAX,
  TRACKING_LOCATION_MAX,
  trackingNotice,
  trackingTimeRefusal,
} from "~/domain/shipping";
import type { SessionUser } from "~/lib/auth.server";
import { siteOrigin } from "~/lib/config.server";
import { notify } from "~/lib/notify.server";
import type { StatusUpdateSchema } from "~/lib/order-filters";
import { isOrderBuyer } from "~/lib/returns.server";

export type ShippingOutcome = { ok: true; message: string } | { ok: false; status: 400 | 404 | 409; message: string };

const ORDER_NOT_FOUND = "Order not found";

/** One line of text: user content never brings line breaks or control characters into a mail. */
const oneLine = (v: string) =>
  v
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

/** A `datetime-local` value (the host's wall clock): 2026-11-25T14:30 or with seconds. */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/**
 * A host's tracking update from the /orders form. `time` is the host's local time (empty: now) and `tzOffset` the
 * browser's `getTimezoneOffset()` in minutes (0 without JavaScript: the time is then read as UTC).
 */
export const TrackingUpdateSchema = z
  .object({
    orderId: z.string({ error: ORDER_NOT_FOUND }).regex(/^[A-Za-z0-9_-]{1,64}$/, ORDER_NOT_FOUND),
    description: z
      .string({ error: SHIPPING_MESSAGES.descriptionRequired })
      .transform(oneLine)
      .pipe(
        z
          .string()
          .min(1, SHIPPING_MESSAGES.descriptionRequired)
          .max(TRACKING_DESCRIPTION_MAX, SHIPPING_MESSAGES.descriptionTooLong),
      ),
    location: z
      .string()
      .transform(oneLine)
      .pipe(z.string().max(TRACKING_LOCATION_MAX, SHIPPING_MESSAGES.locationTooLong))
      .optional()
      .default("")
      .transform((v) => (v === "" ? null : v)),
    time: z
      .string()
      .trim()
      .max(40, SHIPPING_MESSAGES.timeInvalid)
      .refine((v) => v === "" || LOCAL_TIME.test(v), SHIPPING_MESSAGES.timeInvalid)
      .optional()
      .default(""),
    tzOffset: z
      .string()
      .regex(/^-?\d{1,3}$/, SHIPPING_MESSAGES.timeInvalid)
      .transform(Number)
      .pipe(z.number().int().min(-840, SHIPPING_MESSAGES.timeInvalid).max(840, SHIPPING_MESSAGES.timeInvalid))
      .optional()
      .default(0),
  })
  .transform(({ time, tzOffset, ...rest }) => ({
    ...rest,
    /** The moment it happened, or null for "now". */
    at: time === "" ? null : new Date(Date.parse(`${time}Z`) + tzOffset * 60_000),
  }));
export type TrackingUpdateInput = z.output<typeof TrackingUpdateSchema>;

/** Tells an order's buyer (an account) about their order; a guest order's buyer has no account to tell. */
async function tellBuyer(env: Env, order: { userId: string | null }, notice: ShippingNotice): Promise<void> {
  if (!order.userId) return;
  await notify(env, order.userId, "order_update", notice);
}

/**
 * The host sets the status of one of their orders. Shipped needs a tracking number (the carrier, from the list, is
 * optional: without one there is no carrier link); Delivered is refused before Shipped. The first Shipped and the
 * first Delivered are told to the buyer.
 */
export async function setOrderStatus(
  env: Env,
  hostId: string,
  input: z.output<typeof StatusUpdateSchema>,
): Promise<ShippingOutcome> {
  const db = getDb(env);
  // Another host's order is answered exactly like a missing one.
  const order = await getHostOrder(db, hostId, input.orderId);
  if (!order) return { ok: false, status: 404, message: ORDER_NOT_FOUND };
  if (isOrderLocked(order.status)) return { ok: false, status: 409, message: ORDER_LOCKED_MESSAGE };
  const valid = validateOrderStatusUpdate(order.productCategory, input.status, input.trackingNumber);
  if (!valid.ok) return { ok: false, status: 400, message: valid.message };
  const carrier = input.carrier === "" ? null : input.carrier;
  if (valid.status === "delivered" && !order.shippedAt)
    return { ok: false, status: 409, message: SHIPPING_MESSAGES.deliveredBeforeShipped };
  const updated = await updateHostOrderStatus(db, {
    hostId,
    orderId: order.id,
    status: valid.status,
    trackingNumber: valid.trackingNumber,
    carrier,
    description: shippingUpdateDescription(valid.status, valid.trackingNumber, carrier ?? order.carrier),
  });
  // Refunded or cancelled between the check above and the write.
  if (!updated) return { ok: false, status: 409, message: ORDER_LOCKED_MESSAGE };

  if (valid.status === "shipped" && !order.shippedAt) {
    const shipment = {
      carrier: carrier ?? order.carrier,
      trackingNumber: valid.trackingNumber ?? order.trackingNumber,
    };
    await tellBuyer(env, order, shippedNotice(order, shipment, siteOrigin(env)));
  }
  if (valid.status === "delivered" && !order.deliveredAt)
    await tellBuyer(env, order, deliveredNotice(order, siteOrigin(env)));
  return { ok: true, message: `Order ${order.orderNumber} updated successfully!` };
}

/**
 * The host adds a tracking update to one of their physical orders: its time not in the future and not before the
 * order was placed. The buyer is told once per update.
 */
export async function addTrackingUpdate(
  env: Env,
  hostId: string,
  input: TrackingUpdateInput,
  now = new Date(),
): Promise<ShippingOutcome> {
  const db = getDb(env);
  const order = await getHostOrder(db, hostId, input.orderId);
  if (!order) return { ok: false, status: 404, message: ORDER_NOT_FOUND };
  if (isOrderLocked(order.status)) return { ok: false, status: 409, message: ORDER_LOCKED_MESSAGE };
  if (order.productCategory !== "physical") return { ok: false, status: 409, message: SHIPPING_MESSAGES.notPhysical };
  const at = input.at ?? now;
  const refusal = trackingTimeRefusal(at, order.createdAt, now);
  if (refusal) return { ok: false, status: 400, message: refusal };
  const updateId = await insertTrackingUpdate(db, {
    hostId,
    orderId: order.id,
    description: input.description,
    location: input.location,
    at,
  });
  if (!updateId) return { ok: false, status: 409, message: ORDER_LOCKED_MESSAGE };
  await tellBuyer(env, order, trackingNotice(updateId, order, input, order, siteOrigin(env)));
  return { ok: true, message: `${SHIPPING_MESSAGES.updateAdded} to order ${order.orderNumber}` };
}

/**
 * The buyer reports a shipped order as not received, within 7 days of delivery (Delivered, else Shipped + 30
 * days): a return request of kind "not_received" is opened (the host answers it on /orders like any return) and,
 * while it is open, the sale's earnings are held. The host is told once.
 */
export async function reportNotReceived(
  env: Env,
  user: SessionUser,
  orderId: string,
  now = new Date(),
): Promise<ShippingOutcome> {
  const db = getDb(env);
  const order = await getOrderById(db, orderId);
  if (!order || !isOrderBuyer(order, user)) return { ok: false, status: 404, message: ORDER_NOT_FOUND };
  const refusal = notReceivedRefusal(order, now);
  if (refusal) return { ok: false, status: 409, message: refusal };
  const requests = await listOrderReturnRequests(db, order.id, 5);
  const eligible = returnEligibility({ ...order, hasOpenRequest: requests.some((r) => r.status === "requested") }, now);
  if (!eligible.ok) return { ok: false, status: 409, message: eligible.message };
  const created = await createReturnRequest(db, {
    orderId: order.id,
    userId: user.id,
    hostId: order.hostId,
    reason: SHIPPING_MESSAGES.notReceivedReason,
    kind: "not_received",
  });
  if (!created) return { ok: false, status: 409, message: RETURN_MESSAGES.alreadyOpen };
  await notify(env, order.hostId, "order_update", notReceivedNotice(order, siteOrigin(env)));
  return { ok: true, message: SHIPPING_MESSAGES.notReceivedReported };
}
