import { data, Form, redirect, useSearchParams } from "react-router";
import { z } from "zod";
import { CLIENT_LINKS } from "~/components/link";
import {
  Badge,
  Card,
  DateText,
  EmptyState,
  LinkButton,
  Page,
  pageMeta,
  Pagination,
  Stat,
  StatusBadge,
} from "~/components/page";
import { getDb } from "~/db/client.server";
import { RefundedAmount, refundSummaryText, ReturnStatusBadge } from "~/components/refunds";
import { buyerOrderPageIds, buyerOrderStats, getOrderById, listBuyerOrders } from "~/db/queries/orders.server";
import { listAwaitingPayments } from "~/db/queries/checkout.server";
import { latestReturnRequests, listOrderRefunds } from "~/db/queries/returns.server";
import { formatCents } from "~/domain/money";
import { orderRefundState } from "~/domain/returns";
import { entryStandingText } from "~/domain/payments";
import { physicalOrderAction } from "~/domain/orders";
import { voucherCardStatus } from "~/domain/vouchers";
import { VoucherStatusBadge } from "~/components/voucher-status";
import { viewerSession } from "~/lib/auth.server";
import { requireUser, signinRedirectUrl } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { signedDownloadUrl } from "~/lib/downloads.server";
import { isOrderBuyer } from "~/lib/returns.server";
import type { Route } from "./+types/my-orders";
import { searchQuerySchema } from "~/domain/search";

export const meta: Route.MetaFunction = () => pageMeta("My Orders");

const FilterSchema = z.object({
  q: searchQuerySchema,
  type: z.enum(["voucher", "physical", "digital"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1000).optional().catch(undefined),
});

const TYPE_OPTIONS = [
  { value: "", label: "All Types" },
  { value: "voucher", label: "Vouchers" },
  { value: "physical", label: "Physical" },
  { value: "digital", label: "Digital" },
] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  // A visitor without a session goes to sign in at once; a session that turns out unknown or expired does below.
  const buyer = viewerSession(context);
  if (!buyer) throw redirect(signinRedirectUrl(request));
  const filter = FilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const db = getDb(getEnv(context));
  const filters = { buyer, q: filter.q || undefined, type: filter.type, page: filter.page };
  // One batch with the session's lookup: the orders are read by the session, and the page's refunds and returns for
  // the listed orders through a subquery of their ids.
  const pageIds = buyerOrderPageIds(db, filters);
  const [, list, stats, refunds, returns, awaiting] = await Promise.all([
    requireUser(context, request),
    listBuyerOrders(db, filters),
    buyerOrderStats(db, buyer),
    listOrderRefunds(db, pageIds),
    latestReturnRequests(db, pageIds),
    // A bank transfer that has not arrived yet (docs/product.md#shipping-and-delivery): shown on the first page.
    (filters.page ?? 1) === 1 ? listAwaitingPayments(db, buyer) : [],
  ]);
  // Each row carries what the page shows and nothing else: the loader's data is written into the page for hydration.
  const now = Date.now();
  const orders = list.orders.map((o) => {
    const lines = refunds.filter((r) => r.orderId === o.id);
    return {
      id: o.id,
      orderNumber: o.orderNumber,
      productName: o.productName,
      productImage: o.productImage,
      productCategory: o.productCategory,
      status: o.status,
      amountCents: o.amountCents,
      currency: o.currency,
      quantity: o.quantity,
      sizeName: o.sizeName,
      colorName: o.colorName,
      trackingNumber: o.trackingNumber,
      createdAt: o.createdAt,
      hostName: o.hostName,
      entryNumber: o.entryNumber,
      voucherCode: o.voucherCode,
      // An issued voucher's card shows the voucher's one status (Valid, Used, Expired, Refunded), not the order's.
      voucherStatus:
        o.voucherCode && o.voucherStatus && o.voucherExpiresAt
          ? voucherCardStatus(o.voucherStatus, o.voucherExpiresAt, now)
          : null,
      refundedCents: o.refundedCents,
      refundState: orderRefundState(o),
      // Why it was refunded: each refund's reason (group-buy tier, return, host), or the undeliverable order's.
      // A refund that did not go through says so first.
      refundReasons:
        lines.length > 0 ? [...new Set(lines.map(refundSummaryText))] : o.refundReason ? [o.refundReason] : [],
      entryStanding: entryStandingText(o),
      returnStatus: returns.get(o.id)?.status ?? null,
    };
  });
  const awaitingPayments = awaiting.map((p) => ({
    id: p.id,
    description: p.description ?? "Your purchase",
    amount: formatCents(p.amountCents, p.currency),
    createdAt: p.createdAt,
  }));
  return { ...list, orders, stats, awaitingPayments, filtered: Boolean(filter.q || filter.type) };
}

