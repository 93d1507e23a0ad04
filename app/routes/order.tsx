import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { FormError } from "~/components/form";
import { buttonClass, Card, DateText, Page, pageMeta, StatusBadge } from "~/components/page";
import { RefundedAmount, RefundList, ReturnStatusBadge } from "~/components/refunds";
import { CarrierWithLink, ShippingTimeline } from "~/components/shipping-timeline";
import { getDb } from "~/db/client.server";
import { getOrderByNumber, listShippingUpdates } from "~/db/queries/orders.server";
import { listOrderRefunds, listOrderReturnRequests } from "~/db/queries/returns.server";
import { formatCents } from "~/domain/money";
import { entryStandingText, returnDeadline } from "~/domain/payments";
import { NOT_RECEIVED_TEXT, orderRefundState, RETURN_REASON_MAX_LENGTH, returnEligibility } from "~/domain/returns";
import { effectiveDeliveredAt, notReceivedRefusal, trackingLink } from "~/domain/shipping";
import { idParam, notFound, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { isOrderBuyer, requestReturn, ReturnRequestSchema } from "~/lib/returns.server";
import { flashToastCookie } from "~/lib/toast.server";
import { reportNotReceived } from "~/lib/shipping.server";
import { parseSubmission } from "~/lib/validation";
import type { Route } from "./+types/order";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Order ${loaderData.order.orderNumber}` : errorTitle(error, "Order not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const db = getDb(getEnv(context));
  const order = await getOrderByNumber(db, idParam(params.orderNumber));
  // Only the buyer (the account whose order it is, by id) and the host may see an order; to anyone
  // else it does not exist.
  const isBuyer = order ? isOrderBuyer(order, user) : false;
  if (!order || (!isBuyer && order.hostId !== user.id)) notFound();
  const [updates, refunds, returns] = await Promise.all([
    listShippingUpdates(db, order.id, 50),
    listOrderRefunds(db, [order.id]),
    listOrderReturnRequests(db, order.id),
  ]);
  const isHost = order.hostId === user.id;
  const now = new Date();
  const hasOpenRequest = returns.some((r) => r.status === "requested");
  const eligibility = returnEligibility({ ...order, hasOpenRequest }, now);
  const delivered = effectiveDeliveredAt(order);
  return {
    isHost,
    refund: {
      state: orderRefundState(order),
      refundedCents: order.refundedCents,
      amountCents: order.amountCents,
      currency: order.currency,
      // The reason an undeliverable order was refunded, unless a refund line already says it.
      note: order.refundReason && !refunds.some((r) => r.reason === order.refundReason) ? order.refundReason : null,
      lines: refunds,
    },
    returns,
    returnPolicy: {
      // Only the buyer asks for a return; the form shows while the window is open and no request is waiting.
      canRequest: isBuyer && !isHost && eligibility.ok,
      deadline: delivered ? returnDeadline(delivered) : null,
      // A shipped order may be reported as not received in the same window (docs/product.md#shipping-and-delivery).
      canReportNotReceived: isBuyer && !isHost && eligibility.ok && notReceivedRefusal(order, now) === null,
    },
    order: {
      orderNumber: order.orderNumber,
      productId: order.productId,
      productName: order.productName,
      productImage: order.productImage,
      hostName: order.hostName,
      status: order.status,
      total: formatCents(order.amountCents, order.currency),
      quantity: order.quantity,
      sizeName: order.sizeName,
      colorName: order.colorName,
      trackingNumber: order.trackingNumber,
      carrier: order.carrier,
      carrierLink: trackingLink(order.carrier, order.trackingNumber),
      estimatedDeliveryAt: order.estimatedDeliveryAt,
      entryNumber: order.entryNumber,
      // Why the entry does not count (a refund took it out; a closed pool's draw did not have it), or null.
      entryStanding: entryStandingText(order),
      shippingAddress: order.shippingAddress,
      customerName: isHost ? order.customerName : null,
      createdAt: order.createdAt,
    },
    updates,
  };
}

type ReturnActionData = {
  ok: false;
  message: string;
  fieldErrors: Record<string, string>;
  values: Record<string, string>;
};

/**
 * The buyer asks to return the order (intent "request-return"), within 7 days of delivery, with a reason, or reports
 * it as not received (intent "not-received") in the same window.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const form = await request.formData();
  if (form.get("intent") === "not-received") {
    const order = await getOrderByNumber(getDb(env), idParam(params.orderNumber));
    if (!order || !isOrderBuyer(order, user)) notFound();
    const outcome = await reportNotReceived(env, user, order.id);
    if (!outcome.ok)
      return data<ReturnActionData>(
        { ok: false, message: outcome.message, fieldErrors: {}, values: {} },
        { status: outcome.status },
      );
    return redirect(`/order/${order.orderNumber}`, {
      headers: { "Set-Cookie": flashToastCookie({ message: outcome.message, type: "success" }) },
    });
  }
  if (form.get("intent") !== "request-return") {
    return data<ReturnActionData>(
      { ok: false, message: "Unknown action", fieldErrors: {}, values: {} },
      { status: 400 },
    );
  }
  const order = await getOrderByNumber(getDb(env), idParam(params.orderNumber));
  if (!order || !isOrderBuyer(order, user)) notFound();
  const submission = parseSubmission(ReturnRequestSchema, form, ["reason"]);
  if (!submission.ok) {
    const message = submission.fieldErrors.reason ?? submission.formError ?? "Please check the form";
    return data<ReturnActionData>(
      { ok: false, message, fieldErrors: submission.fieldErrors, values: submission.values },
      { status: 400 },
    );
  }
  const outcome = await requestReturn(env, user, order.id, submission.value.reason);
  if (!outcome.ok) {
    return data<ReturnActionData>(
      { ok: false, message: outcome.message, fieldErrors: {}, values: { reason: submission.value.reason } },
      { status: outcome.status },
    );
  }
  return redirect(`/order/${order.orderNumber}`, {
    headers: { "Set-Cookie": flashToastCookie({ message: outcome.message, type: "success" }) },
  });
}

function ReturnSection({
  loaderData,
  actionData,
}: {
  loaderData: Route.ComponentProps["loaderData"];
  actionData: ReturnActionData | undefined;
}) {
  const { returns, returnPolicy, isHost } = loaderData;
  const submitting = useNavigation().state === "submitting";
  if (returns.length === 0 && !returnPolicy.canRequest && !actionData) return null;
  return (
    <Card className="mt-4">
      <h2 className="text-base font-semibold text-gray-900">Returns</h2>
      <p className="mt-1 text-sm text-gray-600">
        7-day return policy
        {returnPolicy.deadline ? (
          <>
            {" "}
            · returns can be asked for until <DateText value={returnPolicy.deadline} withTime />
          </>
        ) : null}
      </p>
      {returns.length > 0 ? (
        <ul className="mt-3 space-y-3 text-sm">
          {returns.map((r) => (
            <li key={r.id} className="rounded-lg border border-gray-200 p-3">
              <div className="flex flex-wrap items-center gap-2">
                <ReturnStatusBadge status={r.status} />
                {r.kind === "not_received" ? (
                  <span className="font-medium text-gray-900">{NOT_RECEIVED_TEXT}</span>
                ) : null}
                <span className="text-gray-500">
                  asked <DateText value={r.createdAt} />
                  {r.decidedAt ? (
                    <>
                      {" "}
                      · answered <DateText value={r.decidedAt} />
                    </>
                  ) : null}
                </span>
              </div>
              <p className="mt-1 text-gray-700">Reason: {r.reason}</p>
              {r.declineReason ? <p className="mt-1 text-gray-700">Host's answer: {r.declineReason}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {isHost && returns.some((r) => r.status === "requested") ? (
        <p className="mt-3 text-sm">
          <Link to="/orders?tab=orders" className="font-semibold text-brand-700 hover:underline">
            Answer this return request on Customer Orders
          </Link>
        </p>
      ) : null}
      {returnPolicy.canRequest ? (
        <Form method="post" className="mt-4 space-y-2" aria-label="Request a return">
          <input type="hidden" name="intent" value="request-return" />
          <label htmlFor="return-reason" className="block text-sm font-medium text-gray-700">
            Why do you want to return it?
          </label>
          <textarea
            id="return-reason"
            name="reason"
            required
            maxLength={RETURN_REASON_MAX_LENGTH}
            rows={3}
            defaultValue={actionData?.values.reason ?? ""}
            aria-invalid={actionData ? true : undefined}
            className="block w-full rounded-lg border border-gray-300 px-3 py-2 text-sm"
          />
          <FormError>{actionData?.message}</FormError>
          <button type="submit" disabled={submitting} className={buttonClass("primary", "sm")}>
            {submitting ? "Sending..." : "Request a return"}
          </button>
        </Form>
      ) : actionData ? (
        <div className="mt-3">
          <FormError>{actionData.message}</FormError>
        </div>
      ) : null}
      {returnPolicy.canReportNotReceived ? (
        <Form method="post" className="mt-4 border-t border-gray-100 pt-4" aria-label="Report not received">
          <input type="hidden" name="intent" value="not-received" />
          <p className="text-sm text-gray-600">
            Has it not reached you? Tell the host: the payment is held until this is resolved.
          </p>
          <button type="submit" disabled={submitting} className={`mt-2 ${buttonClass("secondary", "sm")}`}>
            Report not received
          </button>
        </Form>
      ) : null}
    </Card>
  );
}

function RefundSection({ refund }: { refund: Route.ComponentProps["loaderData"]["refund"] }) {
  if (refund.state === "none" && refund.lines.length === 0 && !refund.note) return null;
  return (
    <Card className="mt-4">
      <h2 className="text-base font-semibold text-gray-900">Refunds</h2>
      <div className="mt-2 space-y-2">
        <RefundedAmount
          state={refund.state}
          refundedCents={refund.refundedCents}
          amountCents={refund.amountCents}
          currency={refund.currency}
        />
        <RefundList lines={refund.lines} />
        {refund.note ? <p className="text-sm text-gray-700">Refund reason: {refund.note}</p> : null}
      </div>
    </Card>
  );
}

export default function Order({ loaderData, actionData }: Route.ComponentProps) {
  const { order, updates, isHost, refund } = loaderData;
  const address = order.shippingAddress;
  return (
    <Page
      title={`Order ${order.orderNumber}`}
      subtitle={
        <>
          Placed <DateText value={order.createdAt} withTime />
        </>
      }
      width="narrow"
      back={isHost ? { to: "/orders", label: "Back to Orders" } : { to: "/my-orders", label: "Back to My Orders" }}
      actions={<StatusBadge status={order.status} />}
    >
      <Card>
        <div className="flex gap-4">
          <div className="h-20 w-20 shrink-0 overflow-hidden rounded-lg bg-gray-100">
            {order.productImage ? <img src={order.productImage} alt="" className="h-full w-full object-cover" /> : null}
          </div>
          <div className="min-w-0">
            <Link to={`/product/${order.productId}`} className="font-semibold text-gray-900 hover:underline">
              {order.productName}
            </Link>
            {order.hostName ? <p className="text-sm text-gray-600">from {order.hostName}</p> : null}
            <p className="mt-1 text-sm text-gray-700">
              {order.total} · qty {order.quantity}
              {order.sizeName ? ` · ${order.sizeName}` : null}
              {order.colorName ? ` · ${order.colorName}` : null}
            </p>
          </div>
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-gray-500">Amount</dt>
            <dd className="font-medium">{order.total}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Purchase date</dt>
            <dd className="font-medium">
              <DateText value={order.createdAt} withTime />
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Quantity</dt>
            <dd className="font-medium">{order.quantity}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Status</dt>
            <dd className="font-medium">
              <StatusBadge status={order.status} />
            </dd>
          </div>
          {order.sizeName || order.colorName ? (
            <div>
              <dt className="text-gray-500">Size / colour</dt>
              <dd className="font-medium">{[order.sizeName, order.colorName].filter(Boolean).join(" / ")}</dd>
            </div>
          ) : null}
          {order.customerName ? (
            <div>
              <dt className="text-gray-500">Customer</dt>
              <dd className="font-medium">{order.customerName}</dd>
            </div>
          ) : null}
          <div>
            <dt className="text-gray-500">Prize entry number</dt>
            <dd className="font-medium">
              {order.entryNumber ?? "—"}
              {order.entryStanding ? (
                <span
                  className="font-normal text-gray-600"
                  data-testid="entry-standing"
                >{` · ${order.entryStanding}`}</span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Tracking number</dt>
            <dd className="font-medium">
              {order.trackingNumber ? (
                <Link
                  to={`/shipping-tracking?tracking=${encodeURIComponent(order.trackingNumber)}`}
                  className="text-brand-700 hover:underline"
                >
                  {order.trackingNumber}
                </Link>
              ) : (
                "TBD"
              )}
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Carrier</dt>
            <dd className="font-medium">
              <CarrierWithLink carrier={order.carrier} link={order.carrierLink} />
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Estimated delivery</dt>
            <dd className="font-medium">
              {order.estimatedDeliveryAt ? <DateText value={order.estimatedDeliveryAt} /> : "TBD"}
            </dd>
          </div>
          {address ? (
            <div className="col-span-2">
              <dt className="text-gray-500">Ship to</dt>
              <dd className="font-medium">
                {address.name}, {address.street}, {address.city} {address.state} {address.postal_code},{" "}
                {address.country}
              </dd>
            </div>
          ) : null}
        </dl>
      </Card>
      <RefundSection refund={refund} />
      <ReturnSection loaderData={loaderData} actionData={actionData} />
      <div className="mt-4">
        <ShippingTimeline title="Shipping updates" updates={updates} />
      </div>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Order not found",
        message: "This order doesn't exist or isn't yours.",
        action: { to: "/my-orders", label: "Back to My Orders" },
      }}
    />
  );
}
