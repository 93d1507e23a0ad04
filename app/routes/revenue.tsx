import { Link } from "react-router";
import { Table } from "~/components/cards";
import { DateText, EmptyState, Page, pageMeta, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listHostSales } from "~/db/queries/orders.server";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/revenue";

export const meta: Route.MetaFunction = () => pageMeta("Revenue");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const sales = await listHostSales(getDb(getEnv(context)), user.id, 20);
  return { sales };
}

export default function Revenue({ loaderData }: Route.ComponentProps) {
  const { sales } = loaderData;
  return (
    <Page title="Revenue" subtitle="Your latest store sales." back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      {sales.length === 0 ? (
        <EmptyState title="No transactions yet" message="Paid orders for your products appear here." />
      ) : (
        <Table head={["Date", "Order", "Product", "Amount", "Status"]}>
          {sales.map((s) => (
            <tr key={s.id}>
              <td className="px-4 py-2 whitespace-nowrap">
                <DateText value={s.createdAt} />
              </td>
              <td className="px-4 py-2 whitespace-nowrap">
                <Link to={`/transaction/${s.id}`} className="font-medium text-brand-700 hover:underline">
                  {s.orderNumber}
                </Link>
              </td>
              <td className="px-4 py-2">{s.productName}</td>
              <td className="px-4 py-2 whitespace-nowrap">{formatCents(s.amountCents, s.currency)}</td>
              <td className="px-4 py-2">
                <StatusBadge status={s.status} />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
}
