import { useEffect, useRef, useState } from "react";
import { data, Form, redirect, useFetcher, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { Table } from "~/components/cards";
import { FormError } from "~/components/form";
import { RefundedAmount } from "~/components/refunds";
import { useToast } from "~/components/toaster";
import {
  buttonClass,
  DateText,
  EmptyState,
  LinkButton,
  Page,
  pageMeta,
  Pagination,
  StatusBadge,
} from "~/components/page";
import { getDb } from "~/db/client.server";
import {
  countHostOrdersMatching,
  EXPORT_ROW_CAP,
  countHostVouchersMatching,
  getHostOrder,
  searchHostOrders,
  searchHostVouchers,
  updateHostOrderStatus,
} from "~/db/queries/orders.server";
import { listHostOpenReturnRequests } from "~/db/queries/returns.server";
import { formatAmount, formatCents } from "~/domain/money";
import { refundableCents } from "~/domain/payments";
import { orderRefundState, RETURN_REASON_MAX_LENGTH } from "~/domain/returns";
import { isOrderLocked, ORDER_LOCKED_MESSAGE, shippingUpdateDescription } from "~/domain/order-updates";
import { allowedOrderStatuses, orderStatusText, PURCHASE_MODE_TEXT, validateOrderStatusUpdate } from "~/domain/orders";
import { safeRedirectPath } from "~/lib/auth.server";
import { pageParam, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import {
  filterSearch,
  ORDER_STATUS_FILTERS,
  type OrdersTab,
  parseFilters,
  StatusUpdateSchema,
  type StatusUpdateResult,
  VOUCHER_STATUS_FILTERS,
} from "~/lib/order-filters";
import {
  approveReturn,
  ApproveReturnSchema,
  declineReturn,
  DeclineReturnSchema,
  hostRefund,
  HostRefundSchema,
} from "~/lib/returns.server";
import { flashToastCookie } from "~/lib/toast.server";
import { formText, parseSubmission } from "~/lib/validation";
import type { Route } from "./+types/orders";
import { SEARCH_MAX_LENGTH } from "~/domain/search";

// One screen under two paths: /orders opens on the Orders tab, /voucher-management on the Vouchers tab (`?tab=`
// picks either). Rows are the signed-in host's own orders, filtered and paginated in SQL.

const PAGE_SIZE = 20;

const ORDER_NOT_FOUND = "Order not found";
const ORDER_UPDATE_FAILED = "Failed to update order. Please try again.";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(loaderData?.tab === "vouchers" ? "Voucher Management" : "Customer Orders");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const filter = parseFilters(url);
  const page = pageParam(request);
  const db = getDb(getEnv(context));
  const window = { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE };
  if (filter.tab === "vouchers") {
    const f = {
      hostId: user.id,
      q: filter.q,
      status: filter.status as "active" | "redeemed" | "expired" | undefined,
      now: new Date(),
    };
    const [rows, total] = await Promise.all([searchHostVouchers(db, f, window), countHostVouchersMatching(db, f)]);
    return {
      ...filter,
      path: url.pathname,
      page,
      total,
      exportCount: Math.min(total, EXPORT_ROW_CAP),
      hasNext: rows.length > PAGE_SIZE,
      vouchers: rows.slice(0, PAGE_SIZE),
      orders: [],
      refundNonce: "",
      returnRequests: [],
    };
  }
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
    path: url.pathname,
    page,
    total,
    exportCount: Math.min(total, EXPORT_ROW_CAP),
    hasNext: rows.length > PAGE_SIZE,
    orders: rows.slice(0, PAGE_SIZE).map((o) => ({
      ...o,
      allowed: allowedOrderStatuses(o.productCategory),
      locked: isOrderLocked(o.status),
      refundState: orderRefundState(o),
      refundableCents: o.status === "pending" ? 0 : refundableCents(o.amountCents, o.refundedCents),
    })),
    vouchers: [],
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
  const parsed = StatusUpdateSchema.safeParse(Object.fromEntries(form));
  const orderId = typeof form.get("orderId") === "string" ? String(form.get("orderId")).slice(0, 64) : null;
  if (!parsed.success) {
    const issue = parsed.error.issues.find((i) => i.path[0] === "trackingNumber" || i.path[0] === "carrier");
    return failure(issue?.message ?? "Please choose a valid status", orderId, 400);
  }
  const input = parsed.data;
  const db = getDb(getEnv(context));
  try {
    // Another host's order is answered exactly like a missing one.
    const order = await getHostOrder(db, user.id, input.orderId);
    if (!order) return failure(ORDER_NOT_FOUND, input.orderId, 404);
    if (isOrderLocked(order.status)) return failure(ORDER_LOCKED_MESSAGE, order.id, 409);
    const valid = validateOrderStatusUpdate(order.productCategory, input.status, input.trackingNumber);
    if (!valid.ok) return failure(valid.message, order.id, 400);
    const carrier = input.carrier === "" ? null : input.carrier;
    const updated = await updateHostOrderStatus(db, {
      hostId: user.id,
      orderId: order.id,
      status: valid.status,
      trackingNumber: valid.trackingNumber,
      carrier,
      description: shippingUpdateDescription(valid.status, valid.trackingNumber, carrier ?? order.carrier),
    });
    // Refunded or cancelled between the check above and the write.
    if (!updated) return failure(ORDER_LOCKED_MESSAGE, order.id, 409);
    const back = safeRedirectPath(form.get("redirectTo"), "/orders?tab=orders");
    return redirect(back, {
      headers: {
        "Set-Cookie": flashToastCookie({
          message: `Order ${order.orderNumber} updated successfully!`,
          type: "success",
        }),
      },
    });
  } catch (error) {
    console.error("orders: status update failed", { orderId: input.orderId, error });
    return failure(ORDER_UPDATE_FAILED, input.orderId, 500);
  }
}

type LoaderData = Route.ComponentProps["loaderData"];
type HostOrder = LoaderData["orders"][number];

const inputClass =
  "rounded-lg border border-gray-300 bg-white px-2 py-1 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none";

/** One order's status cell: the badge and Edit, or the inline form (status, tracking number, carrier, Save, Cancel). */
function StatusEditor({
  order,
  redirectTo,
  pageError,
}: {
  order: HostOrder;
  redirectTo: string;
  pageError: string | null;
}) {
  const fetcher = useFetcher<StatusUpdateResult>();
  const [editing, setEditing] = useState(pageError !== null);
  const [status, setStatus] = useState<string>(order.status);
  const wasBusy = useRef(false);
  useEffect(() => {
    // A successful save redirects (the page reloads its rows and shows the toast): close the editor.
    if (fetcher.state !== "idle") wasBusy.current = true;
    else if (wasBusy.current) {
      wasBusy.current = false;
      if (!fetcher.data) setEditing(false);
    }
  }, [fetcher.state, fetcher.data]);
  const error = fetcher.state === "idle" && fetcher.data ? fetcher.data.message : pageError;

  // A refunded, cancelled or unpaid order offers no status change (the action refuses one too).
  if (order.locked) {
    return (
      <div className="flex flex-col gap-1">
        <StatusBadge status={order.status} />
        {error ? (
          <p role="alert" className="text-xs text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  if (!editing) {
    return (
      <div className="flex items-center gap-2">
        <StatusBadge status={order.status} />
        <button
          type="button"
          onClick={() => setEditing(true)}
          className="text-sm font-semibold text-brand-700 hover:underline"
        >
          Edit
        </button>
      </div>
    );
  }
  const fieldId = `order-${order.id}`;
  return (
    <fetcher.Form
      method="post"
      className="flex min-w-56 flex-col gap-2"
      aria-label={`Update order ${order.orderNumber}`}
    >
      <input type="hidden" name="intent" value="update-status" />
      <input type="hidden" name="orderId" value={order.id} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label className="sr-only" htmlFor={`${fieldId}-status`}>
        Status
      </label>
      <select
        id={`${fieldId}-status`}
        name="status"
        value={status}
        onChange={(e) => setStatus(e.target.value)}
        className={inputClass}
      >
        {(order.allowed as readonly string[]).includes(order.status) ? null : (
          <option value={order.status} disabled>
            {orderStatusText(order.status)}
          </option>
        )}
        {order.allowed.map((s) => (
          <option key={s} value={s}>
            {orderStatusText(s)}
          </option>
        ))}
      </select>
      {status === "shipped" ? (
        <>
          <label className="sr-only" htmlFor={`${fieldId}-tracking`}>
            Tracking number
          </label>
          <input
            id={`${fieldId}-tracking`}
            name="trackingNumber"
            defaultValue={order.trackingNumber ?? ""}
            placeholder="Tracking number"
            required
            maxLength={64}
            pattern="[A-Za-z0-9_\-]{1,64}"
            className={inputClass}
          />
          <label className="sr-only" htmlFor={`${fieldId}-carrier`}>
            Carrier (optional)
          </label>
          <input
            id={`${fieldId}-carrier`}
            name="carrier"
            defaultValue={order.carrier ?? ""}
            placeholder="Carrier (optional)"
            maxLength={60}
            className={inputClass}
          />
        </>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <button type="submit" disabled={fetcher.state !== "idle"} className={buttonClass("primary", "sm")}>
          {fetcher.state !== "idle" ? "Saving..." : "Save"}
        </button>
        <button
          type="button"
          onClick={() => {
            setEditing(false);
            setStatus(order.status);
          }}
          className={buttonClass("secondary", "sm")}
        >
          Cancel
        </button>
      </div>
    </fetcher.Form>
  );
}

/** Without JavaScript every row has a plain form (status select, tracking, carrier, Save). */
function NoScriptStatusForm({ order, redirectTo }: { order: HostOrder; redirectTo: string }) {
  if (order.locked) return null;
  return (
    <noscript>
      <form method="post" className="mt-2 flex flex-col gap-1">
        <input type="hidden" name="intent" value="update-status" />
        <input type="hidden" name="orderId" value={order.id} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <select name="status" defaultValue={order.status} aria-label="Status" className={inputClass}>
          {order.allowed.map((s) => (
            <option key={s} value={s}>
              {orderStatusText(s)}
            </option>
          ))}
        </select>
        <input
          name="trackingNumber"
          defaultValue={order.trackingNumber ?? ""}
          placeholder="Tracking number (for shipped)"
          aria-label="Tracking number"
          className={inputClass}
        />
        <input
          name="carrier"
          defaultValue={order.carrier ?? ""}
          placeholder="Carrier (optional)"
          aria-label="Carrier"
          className={inputClass}
        />
        <button type="submit" className={buttonClass("primary", "sm")}>
          Save
        </button>
      </form>
    </noscript>
  );
}

/** An order's refund state and refunded amount, and the host's refund form (amount, optional reason). */
function RefundCell({
  order,
  redirectTo,
  nonce,
  actionData,
}: {
  order: HostOrder;
  redirectTo: string;
  nonce: string;
  actionData: StatusUpdateResult | null;
}) {
  const fetcher = useFetcher<StatusUpdateResult>();
  const result = fetcher.state === "idle" ? (fetcher.data ?? actionData) : null;
  const left = formatAmount(order.refundableCents, order.currency).replace(/,/g, "");
  const fieldId = `refund-${order.id}`;
  return (
    <div className="flex min-w-48 flex-col gap-2">
      {order.refundState === "none" ? null : (
        <RefundedAmount
          state={order.refundState}
          refundedCents={order.refundedCents}
          amountCents={order.amountCents}
          currency={order.currency}
        />
      )}
      {order.refundableCents > 0 ? (
        <details open={result ? true : undefined}>
          <summary className="cursor-pointer text-sm font-semibold text-brand-700">Refund</summary>
          <fetcher.Form
            method="post"
            className="mt-2 flex flex-col gap-2"
            aria-label={`Refund order ${order.orderNumber}`}
          >
            <input type="hidden" name="intent" value="refund" />
            <input type="hidden" name="orderId" value={order.id} />
            <input type="hidden" name="refundKey" value={nonce} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <label htmlFor={`${fieldId}-amount`} className="text-xs text-gray-600">
              Amount ({order.currency}, up to {left})
            </label>
            <input
              id={`${fieldId}-amount`}
              name="amount"
              inputMode="decimal"
              required
              defaultValue={left}
              pattern="\d{1,9}(\.\d{1,2})?"
              className={inputClass}
            />
            <label htmlFor={`${fieldId}-reason`} className="text-xs text-gray-600">
              Reason (optional, shown to the buyer)
            </label>
            <input id={`${fieldId}-reason`} name="reason" maxLength={RETURN_REASON_MAX_LENGTH} className={inputClass} />
            {result ? (
              <p role="alert" className="text-xs text-red-700">
                {result.message}
              </p>
            ) : null}
            <button type="submit" disabled={fetcher.state !== "idle"} className={buttonClass("danger", "sm")}>
              {fetcher.state !== "idle" ? "Refunding..." : "Refund"}
            </button>
          </fetcher.Form>
        </details>
      ) : order.refundState === "none" ? (
        <span className="text-sm text-gray-500">—</span>
      ) : null}
    </div>
  );
}

type ReturnRequestRow = LoaderData["returnRequests"][number];

/** One open return request: what the buyer said, and the host's answers (approve with a refund, or decline). */
function ReturnRequestItem({ request, redirectTo }: { request: ReturnRequestRow; redirectTo: string }) {
  const decline = useFetcher<StatusUpdateResult>();
  const approve = useFetcher<StatusUpdateResult>();
  const declineError = decline.state === "idle" ? decline.data?.message : undefined;
  const approveError = approve.state === "idle" ? approve.data?.message : undefined;
  return (
    <li
      className="rounded-lg border border-gray-200 bg-white p-4"
      aria-label={`Return request for order ${request.orderNumber}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-medium">
          <Link to={`/order/${request.orderNumber}`} className="text-brand-700 hover:underline">
            {request.orderNumber}
          </Link>{" "}
          · {request.productName} · {formatCents(request.amountCents, request.currency)}
        </p>
        <p className="text-xs text-gray-500">
          Asked <DateText value={request.createdAt} withTime />
        </p>
      </div>
      <p className="mt-1 text-sm text-gray-700">
        {request.customerName ?? request.customerEmail ?? "The buyer"}: “{request.reason}”
      </p>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start">
        {request.refundableCents > 0 ? (
          <approve.Form method="post" aria-label={`Approve return of order ${request.orderNumber}`}>
            <input type="hidden" name="intent" value="approve-return" />
            <input type="hidden" name="returnId" value={request.id} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button type="submit" disabled={approve.state !== "idle"} className={buttonClass("primary", "sm")}>
              {approve.state !== "idle"
                ? "Refunding..."
                : `Approve and refund ${formatCents(request.refundableCents, request.currency)}`}
            </button>
          </approve.Form>
        ) : null}
        <decline.Form
          method="post"
          className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-start"
          aria-label={`Decline return of order ${request.orderNumber}`}
        >
          <input type="hidden" name="intent" value="decline-return" />
          <input type="hidden" name="returnId" value={request.id} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <label className="sr-only" htmlFor={`decline-${request.id}`}>
            Reason for declining
          </label>
          <input
            id={`decline-${request.id}`}
            name="declineReason"
            required
            maxLength={RETURN_REASON_MAX_LENGTH}
            placeholder="Reason for declining"
            className={`${inputClass} flex-1`}
          />
          <button type="submit" disabled={decline.state !== "idle"} className={buttonClass("secondary", "sm")}>
            Decline
          </button>
        </decline.Form>
      </div>
      {declineError || approveError ? (
        <div className="mt-2">
          <FormError>{approveError ?? declineError}</FormError>
        </div>
      ) : null}
    </li>
  );
}

function ReturnRequests({
  requests,
  redirectTo,
  pageError,
}: {
  requests: readonly ReturnRequestRow[];
  redirectTo: string;
  pageError: string | null;
}) {
  if (requests.length === 0) return null;
  return (
    <section aria-labelledby="return-requests" className="mb-6 rounded-xl border border-amber-200 bg-amber-50 p-4">
      <h2 id="return-requests" className="text-base font-semibold text-gray-900">
        Return requests ({requests.length})
      </h2>
      <p className="mt-1 text-sm text-gray-600">Buyers asked to return these orders under the 7-day return policy.</p>
      {pageError ? (
        <div className="mt-2">
          <FormError>{pageError}</FormError>
        </div>
      ) : null}
      <ul className="mt-3 space-y-3">
        {requests.map((r) => (
          <ReturnRequestItem key={r.id} request={r} redirectTo={redirectTo} />
        ))}
      </ul>
    </section>
  );
}

function FilterBar({ loaderData }: { loaderData: LoaderData }) {
  const { tab, q, status, path, exportCount } = loaderData;
  const toast = useToast();
  const statuses: readonly string[] = tab === "vouchers" ? VOUCHER_STATUS_FILTERS : ORDER_STATUS_FILTERS;
  const searching = useNavigation().state === "loading";
  const exportHref = `/orders/export.csv?${filterSearch({ tab, q, status })}`;
  const noun = tab === "vouchers" ? "vouchers" : "orders";
  return (
    <div className="mb-6 flex flex-col gap-2 lg:flex-row lg:items-center">
      <Form method="get" action={path} className="flex flex-1 flex-col gap-2 sm:flex-row" role="search">
        <input type="hidden" name="tab" value={tab} />
        <label className="sr-only" htmlFor="orders-q">
          Search
        </label>
        <input
          id="orders-q"
          name="q"
          type="search"
          defaultValue={q ?? ""}
          maxLength={SEARCH_MAX_LENGTH}
          placeholder={
            tab === "vouchers" ? "Search code, order, customer or product" : "Search order, customer or product"
          }
          className="flex-1 rounded-lg border border-gray-300 px-3 py-2 text-sm"
        />
        <label className="sr-only" htmlFor="orders-status">
          Status
        </label>
        <select
          id="orders-status"
          name="status"
          defaultValue={status ?? ""}
          className="rounded-lg border border-gray-300 px-3 py-2 text-sm"
        >
          <option value="">All Status</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {orderStatusText(s)}
            </option>
          ))}
        </select>
        <button type="submit" disabled={searching} className={buttonClass("secondary")}>
          Search
        </button>
      </Form>
      <div className="flex gap-2">
        <a
          href={exportHref}
          download
          onClick={() => toast({ message: `Exporting ${exportCount} ${noun}...`, type: "info", durationMs: 3000 })}
          className={buttonClass("secondary")}
        >
          Export
        </a>
        {tab === "vouchers" ? (
          <LinkButton to="/voucher-scanner" variant="primary">
            SCAN
          </LinkButton>
        ) : null}
      </div>
    </div>
  );
}

export default function Orders({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, q, status, path, orders, vouchers, page, hasNext, total } = loaderData;
  const tabs: { id: OrdersTab; label: string }[] = [
    { id: "vouchers", label: "Vouchers" },
    { id: "orders", label: "Orders" },
  ];
  const current = `${path}?${filterSearch({ tab, q, status }, page > 1 ? { page: String(page) } : {})}`;
  const hrefFor = (p: number) => `${path}?${filterSearch({ tab, q, status }, { page: String(p) })}`;
  const filtered = Boolean(q || status);
  const statusError = actionData && (actionData.intent ?? "update-status") === "update-status" ? actionData : null;
  const rowError = (id: string) => (statusError && statusError.orderId === id ? statusError.message : null);
  const pageError = statusError && !orders.some((o) => o.id === statusError.orderId) ? statusError.message : null;
  const returnError =
    actionData && (actionData.intent === "approve-return" || actionData.intent === "decline-return")
      ? actionData.message
      : null;
  return (
    <Page
      title={tab === "vouchers" ? "Voucher Management" : "Customer Orders"}
      subtitle="Orders and vouchers for your products, newest first."
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
    >
      <nav aria-label="Order sections" className="mb-6 border-b border-gray-200">
        <ul className="-mb-px flex gap-6">
          {tabs.map((t) => (
            <li key={t.id}>
              <Link
                to={`${path}?tab=${t.id}`}
                aria-current={tab === t.id ? "page" : undefined}
                className={`inline-block border-b-2 px-1 py-3 text-sm font-semibold ${
                  tab === t.id
                    ? "border-brand-600 text-brand-700"
                    : "border-transparent text-gray-600 hover:text-gray-900"
                }`}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {tab === "orders" ? (
        <ReturnRequests requests={loaderData.returnRequests} redirectTo={current} pageError={returnError} />
      ) : null}

      <FilterBar loaderData={loaderData} />

      {pageError ? (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
          {pageError}
        </p>
      ) : null}

      <p className="mb-2 text-sm text-gray-600">
        {total} {tab === "vouchers" ? (total === 1 ? "voucher" : "vouchers") : total === 1 ? "order" : "orders"}
      </p>

      {tab === "orders" ? (
        orders.length === 0 ? (
          <EmptyState
            title="No orders found"
            message={filtered ? "No order matches this search." : "Orders for your products appear here."}
          />
        ) : (
          <Table head={["Order", "Date", "Customer", "Product", "Mode", "Total", "Status", "Tracking", "Refund"]}>
            {orders.map((o) => (
              <tr key={o.id} className="align-top">
                <td className="px-4 py-2 whitespace-nowrap">
                  <Link to={`/order/${o.orderNumber}`} className="font-medium text-brand-700 hover:underline">
                    {o.orderNumber}
                  </Link>
                </td>
                <td className="px-4 py-2 whitespace-nowrap">
                  <DateText value={o.createdAt} />
                </td>
                <td className="px-4 py-2">
                  <p>{o.customerName ?? "—"}</p>
                  {o.customerEmail && o.customerEmail !== o.customerName ? (
                    <p className="text-xs text-gray-500">{o.customerEmail}</p>
                  ) : null}
                </td>
                <td className="px-4 py-2">
                  {o.productName}
                  {o.quantity > 1 ? ` × ${o.quantity}` : null}
                  <p className="text-xs text-gray-500 capitalize">{o.productCategory}</p>
                </td>
                <td className="px-4 py-2 whitespace-nowrap">{PURCHASE_MODE_TEXT[o.purchaseMode]}</td>
                <td className="px-4 py-2 whitespace-nowrap">{formatCents(o.amountCents, o.currency)}</td>
                <td className="px-4 py-2">
                  <StatusEditor key={`${o.id}:${o.status}`} order={o} redirectTo={current} pageError={rowError(o.id)} />
                  <NoScriptStatusForm order={o} redirectTo={current} />
                </td>
                <td className="px-4 py-2 whitespace-nowrap">
                  {o.trackingNumber ? (
                    <Link
                      to={`/shipping-tracking?tracking=${encodeURIComponent(o.trackingNumber)}`}
                      className="text-brand-700 hover:underline"
                    >
                      {o.trackingNumber}
                    </Link>
                  ) : (
                    "—"
                  )}
                  {o.carrier ? <p className="text-xs text-gray-500">{o.carrier}</p> : null}
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
          </Table>
        )
      ) : vouchers.length === 0 ? (
        <EmptyState
          title="No vouchers found"
          message={filtered ? "No voucher matches this search." : "Vouchers bought from your shop appear here."}
        />
      ) : (
        <Table head={["Code", "Order", "Product", "Customer", "Value", "Status", "Expires"]}>
          {vouchers.map((v) => (
            <tr key={v.id}>
              <td className="px-4 py-2 whitespace-nowrap">
                <Link to={`/voucher/${v.code}`} className="font-mono font-medium text-brand-700 hover:underline">
                  {v.code}
                </Link>
              </td>
              <td className="px-4 py-2 whitespace-nowrap">
                <Link to={`/order/${v.orderNumber}`} className="text-brand-700 hover:underline">
                  {v.orderNumber}
                </Link>
              </td>
              <td className="px-4 py-2">{v.productName}</td>
              <td className="px-4 py-2">
                <p>{v.customerName ?? "—"}</p>
                {v.customerEmail && v.customerEmail !== v.customerName ? (
                  <p className="text-xs text-gray-500">{v.customerEmail}</p>
                ) : null}
              </td>
              <td className="px-4 py-2 whitespace-nowrap">{formatCents(v.valueCents, v.currency)}</td>
              <td className="px-4 py-2">
                <StatusBadge status={v.status} />
              </td>
              <td className="px-4 py-2 whitespace-nowrap">
                <DateText value={v.expiresAt} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={hrefFor} />
    </Page>
  );
}
