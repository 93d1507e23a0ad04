import { Link } from "react-router";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Card, DateText, Page, pageMeta, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getOrderById } from "~/db/queries/orders.server";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/transaction";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Transaction ${loaderData.order.orderNumber}` : errorTitle(error, "Transaction Not Found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const id = idParam(params.id);
  const order = await getOrderById(getDb(getEnv(context)), id);
  // Someone else's transaction is answered like a missing one.
  if (!order || (order.hostId !== user.id && order.userId !== user.id)) notFound();
  return {
    order: {
      orderNumber: order.orderNumber,
      productName: order.productName,
      status: order.status,
      purchaseMode: order.purchaseMode,
      quantity: order.quantity,
      amount: formatCents(order.amountCents, order.currency),
      refunded: order.refundedCents > 0 ? formatCents(order.refundedCents, order.currency) : null,
      customerName: order.hostId === user.id ? order.customerName : null,
      createdAt: order.createdAt,
    },
  };
}

export default function Transaction({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  return (
    <Page title="Transaction" subtitle={`Shop sale · ${order.orderNumber}`} width="narrow" back={{ to: "/revenue", label: "Back to Revenue" }}>
      <Card>
        <div className="flex items-start justify-between gap-2">
          <p className="font-semibold text-gray-900">{order.productName}</p>
          <StatusBadge status={order.status} />
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-gray-500">Amount</dt>
            <dd className="font-medium">{order.amount}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Date</dt>
            <dd className="font-medium">
              <DateText value={order.createdAt} withTime />
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Quantity</dt>
            <dd className="font-medium">{order.quantity}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Purchase mode</dt>
            <dd className="font-medium">{order.purchaseMode === "group-buy" ? "Group buy" : "Buy now"}</dd>
          </div>
          {order.customerName ? (
            <div>
              <dt className="text-gray-500">Customer</dt>
              <dd className="font-medium">{order.customerName}</dd>
            </div>
          ) : null}
          {order.refunded ? (
            <div>
              <dt className="text-gray-500">Refunded</dt>
              <dd className="font-medium">{order.refunded}</dd>
            </div>
          ) : null}
        </dl>
        <p className="mt-4 text-sm">
          <Link to={`/order/${order.orderNumber}`} className="font-semibold text-brand-700 hover:underline">
            View order {order.orderNumber}
          </Link>
        </p>
      </Card>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Transaction Not Found",
        message: "The transaction you're looking for doesn't exist or has been removed.",
        action: { to: "/revenue", label: "Return to Revenue" },
      }}
    />
  );
}
