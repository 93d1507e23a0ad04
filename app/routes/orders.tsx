import { data, redirect } from "react-router";
import { Link } from "~/components/link";
import { DateText, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { countHostOrdersMatching, EXPORT_ROW_CAP, searchHostOrders } from "~/db/queries/orders.server";
import { listHostOpenReturnRequests } from "~/db/queries/returns.server";
import { formatCents } from "~/domain/money";
import { refundableCents } from "~/domain/payments";
import { orderRefundState } from "~/domain/returns";
import { isOrderLocked } from "~/domain/order-updates";
import { allowedOrderStatuses, PURCHASE_MODE_TEXT } from "~/domain/orders";
import { trackingLink } from "~/domain/shipping";
import { safeRedirectPath } from "~/lib/auth.server";
import { pageParam, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { ORDER_STATUS_FILTERS, parseFilters, StatusUpdateSchema, type StatusUpdateResult } from "~/lib/order-filters";
import {
  approveReturn,
  ApproveReturnSchema,
  declineReturn,
  DeclineReturnSchema,
  hostRefund,
  HostRefundSchema,
} from "~/lib/returns.server";
import { addTrackingUpdate, setOrderStatus, TrackingUpdateSchema } from "~/lib/shipping.server";
import { flashToastCookie } from "~/lib/toast.server";
import { formText, parseSubmission } from "~/lib/validation";
import {
  NoScriptStatusForm,
  RefundCell,
  ReturnRequests,
  StatusEditor,
  TrackingCell,
} from "~/components/order-management";
import { currentListHref, SalesTable } from "~/components/sales-table";
import type { Route } from "./+types/orders";

// /orders: the host's order management — their orders (filtered and paginated in SQL), status changes, refunds and
// the answers to return requests. The vouchers tab lives on /voucher-management (routes/voucher-management.tsx);
// both draw the shared list of components/sales-table.tsx.

const PAGE_SIZE = 20;

const ORDER_UPDATE_FAILED = "Failed to update order. Please try again.";

export const meta: Route.MetaFunction = () => pageMeta("Customer Orders");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const filter = parseFilters(url);
  const page = pageParam(request);
  const db = getDb(getEnv(context));
  const window = { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE };
  // An older link to the vouchers tab under this path: the vouchers live on /voucher-management.
  if (filter.tab === "vouchers") throw redirect(`/voucher-management${url.search}`);
  const f = {
    hostId: user.id,
    q: filter.q,
    status: filter.status as (typeof ORDER_STATUS_FILTERS)[number] | undefined,
  };
  const [rows, total, returnRequests] = await Promise.all([
    searchHostOrders(db, f, window),
    countHostOrdersMatching(db, f),
    listHostOpenReturnRequests(db, user.id),
  ]);
  return {
    ...filter,
    page,
    total,
    exportCount: Math.min(total, EXPORT_ROW_CAP),
    hasNext: rows.length > PAGE_SIZE,
    orders: rows.slice(0, PAGE_SIZE).map((o) => ({
      ...o,
      // Delivered is offered once the order has been shipped (the action refuses it before, too).
      allowed: allowedOrderStatuses(o.productCategory).filter((st) => st !== "delivered" || o.shippedAt !== null),
      locked: isOrderLocked(o.status),
      refundState: orderRefundState(o),
      refundableCents: o.status === "pending" ? 0 : refundableCents(o.amountCents, o.refundedCents),
      carrierLink: trackingLink(o.carrier, o.trackingNumber),
    })),
    // The refund forms' idempotency nonce: a double submit of this page's form refunds once.
    refundNonce: crypto.randomUUID(),
    returnRequests: returnRequests.map((r) => ({
      ...r,
      refundableCents: refundableCents(r.amountCents, r.refundedCents),
    })),
  };
}

function failure(message: string, orderId: string | null, status: number, extra: Partial<StatusUpdateResult> = {}) {
  return data<StatusUpdateResult>({ ok: false, message, orderId, ...extra }, { status });
}

/** Back to the list the host was on, with a toast. */
function done(form: FormData, message: string) {
  return redirect(safeRedirectPath(form.get("redirectTo"), "/orders?tab=orders"), {
    headers: { "Set-Cookie": flashToastCookie({ message, type: "success" }) },
  });
}

/** The host declines a return request with a reason (the buyer is mailed). */
async function declineReturnAction(env: Env, hostId: string, form: FormData) {
  const returnId = formText(form, "returnId", 64);
  const submission = parseSubmission(DeclineReturnSchema, form, ["returnId", "declineReason"]);
  if (!submission.ok) {
    const message = submission.fieldErrors.declineReason ?? submission.fieldErrors.returnId ?? "Please check the form";
    return failure(message, null, 400, {
      intent: "decline-return",
      returnId: returnId ?? undefined,
      fieldErrors: submission.fieldErrors,
    });
  }
  const outcome = await declineReturn(env, hostId, submission.value.returnId, submission.value.declineReason);
  if (!outcome.ok)
    return failure(outcome.message, null, outcome.status, {
      intent: "decline-return",
      returnId: submission.value.returnId,
    });
  return done(form, outcome.message);
}

/** The host approves a return request: what is left of the order is refunded (once), the buyer is mailed. */
async function approveReturnAction(env: Env, hostId: string, form: FormData) {
  const submission = parseSubmission(ApproveReturnSchema, form, ["returnId"]);
  if (!submission.ok)
    return failure(submission.fieldErrors.returnId ?? "Return request not found", null, 404, {
      intent: "approve-return",
    });
  const outcome = await approveReturn(env, hostId, submission.value.returnId);
  if (!outcome.ok)
    return failure(outcome.message, null, outcome.status, {
      intent: "approve-return",
      returnId: submission.value.returnId,
    });
  return done(form, outcome.message);
}

/** The host adds a tracking update (description, optional location, time) to one of their physical orders. */
async function trackingAction(env: Env, hostId: string, form: FormData) {
  const orderId = formText(form, "orderId", 64);
  const submission = parseSubmission(TrackingUpdateSchema, form, [
    "orderId",
    "description",
    "location",
    "time",
    "tzOffset",
  ]);
  if (!submission.ok) {
    const f = submission.fieldErrors;
    const message = f.description ?? f.location ?? f.time ?? f.tzOffset ?? f.orderId ?? "Please check the form";
    return failure(message, orderId, f.orderId ? 404 : 400, { intent: "add-tracking", fieldErrors: f });
  }
  const outcome = await addTrackingUpdate(env, hostId, submission.value);
  if (!outcome.ok)
    return failure(outcome.message, submission.value.orderId, outcome.status, { intent: "add-tracking" });
  return done(form, outcome.message);
}

/** The host refunds one of their orders in full or in part (amount checked on the server; nonce = idempotency). */
async function refundAction(env: Env, hostId: string, form: FormData) {
  const orderId = formText(form, "orderId", 64);
  const submission = parseSubmission(HostRefundSchema, form, ["orderId", "amount", "reason", "refundKey"]);
  if (!submission.ok) {
    const f = submission.fieldErrors;
    const message = f.amount ?? f.reason ?? f.refundKey ?? f.orderId ?? "Please check the refund";
    return failure(message, orderId, f.orderId ? 404 : 400, { intent: "refund", fieldErrors: f });
  }
  const outcome = await hostRefund(env, hostId, submission.value);
  if (!outcome.ok) return failure(outcome.message, submission.value.orderId, outcome.status, { intent: "refund" });
  return done(form, outcome.message);
}

/**
 * The host's order actions: the inline status change of one of their orders (a plain form per row, or a fetcher
 * with JavaScript), a refund of one of them, and the answer to a buyer's return request.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "decline-return") return declineReturnAction(getEnv(context), user.id, form);
  if (intent === "approve-return") return approveReturnAction(getEnv(context), user.id, form);
  if (intent === "refund") return refundAction(getEnv(context), user.id, form);
  if (intent === "add-tracking") return trackingAction(getEnv(context), user.id, form);
  const parsed = StatusUpdateSchema.safeParse(Object.fromEntries(form));
  const orderId = typeof form.get("orderId") === "string" ? String(form.get("orderId")).slice(0, 64) : null;
  if (!parsed.success) {
    const issue = parsed.error.issues.find((i) => i.path[0] === "trackingNumber" || i.path[0] === "carrier");
    return failure(issue?.message ?? "Please choose a valid status", orderId, 400);
  }
  try {
    const outcome = await setOrderStatus(getEnv(context), user.id, parsed.data);
    if (!outcome.ok) return failure(outcome.message, parsed.data.orderId, outcome.status);
    return done(form, outcome.message);
  } catch (error) {
    console.error("orders: status update failed", { orderId: parsed.data.orderId, error });
    return failure(ORDER_UPDATE_FAILED, parsed.data.orderId, 500);
  }
}

export default function Orders({ loaderData, actionData }: Route.ComponentProps) {
  const { orders } = loaderData;
  const current = currentListHref(loaderData);
  const statusError = actionData && (actionData.intent ?? "update-status") === "update-status" ? actionData : null;
  const rowError = (id: string) => (statusError && statusError.orderId === id ? statusError.message : null);
  const pageError = statusError && !orders.some((o) => o.id === statusError.orderId) ? statusError.message : null;
  const returnError =
    actionData && (actionData.intent === "approve-return" || actionData.intent === "decline-return")
      ? actionData.message
      : null;
  return (
    <SalesTable
      list={loaderData}
      pageError={pageError}
      before={<ReturnRequests requests={loaderData.returnRequests} redirectTo={current} pageError={returnError} />}
      head={["Order", "Date", "Customer", "Product", "Mode", "Total", "Status", "Tracking", "Refund"]}
      rows={orders.map((o) => (
        <tr key={o.id} className="align-top">
          <td className="px-4 py-2 whitespace-nowrap">
            <Link to={`/order/${o.orderNumber}`} className="font-medium text-brand-700 hover:underline">
              {o.orderNumber}
            </Link>
          </td>
          <td className="px-4 py-2 whitespace-nowrap">
            <DateText value={o.createdAt} />
          </td>
          <td className="min-w-36 px-4 py-2">
            <p>{o.customerName ?? "—"}</p>
            {o.customerEmail && o.customerEmail !== o.customerName ? (
              <p className="text-xs text-gray-500">{o.customerEmail}</p>
            ) : null}
          </td>
          <td className="min-w-44 px-4 py-2">
            {o.productName}
            {o.quantity > 1 ? ` × ${o.quantity}` : null}
            <p className="text-xs text-gray-500 capitalize">{o.productCategory}</p>
          </td>
          <td className="px-4 py-2">{PURCHASE_MODE_TEXT[o.purchaseMode]}</td>
          <td className="px-4 py-2 whitespace-nowrap">{formatCents(o.amountCents, o.currency)}</td>
          <td className="px-4 py-2">
            <StatusEditor key={`${o.id}:${o.status}`} order={o} redirectTo={current} pageError={rowError(o.id)} />
            <NoScriptStatusForm order={o} redirectTo={current} />
          </td>
          <td className="px-4 py-2">
            <TrackingCell
              order={o}
              redirectTo={current}
              actionData={actionData?.intent === "add-tracking" && actionData.orderId === o.id ? actionData : null}
            />
          </td>
          <td className="px-4 py-2">
            <RefundCell
              order={o}
              redirectTo={current}
              nonce={loaderData.refundNonce}
              actionData={actionData?.intent === "refund" && actionData.orderId === o.id ? actionData : null}
            />
          </td>
        </tr>
      ))}
    />
  );
}
