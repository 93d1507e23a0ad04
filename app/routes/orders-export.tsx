import { getDb } from "~/db/client.server";
import { EXPORT_ROW_CAP, searchHostOrders, searchHostVouchers } from "~/db/queries/orders.server";
import { minorUnitDigits } from "~/domain/money";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { centsToDecimal, toCsv } from "~/lib/csv";
import { ORDER_STATUS_FILTERS, parseFilters } from "~/lib/order-filters";
import type { Route } from "./+types/orders-export";

const ORDER_CSV_HEADER = [
  "Order Number",
  "Date (UTC)",
  "Customer Name",
  "Customer Email",
  "Product",
  "Type",
  "Purchase Mode",
  "Quantity",
  "Size",
  "Color",
  "Amount",
  "Currency",
  "Status",
  "Tracking Number",
  "Carrier",
] as const;

const VOUCHER_CSV_HEADER = [
  "Voucher Code",
  "Order Number",
  "Product",
  "Customer Name",
  "Customer Email",
  "Value",
  "Currency",
  "Status",
  "Purchased (UTC)",
  "Expires (UTC)",
  "Redeemed (UTC)",
] as const;

const iso = (d: Date | null) => (d ? d.toISOString() : "");
const decimal = (cents: number, currency: string) => centsToDecimal(cents, minorUnitDigits(currency));

/**
 * GET /orders/export.csv?tab=orders|vouchers&q=&status=: exactly the rows the signed-in host's list shows with the
 * same filters (same query function), without pagination, at most EXPORT_ROW_CAP rows. Amounts are decimals of the
 * row's currency (USD for shop orders).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const filter = parseFilters(url);
  const db = getDb(getEnv(context));
  const window = { limit: EXPORT_ROW_CAP };
  let csv: string;
  if (filter.tab === "vouchers") {
    const status = filter.status as "active" | "redeemed" | "expired" | undefined;
    const rows = await searchHostVouchers(db, { hostId: user.id, q: filter.q, status, now: new Date() }, window);
    csv = toCsv(
      VOUCHER_CSV_HEADER,
      rows.map((v) => [
        v.code,
        v.orderNumber,
        v.productName,
        v.customerName,
        v.customerEmail,
        decimal(v.valueCents, v.currency),
        v.currency,
        v.status,
        iso(v.createdAt),
        iso(v.expiresAt),
        iso(v.redeemedAt),
      ]),
    );
  } else {
    const status = filter.status as (typeof ORDER_STATUS_FILTERS)[number] | undefined;
    const rows = await searchHostOrders(db, { hostId: user.id, q: filter.q, status }, window);
    csv = toCsv(
      ORDER_CSV_HEADER,
      rows.map((o) => [
        o.orderNumber,
        iso(o.createdAt),
        o.customerName,
        o.customerEmail,
        o.productName,
        o.productCategory,
        o.purchaseMode,
        o.quantity,
        o.sizeName,
        o.colorName,
        decimal(o.amountCents, o.currency),
        o.currency,
        o.status,
        o.trackingNumber,
        o.carrier,
      ]),
    );
  }
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filter.tab}-${day}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