/** Orders whose digital file may be downloaded (paid and not closed). */
const DOWNLOADABLE_STATUSES = new Set(["paid", "processing", "pending_shipping", "shipped", "delivered", "completed"]);
const DOWNLOAD_UNAVAILABLE = "This download is not available for this order";

type DownloadResult = { ok: false; message: string; orderId: string | null };

/** Download: the buyer's own paid digital order is sent to a short-lived signed link for its file. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const form = await request.formData();
  const orderId = form.get("orderId");
  if (form.get("intent") !== "download" || typeof orderId !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(orderId)) {
    return data<DownloadResult>({ ok: false, message: "Order not found", orderId: null }, { status: 404 });
  }
  const env = getEnv(context);
  const order = await getOrderById(getDb(env), orderId);
  if (!order || !isOrderBuyer(order, user))
    return data<DownloadResult>({ ok: false, message: "Order not found", orderId: null }, { status: 404 });
  // The download endpoint serves the account that placed the order, once it is paid.
  if (order.productCategory !== "digital" || order.userId !== user.id || !DOWNLOADABLE_STATUSES.has(order.status)) {
    return data<DownloadResult>({ ok: false, message: DOWNLOAD_UNAVAILABLE, orderId: order.id }, { status: 409 });
  }
  return redirect(signedDownloadUrl(env, { orderId: order.id, userId: user.id }));
}

type Order = Route.ComponentProps["loaderData"]["orders"][number];

function OrderAction({ order }: { order: Order }) {
  const link = "text-sm font-semibold text-brand-700 hover:underline";
  if (order.productCategory === "voucher") {
    // The status is the card's badge; the action opens the voucher: to use it while valid, else to see it.
    if (!order.voucherCode || !order.voucherStatus)
      return <span className="text-sm text-gray-500">Voucher pending</span>;
    return (
      <a href={`/voucher/${order.voucherCode}`} className={link}>
        {order.voucherStatus === "valid" ? "Use Voucher" : "View Voucher"}
      </a>
    );
  }
  if (order.productCategory === "digital") {
    // A native form post (reloadDocument): the action redirects to the signed file link, which the browser downloads.
    return (
      <Form method="post" reloadDocument>
        <input type="hidden" name="intent" value="download" />
        <input type="hidden" name="orderId" value={order.id} />
        <button type="submit" className={link}>
          Download
        </button>
      </Form>
    );
  }
  const action = physicalOrderAction(order.status);
  // Tracking by number once the host has given one; before that (processing) the order page shows its progress.
  const to =
    action === "Track Order" && order.trackingNumber
      ? `/shipping-tracking?tracking=${encodeURIComponent(order.trackingNumber)}`
      : `/order/${order.orderNumber}`;
  return (
    <a href={to} className={link}>
      {action}
    </a>
  );
}

export default function MyOrders({ loaderData, actionData }: Route.ComponentProps) {
  const { orders, stats, page, hasNext, filtered, awaitingPayments } = loaderData;
  const [params] = useSearchParams();
  const hrefFor = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(p));
    return `?${next}`;
  };
  return (
    <Page
      title="My Orders"
      subtitle="Everything you bought, newest first."
      actions={
        <LinkButton to="/shop" variant="secondary">
          Browse Shop
        </LinkButton>
      }
    >
      <div className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Orders" value={stats.total} />
        <Stat label="Total spent" value={formatCents(stats.spentCents, "USD")} />
        <Stat label="On the way" value={stats.inTransit} />
        <Stat label="Prize pool entries" value={stats.entries} />
      </div>
      {actionData ? (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
          {actionData.message}
        </p>
      ) : null}
      {awaitingPayments.length > 0 ? (
        <Card className="mb-6">
          <h2 className="font-semibold text-gray-900">Awaiting payment</h2>
          <p className="text-xs text-gray-500">
            Bank transfers that have not arrived yet: your order is confirmed when the money arrives.
          </p>
          <ul className="mt-3 space-y-2" aria-label="Awaiting payment">
            {awaitingPayments.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                <span>
                  <span className="font-medium text-gray-900">{p.description}</span>
                  <span className="text-gray-500">
                    {" · "}
                    <DateText value={p.createdAt} />
                  </span>
                </span>
                <span className="flex items-center gap-2">
                  <span className="font-medium">{p.amount}</span>
                  <Badge tone="yellow">Awaiting payment</Badge>
                </span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Form method="get" className="mb-6 flex flex-col gap-2 sm:flex-row" role="search">
        <label className="sr-only" htmlFor="orders-q">
          Search by product name or creator
        </label>
        <input
          id="orders-q"
          name="q"
          type="search"
          defaultValue={params.get("q") ?? ""}
          placeholder="Search by product name or creator"
          className="flex-1 rounded-lg border border-gray-300 px-3 py-2 text-sm"
        />
        <label className="sr-only" htmlFor="orders-type">
          Type
        </label>
        <select
          id="orders-type"
          name="type"
          defaultValue={params.get("type") ?? ""}
          className="rounded-lg border border-gray-300 px-3 py-2 text-sm"
        >
          {TYPE_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <button
          type="submit"
          className="rounded-lg bg-gray-900 px-4 py-2 text-sm font-semibold text-white hover:bg-gray-800"
        >
          Search
        </button>
      </Form>
      {orders.length === 0 ? (
        <EmptyState
          title="No orders found"
          message={filtered ? "No order matches this search." : "Things you buy appear here."}
          action={{ to: "/shop", label: "Browse Shop" }}
        />
      ) : (
        // Rows styled by place (app.css, "order rows"); their plain links navigate on the client (a CLIENT_LINKS list).
        <ul className="order-rows" {...CLIENT_LINKS}>
          {orders.map((o) => (
            <li key={o.id}>
              <span>{o.productImage ? <img src={o.productImage} alt="" /> : null}</span>
              <div>
                <div>
                  <div>
                    <p>{o.productName}</p>
                    <p>
                      {o.orderNumber} · <DateText value={o.createdAt} />
                      {o.hostName ? ` · ${o.hostName}` : null}
                    </p>
                  </div>
                  {o.voucherStatus ? (
                    <VoucherStatusBadge status={o.voucherStatus} />
                  ) : (
                    <StatusBadge status={o.status} />
                  )}
                </div>
                <div>
                  <p>
                    {formatCents(o.amountCents, o.currency)}
                    {o.quantity > 1 ? ` · qty ${o.quantity}` : null}
                    {o.sizeName ? ` · ${o.sizeName}` : null}
                    {o.colorName ? ` · ${o.colorName}` : null}
                  </p>
                  <OrderAction order={o} />
                </div>
                {o.refundState !== "none" || o.refundReasons.length > 0 || o.returnStatus ? (
                  <div className="mt-2 space-y-1" data-testid="order-refund">
                    <div className="flex flex-wrap items-center gap-2">
                      <RefundedAmount
                        state={o.refundState}
                        refundedCents={o.refundedCents}
                        amountCents={o.amountCents}
                        currency={o.currency}
                      />
                      {o.returnStatus ? <ReturnStatusBadge status={o.returnStatus} /> : null}
                    </div>
                    {o.refundReasons.map((reason) => (
                      <p key={reason} className="text-xs text-gray-600">
                        {reason}
                      </p>
                    ))}
                  </div>
                ) : null}
                {o.entryNumber !== null ? (
                  <p className={`mt-1 text-xs font-medium ${o.entryStanding ? "text-gray-600" : "text-emerald-700"}`}>
                    Prize pool entry #{o.entryNumber}
                    {o.hostName ? ` in ${o.hostName}'s pool` : null}
                    {o.entryStanding ? ` · ${o.entryStanding}` : null}
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={hrefFor} />
    </Page>
  );
}
