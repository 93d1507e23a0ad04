// /voucher-management: the host's vouchers (filtered and paginated in SQL), with the scanner one click away. The
// orders tab lives on /orders (routes/orders.tsx); both draw the shared list of components/sales-table.tsx.
import { redirect } from "react-router";
import { Link } from "~/components/link";
import { DateText, pageMeta } from "~/components/page";
import { SalesTable } from "~/components/sales-table";
import { VoucherStatusBadge } from "~/components/voucher-status";
import { getDb } from "~/db/client.server";
import { countHostVouchersMatching, EXPORT_ROW_CAP, searchHostVouchers } from "~/db/queries/orders.server";
import { formatCents } from "~/domain/money";
import { voucherCardStatus } from "~/domain/vouchers";
import { pageParam, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { parseFilters } from "~/lib/order-filters";
import type { Route } from "./+types/voucher-management";

const PAGE_SIZE = 20;

export const meta: Route.MetaFunction = () => pageMeta("Voucher Management");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const filter = parseFilters(url);
  // An older link to the orders tab under this path: the orders live on /orders.
  if (filter.tab === "orders") throw redirect(`/orders${url.search}`);
  const page = pageParam(request);
  const db = getDb(getEnv(context));
  const window = { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE };
  const now = new Date();
  const f = {
    hostId: user.id,
    q: filter.q,
    status: filter.status as "active" | "redeemed" | "expired" | undefined,
    now,
  };
  const [rows, total] = await Promise.all([searchHostVouchers(db, f, window), countHostVouchersMatching(db, f)]);
  return {
    ...filter,
    page,
    total,
    exportCount: Math.min(total, EXPORT_ROW_CAP),
    hasNext: rows.length > PAGE_SIZE,
    vouchers: rows.slice(0, PAGE_SIZE).map((v) => ({ ...v, status: voucherCardStatus(v.status, v.expiresAt, now) })),
  };
}

export default function VoucherManagement({ loaderData }: Route.ComponentProps) {
  return (
    <SalesTable
      list={loaderData}
      head={["Code", "Order", "Product", "Customer", "Value", "Status", "Expires"]}
      rows={loaderData.vouchers.map((v) => (
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
            <VoucherStatusBadge status={v.status} />
          </td>
          <td className="px-4 py-2 whitespace-nowrap">
            <DateText value={v.expiresAt} />
          </td>
        </tr>
      ))}
    />
  );
}
