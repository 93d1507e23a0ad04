// The order management screen's row pieces (/orders): the inline status editor (a fetcher, or a plain form without
// JavaScript), the refund cell and the buyers' open return requests. Their forms post to the /orders action.
import { useState } from "react";
import { useFetcher } from "react-router";
import { FormError } from "~/components/form";
import { Link } from "~/components/link";
import { buttonClass, DateText, StatusBadge } from "~/components/page";
import { RefundedAmount } from "~/components/refunds";
import type { searchHostOrders } from "~/db/queries/orders.server";
import type { listHostOpenReturnRequests } from "~/db/queries/returns.server";
import { formatAmount, formatCents } from "~/domain/money";
import { NOT_RECEIVED_TEXT, type orderRefundState, RETURN_REASON_MAX_LENGTH } from "~/domain/returns";
import { orderStatusText } from "~/domain/orders";
import { CARRIER_NAMES, isCarrierName, TRACKING_DESCRIPTION_MAX, TRACKING_LOCATION_MAX } from "~/domain/shipping";
import type { StatusUpdateResult } from "~/lib/order-filters";

/** One row of the host's order list as the loader sends it. */
type HostOrder = Awaited<ReturnType<typeof searchHostOrders>>[number] & {
  allowed: readonly string[];
  locked: boolean;
  refundState: ReturnType<typeof orderRefundState>;
  refundableCents: number;
};

/** One of the buyers' open return requests as the loader sends it. */
type ReturnRequestRow = Awaited<ReturnType<typeof listHostOpenReturnRequests>>[number] & {
  refundableCents: number;
};

const inputClass =
  "rounded-lg border border-gray-300 bg-white px-2 py-1 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none";

/** One order's status cell: the badge and Edit, or the inline form (status, tracking number, carrier, Save, Cancel). */
export function StatusEditor({
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
  // A successful save redirects (the page reloads its rows and shows the toast): the editor closes when the
  // submission ends without an answer (state adjusted while rendering, on the fetcher's busy-to-idle change).
  const [wasBusy, setWasBusy] = useState(false);
  if (fetcher.state !== "idle" && !wasBusy) setWasBusy(true);
  if (fetcher.state === "idle" && wasBusy) {
    setWasBusy(false);
    if (!fetcher.data) setEditing(false);
  }
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
            Carrier
          </label>
          <CarrierSelect id={`${fieldId}-carrier`} current={order.carrier} />
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

/** The carrier of a shipment, from the list (domain/shipping.ts); a carrier stored before the list stays chosen. */
function CarrierSelect({ id, current }: { id?: string; current: string | null }) {
  const known = isCarrierName(current);
  return (
    <select id={id} name="carrier" defaultValue={known ? current : ""} aria-label="Carrier" className={inputClass}>
      {/* Empty keeps the order's carrier (one stored before the list is shown as kept). */}
      <option value="">{current && !known ? `${current} (keep)` : "Choose a carrier"}</option>
      {CARRIER_NAMES.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </select>
  );
}

/** Without JavaScript every row has a plain form (status select, tracking, carrier, Save). */
export function NoScriptStatusForm({ order, redirectTo }: { order: HostOrder; redirectTo: string }) {
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
        <CarrierSelect current={order.carrier} />
        <button type="submit" className={buttonClass("primary", "sm")}>
          Save
        </button>
      </form>
    </noscript>
  );
}

/**
 * An order's tracking number (to the tracking page), carrier (with its tracking link) and, for a physical order the
 * host can still change, the form adding a tracking update (description, optional location, time).
 */
export function TrackingCell({
  order,
  redirectTo,
  actionData,
}: {
  order: HostOrder & { carrierLink: string | null };
  redirectTo: string;
  actionData: StatusUpdateResult | null;
}) {
  const fetcher = useFetcher<StatusUpdateResult>();
  const result = fetcher.state === "idle" ? (fetcher.data ?? actionData) : null;
  const fieldId = `tracking-${order.id}`;
  return (
    <div className="flex min-w-28 flex-col gap-1">
      {order.trackingNumber ? (
        <Link
          to={`/shipping-tracking?tracking=${encodeURIComponent(order.trackingNumber)}`}
          className="text-brand-700 hover:underline"
        >
          {order.trackingNumber}
        </Link>
      ) : (
        <span>—</span>
      )}
      {order.carrier ? (
        <p className="text-xs text-gray-500">
          {order.carrier}
          {order.carrierLink ? (
            <>
              {" · "}
              <a href={order.carrierLink} target="_blank" rel="noopener noreferrer" className="hover:underline">
                carrier's page
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      {order.productCategory === "physical" && !order.locked ? (
        <details open={result ? true : undefined}>
          <summary className="cursor-pointer text-sm font-semibold text-brand-700">Add tracking update</summary>
          <fetcher.Form
            method="post"
            className="mt-2 flex flex-col gap-2"
            aria-label={`Add a tracking update to order ${order.orderNumber}`}
            onSubmit={(e) => {
              // The time is the host's wall clock: the server reads it with the browser's offset from UTC.
              const offset = e.currentTarget.elements.namedItem("tzOffset");
              if (offset instanceof HTMLInputElement) offset.value = String(new Date().getTimezoneOffset());
            }}
          >
            <input type="hidden" name="intent" value="add-tracking" />
            <input type="hidden" name="orderId" value={order.id} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <input type="hidden" name="tzOffset" defaultValue="0" />
            <label htmlFor={`${fieldId}-description`} className="text-xs text-gray-600">
              What happened
            </label>
            <input
              id={`${fieldId}-description`}
              name="description"
              required
              maxLength={TRACKING_DESCRIPTION_MAX}
              placeholder="Arrived at the sorting hub"
              className={inputClass}
            />
            <label htmlFor={`${fieldId}-location`} className="text-xs text-gray-600">
              Location (optional)
            </label>
            <input
              id={`${fieldId}-location`}
              name="location"
              maxLength={TRACKING_LOCATION_MAX}
              className={inputClass}
            />
            <label htmlFor={`${fieldId}-time`} className="text-xs text-gray-600">
              When (empty: now)
            </label>
            <input id={`${fieldId}-time`} name="time" type="datetime-local" className={inputClass} />
            {result ? (
              <p role="alert" className="text-xs text-red-700">
                {result.message}
              </p>
            ) : null}
            <button type="submit" disabled={fetcher.state !== "idle"} className={buttonClass("primary", "sm")}>
              {fetcher.state !== "idle" ? "Adding..." : "Add update"}
            </button>
          </fetcher.Form>
        </details>
      ) : null}
    </div>
  );
}

/** An order's refund state and refunded amount, and the host's refund form (amount, optional reason). */
export function RefundCell({
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
    <div className="flex min-w-28 flex-col gap-2">
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
      {request.kind === "not_received" ? (
        <p className="mt-1 text-sm font-medium text-amber-800">
          {NOT_RECEIVED_TEXT}: the sale's earnings are on hold until you answer
        </p>
      ) : null}
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

export function ReturnRequests({
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
