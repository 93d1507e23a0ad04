import { Link } from "react-router";
import { Table } from "~/components/cards";
import { DateText, EmptyState, LinkButton, Page, pageMeta, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listHostOrders } from "~/db/queries/orders.server";
import { listHostVouchers } from "~/db/queries/vouchers.server";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/orders";

// One screen under two paths: /orders opens on the Orders tab, /voucher-management on the Vouchers tab.
type Tab = "vouchers" | "orders";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(loaderData?.tab === "vouchers" ? "Voucher Management" : "Customer Orders");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const url = new URL(request.url);
  const requested = url.searchParams.get("tab");
  const tab: Tab =
    requested === "vouchers" || requested === "orders" ? requested : url.pathname.startsWith("/voucher-management") ? "vouchers" : "orders";
  const db = getDb(getEnv(context));
  const [orders, vouchers] = await Promise.all([
    tab === "orders" ? listHostOrders(db, user.id, 20) : [],
    tab === "vouchers" ? listHostVouchers(db, user.id, 20) : [],
  ]);
  return { tab, path: url.pathname, orders, vouchers };
}

export default function Orders({ loaderData }: Route.ComponentProps) {
  const { tab, path, orders, vouchers } = loaderData;
  const tabs: { id: Tab; label: string }[] = [
    { id: "vouchers", label: "Vouchers" },
    { id: "orders", label: "Orders" },
  ];
  return (
    <Page
      title={tab === "vouchers" ? "Voucher Management" : "Customer Orders"}
      subtitle="Orders and vouchers for your products, newest first."
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        tab === "vouchers" ? (
          <LinkButton to="/voucher-scanner" variant="secondary">
            SCAN
          </LinkButton>
        ) : null
      }
    >
      <nav aria-label="Order sections" className="mb-6 border-b border-gray-200">
        <ul className="-mb-px flex gap-6">
          {tabs.map((t) => (
            <li key={t.id}>
              <Link
                to={`${path}?tab=${t.id}`}
                aria-current={tab === t.id ? "page" : undefined}
                className={`inline-block border-b-2 px-1 py-3 text-sm font-semibold ${
                  tab === t.id ? "border-brand-600 text-brand-700" : "border-transparent text-gray-600 hover:text-gray-900"
                }`}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {tab === "orders" ? (
        orders.length === 0 ? (
          <EmptyState title="No orders found" message="Orders for your products appear here." />
        ) : (
          <Table head={["Order", "Date", "Customer", "Product", "Total", "Status", "Tracking"]}>
            {orders.map((o) => (
              <tr key={o.id}>
                <td className="px-4 py-2 whitespace-nowrap">
                  <Link to={`/order/${o.orderNumber}`} className="font-medium text-brand-700 hover:underline">
                    {o.orderNumber}
                  </Link>
                </td>
                <td className="px-4 py-2 whitespace-nowrap">
                  <DateText value={o.createdAt} />
                </td>
                <td className="px-4 py-2">{o.customerName ?? o.customerEmail ?? "—"}</td>
                <td className="px-4 py-2">
                  {o.productName}
                  {o.quantity > 1 ? ` × ${o.quantity}` : null}
                </td>
                <td className="px-4 py-2 whitespace-nowrap">{formatCents(o.amountCents, o.currency)}</td>
                <td className="px-4 py-2">
                  <StatusBadge status={o.status} />
                </td>
                <td className="px-4 py-2 whitespace-nowrap">{o.trackingNumber ?? "—"}</td>
              </tr>
            ))}
          </Table>
        )
      ) : vouchers.length === 0 ? (
        <EmptyState title="No vouchers found" message="Vouchers bought from your shop appear here." />
      ) : (
        <Table head={["Code", "Product", "Customer", "Value", "Status", "Expires"]}>
          {vouchers.map((v) => (
            <tr key={v.id}>
              <td className="px-4 py-2 whitespace-nowrap">
                <Link to={`/voucher/${v.code}`} className="font-mono font-medium text-brand-700 hover:underline">
                  {v.code}
                </Link>
              </td>
              <td className="px-4 py-2">{v.productName}</td>
              <td className="px-4 py-2">{v.customerName ?? "—"}</td>
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
    </Page>
  );
}
