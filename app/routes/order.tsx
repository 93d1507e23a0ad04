import { Link } from "react-router";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Card, DateText, Page, pageMeta, StatusBadge } from "~/components/page";
import { ShippingTimeline } from "~/components/shipping-timeline";
import { getDb } from "~/db/client.server";
import { getOrderByNumber, listShippingUpdates } from "~/db/queries/orders.server";
import { formatCents } from "~/domain/money";
import { idParam, notFound, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/order";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Order ${loaderData.order.orderNumber}` : errorTitle(error, "Order not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const db = getDb(getEnv(context));
  const order = await getOrderByNumber(db, idParam(params.orderNumber));
  // Only the buyer (signed in, or paid with their e-mail as on /my-orders) and the host may see an order; to anyone
  // else it does not exist.
  const isBuyer = order ? order.userId === user.id || (order.customerEmail !== null && order.customerEmail === user.email.toLowerCase()) : false;
  if (!order || (!isBuyer && order.hostId !== user.id)) notFound();
  const updates = await listShippingUpdates(db, order.id, 50);
  const isHost = order.hostId === user.id;
  return {
    isHost,
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
      estimatedDeliveryAt: order.estimatedDeliveryAt,
      entryNumber: order.entryNumber,
      shippingAddress: order.shippingAddress,
      customerName: isHost ? order.customerName : null,
      createdAt: order.createdAt,
    },
    updates,
  };
}

export default function Order({ loaderData }: Route.ComponentProps) {
  const { order, updates, isHost } = loaderData;
  const address = order.shippingAddress;
  return (
    <Page
      title={`Order ${order.orderNumber}`}
      subtitle={<>Placed <DateText value={order.createdAt} withTime /></>}
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
            <dd className="font-medium">{order.entryNumber ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Tracking number</dt>
            <dd className="font-medium">
              {order.trackingNumber ? (
                <Link to={`/shipping-tracking?tracking=${encodeURIComponent(order.trackingNumber)}`} className="text-brand-700 hover:underline">
                  {order.trackingNumber}
                </Link>
              ) : (
                "TBD"
              )}
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Carrier</dt>
            <dd className="font-medium">{order.carrier ?? "TBD"}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Estimated delivery</dt>
            <dd className="font-medium">{order.estimatedDeliveryAt ? <DateText value={order.estimatedDeliveryAt} /> : "TBD"}</dd>
          </div>
          {address ? (
            <div className="col-span-2">
              <dt className="text-gray-500">Ship to</dt>
              <dd className="font-medium">
                {address.name}, {address.street}, {address.city} {address.state} {address.postal_code}, {address.country}
              </dd>
            </div>
          ) : null}
        </dl>
      </Card>
      <div className="mt-4">
        <ShippingTimeline title="Shipping updates" updates={updates} />
      </div>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} notFound={{ title: "Order not found", message: "This order doesn't exist or isn't yours.", action: { to: "/my-orders", label: "Back to My Orders" } }} />;
}
