import { Link } from "react-router";
import { DateText, EmptyState, LinkButton, Page, pageMeta, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listBuyerOrders } from "~/db/queries/orders.server";
import { formatCents } from "~/domain/money";
import { physicalOrderAction, voucherUsability } from "~/domain/orders";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/my-orders";

export const meta: Route.MetaFunction = () => pageMeta("My Orders");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const orders = await listBuyerOrders(getDb(getEnv(context)), user.id, 20);
  return { orders };
}

type Order = Route.ComponentProps["loaderData"]["orders"][number];

function OrderAction({ order }: { order: Order }) {
  const link = "text-sm font-semibold text-brand-700 hover:underline";
  if (order.productCategory === "voucher") {
    const usability = voucherUsability(order.voucherStatus);
    return usability.usable && order.voucherCode ? (
      <Link to={`/voucher/${order.voucherCode}`} className={link}>
        {usability.label}
      </Link>
    ) : (
      <span className="text-sm text-gray-500">{order.voucherCode ? usability.label : "Voucher pending"}</span>
    );
  }
  if (order.productCategory === "digital") {
    return (
      <Link to={`/order/${order.orderNumber}`} className={link}>
        View Order
      </Link>
    );
  }
  const action = physicalOrderAction(order.status);
  return action === "Track Order" && order.trackingNumber ? (
    <Link to={`/shipping-tracking?tracking=${encodeURIComponent(order.trackingNumber)}`} className={link}>
      Track Order
    </Link>
  ) : (
    <Link to={`/order/${order.orderNumber}`} className={link}>
      View Order
    </Link>
  );
}

export default function MyOrders({ loaderData }: Route.ComponentProps) {
  const { orders } = loaderData;
  return (
    <Page title="My Orders" subtitle="Your latest 20 orders, newest first." actions={<LinkButton to="/shop" variant="secondary">Browse Shop</LinkButton>}>
      {orders.length === 0 ? (
        <EmptyState title="No orders found" message="Things you buy appear here." action={{ to: "/shop", label: "Browse Shop" }} />
      ) : (
        <ul className="space-y-3">
          {orders.map((o) => (
            <li key={o.id} className="flex gap-4 rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
              <div className="h-16 w-16 shrink-0 overflow-hidden rounded-lg bg-gray-100">
                {o.productImage ? <img src={o.productImage} alt="" className="h-full w-full object-cover" /> : null}
              </div>
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="truncate font-semibold text-gray-900">{o.productName}</p>
                    <p className="text-xs text-gray-500">
                      {o.orderNumber} · <DateText value={o.createdAt} />
                      {o.hostName ? ` · ${o.hostName}` : null}
                    </p>
                  </div>
                  <StatusBadge status={o.status} />
                </div>
                <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                  <p className="text-sm text-gray-700">
                    {formatCents(o.amountCents, o.currency)}
                    {o.quantity > 1 ? ` · qty ${o.quantity}` : null}
                    {o.sizeName ? ` · ${o.sizeName}` : null}
                    {o.colorName ? ` · ${o.colorName}` : null}
                  </p>
                  <OrderAction order={o} />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
