// Returns: a buyer asks within the 7-day return policy, the host approves (a refund through the payments pipeline,
// one idempotency key per request) or declines with a reason, and the buyer is mailed either way.
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { getOrderById } from "~/db/queries/orders.server";
import { createReturnRequest, decideReturnRequest, getReturnRequestWithOrder, listOrderReturnRequests } from "~/db/queries/returns.server";
import { formatCents } from "~/domain/money";
import { RETURN_MESSAGES, RETURN_REASON_MAX_LENGTH, returnEligibility } from "~/domain/returns";
import type { SessionUser } from "~/lib/auth.server";
import { sendMail } from "~/lib/mail.server";
import { notify } from "~/lib/notify.server";

export type ReturnOutcome = { ok: true; message: string } | { ok: false; status: 400 | 403 | 404 | 409 | 502; message: string };

const reason = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(RETURN_REASON_MAX_LENGTH, `Please keep the reason under ${RETURN_REASON_MAX_LENGTH} characters`);

export const ReturnRequestSchema = z.object({ reason: reason(RETURN_MESSAGES.reasonRequired) });
export const DeclineReturnSchema = z.object({
  returnId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, RETURN_MESSAGES.requestNotFound),
  declineReason: reason(RETURN_MESSAGES.declineReasonRequired),
});
export const ApproveReturnSchema = z.object({
  returnId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, RETURN_MESSAGES.requestNotFound),
});

/** Whether the signed-in account is the buyer of an order (placed it, or paid with its e-mail). */
export function isOrderBuyer(order: { userId: string | null; customerEmail: string | null }, user: Pick<SessionUser, "id" | "email">): boolean {
  return order.userId === user.id || (order.customerEmail !== null && order.customerEmail === user.email.toLowerCase());
}

/** The buyer asks to return an order. One open request per order; only within the return window. */
export async function requestReturn(env: Env, user: SessionUser, orderId: string, reasonText: string, now = new Date()): Promise<ReturnOutcome> {
  const db = getDb(env);
  const order = await getOrderById(db, orderId);
  if (!order || !isOrderBuyer(order, user)) return { ok: false, status: 404, message: "Order not found" };
  const requests = await listOrderReturnRequests(db, order.id, 5);
  const eligible = returnEligibility({ ...order, hasOpenRequest: requests.some((r) => r.status === "requested") }, now);
  if (!eligible.ok) return { ok: false, status: 409, message: eligible.message };
  const created = await createReturnRequest(db, { orderId: order.id, userId: user.id, hostId: order.hostId, reason: reasonText });
  if (!created) return { ok: false, status: 409, message: RETURN_MESSAGES.alreadyOpen };
  return { ok: true, message: RETURN_MESSAGES.requested };
}

type DecidedRequest = NonNullable<Awaited<ReturnType<typeof getReturnRequestWithOrder>>>;

/** The host's own open request, or the refusal to answer with. Another host's request is answered as missing. */
export async function hostReturnRequest(env: Env, hostId: string, returnId: string): Promise<{ ok: true; request: DecidedRequest } | Extract<ReturnOutcome, { ok: false }>> {
  const request = await getReturnRequestWithOrder(getDb(env), returnId);
  if (!request || request.hostId !== hostId) return { ok: false, status: 404, message: RETURN_MESSAGES.requestNotFound };
  if (request.status !== "requested") return { ok: false, status: 409, message: RETURN_MESSAGES.alreadyAnswered };
  return { ok: true, request };
}

/** Mails the buyer the host's answer (always sent: the buyer needs it whatever their notification switches say). */
export async function mailReturnDecision(
  env: Env,
  request: Pick<DecidedRequest, "userId" | "customerEmail" | "orderNumber" | "productName">,
  decision: { approved: true; refundCents: number; currency: string } | { approved: false; declineReason: string },
): Promise<void> {
  const subject = decision.approved
    ? `Your return of order ${request.orderNumber} is approved`
    : `Your return of order ${request.orderNumber} was declined`;
  const text = decision.approved
    ? `The host approved your return of ${request.productName} (order ${request.orderNumber}). ` +
      `A refund of ${formatCents(decision.refundCents, decision.currency)} goes back to your payment method.\n\n` +
      `See the order: /order/${request.orderNumber}`
    : `The host declined your return of ${request.productName} (order ${request.orderNumber}).\n\n` +
      `Reason: ${decision.declineReason}\n\nSee the order: /order/${request.orderNumber}`;
  const url = `/order/${request.orderNumber}`;
  if (request.userId) {
    await notify(env, request.userId, "return_decision", { subject, text, url });
  } else if (request.customerEmail) {
    try {
      await sendMail(env, getDb(env), { to: request.customerEmail, subject, text });
    } catch (error) {
      console.error("returns: decision mail failed", { orderNumber: request.orderNumber, error });
    }
  }
}

/** The host declines an open request with a reason; the buyer is mailed. A second answer changes nothing. */
export async function declineReturn(env: Env, hostId: string, returnId: string, declineReason: string): Promise<ReturnOutcome> {
  const found = await hostReturnRequest(env, hostId, returnId);
  if (!found.ok) return found;
  const decided = await decideReturnRequest(getDb(env), found.request.id, { status: "declined", declineReason });
  if (!decided) return { ok: false, status: 409, message: RETURN_MESSAGES.alreadyAnswered };
  await mailReturnDecision(env, found.request, { approved: false, declineReason });
  return { ok: true, message: `Return of order ${found.request.orderNumber} declined. The buyer has been told why.` };
}
