import { Form } from "react-router";
import { Link } from "~/components/link";
import { Table } from "~/components/cards";
import { FormError } from "~/components/form";
import { Badge, DateText, EmptyState, Page, pageMeta, Pagination, Section, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { hostGroupBuyRevenue } from "~/db/queries/group-buys.server";
import { hostBalances, listLedger, pendingGroupBuyCents, revenueTotals } from "~/db/queries/earnings.server";
import {
  choosePeriod,
  EARNING_KIND_LABELS,
  EARNING_KINDS,
  isEarningKind,
  periodQuery,
  REVENUE_KIND_LABELS,
  REVENUE_KINDS,
  REVENUE_PERIOD_LABELS,
  REVENUE_PERIODS,
} from "~/domain/earnings";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { earningsStatus } from "~/lib/earnings-csv";
import { pageParam } from "~/lib/guards.server";
import type { Route } from "./+types/revenue";

export const meta: Route.MetaFunction = () => pageMeta("Revenue");

const PAGE_SIZE = 25;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const db = getDb(getEnv(context));
  const now = new Date();
  const url = new URL(request.url);
  const choice = choosePeriod(url.searchParams, now);
  const rawKind = url.searchParams.get("type");
  const kind = isEarningKind(rawKind) ? rawKind : undefined;
  const page = pageParam(request);
  const [totals, balances, pendingGroupBuy, list, groupBuys] = await Promise.all([
    revenueTotals(db, user.id, choice.range),
    hostBalances(db, user.id, now),
    pendingGroupBuyCents(db, user.id),
    listLedger(db, user.id, choice.range, { kind, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
    hostGroupBuyRevenue(db, user.id),
  ]);
  const currency = balances.currency;
  const money = (cents: number) => formatCents(cents, currency);
  const query = periodQuery(choice);
  return {
    period: choice.period,
    from: choice.from,
    to: choice.to,
    error: choice.error,
    query,
    kind: kind ?? "",
    page,
    hasNext: page * PAGE_SIZE < list.total,
    total: list.total,
    totals: REVENUE_KINDS.map((k) => ({
      label: REVENUE_KIND_LABELS[k],
      value: money(totals[k].grossCents),
      yours: money(totals[k].hostCents),
    })),
    totalRevenue: money(REVENUE_KINDS.reduce((s, k) => s + totals[k].grossCents, 0)),
    yourEarnings: money(REVENUE_KINDS.reduce((s, k) => s + totals[k].hostCents, 0)),
    pendingGroupBuy: pendingGroupBuy > 0 ? money(pendingGroupBuy) : null,
    groupBuys,
    groupBuyActive: groupBuys.some((g) => g.status === "active"),
    rows: list.rows.map((r) => ({
      id: r.id,
      date: r.occurredAt,
      type: EARNING_KIND_LABELS[r.kind],
      description: r.orderNumber ? `${r.orderNumber} · ${r.description}` : r.description,
      gross: r.grossCents !== 0 ? formatCents(r.grossCents, r.currency) : "—",
      amount: formatCents(r.amountCents, r.currency),
      status: earningsStatus(r, now),
    })),
  };
}

export default function Revenue({ loaderData: d }: Route.ComponentProps) {
  const base = (page: number) => `?${d.query}${d.kind ? `&type=${d.kind}` : ""}${page > 1 ? `&page=${page}` : ""}`;
  return (
    <Page
      title="Revenue"
      subtitle="Your sales, entry fees, ad revenue, prize pool shares, fees and withdrawals."
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        <>
          <Link to="/revenue-management" className="text-sm font-semibold text-brand-700 hover:underline">
            Earnings dashboard
          </Link>
          <a
            href={`/revenue/export.csv?${d.query}`}
            download
            className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-semibold text-gray-800 hover:bg-gray-50"
          >
            Export
          </a>
        </>
      }
    >
      {d.groupBuyActive ? (
        <div role="status" className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          A group buy is active: its revenue is pending until it ends and the final discounts are refunded.
        </div>
      ) : null}
      <div className="flex flex-wrap items-end gap-2">
        {REVENUE_PERIODS.map((p) => (
          <Link
            key={p}
            to={`?period=${p}`}
            aria-current={d.period === p ? "page" : undefined}
            className={`rounded-full px-4 py-1.5 text-sm font-medium ${d.period === p ? "bg-brand-600 text-white" : "bg-gray-100 text-gray-700 hover:bg-gray-200"}`}
          >
            {REVENUE_PERIOD_LABELS[p]}
          </Link>
        ))}
        <Form method="get" className="flex flex-wrap items-end gap-2" aria-label="Custom date range">
          <label className="text-sm text-gray-700">
            From
            <input
              type="date"
              name="from"
              defaultValue={d.from}
              required
              className="ml-1 rounded-lg border border-gray-300 px-2 py-1 text-sm"
            />
          </label>
          <label className="text-sm text-gray-700">
            To
            <input
              type="date"
              name="to"
              defaultValue={d.to}
              required
              className="ml-1 rounded-lg border border-gray-300 px-2 py-1 text-sm"
            />
          </label>
          <button
            type="submit"
            className={`rounded-full px-4 py-1.5 text-sm font-medium ${d.period === "custom" ? "bg-brand-600 text-white" : "bg-gray-100 text-gray-700"}`}
          >
            Date
          </button>
        </Form>
      </div>
      {d.error ? (
        <div className="mt-2">
          <FormError>{d.error}</FormError>
        </div>
      ) : null}

      <div className="mt-4 grid gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {d.totals.map((t) => (
          <Stat key={t.label} label={t.label} value={t.value} hint={`Yours: ${t.yours}`} />
        ))}
        <Stat label="Total Revenue" value={d.totalRevenue} />
        <Stat label="Your Earnings" value={d.yourEarnings} />
      </div>
      {d.pendingGroupBuy ? (
        <p className="mt-2 text-sm text-gray-600">Group buy sales pending until finalised: {d.pendingGroupBuy}</p>
      ) : null}

      <Section
        title={`Transactions (${d.total})`}
        actions={
          <Form method="get" className="flex flex-wrap items-center gap-2">
            {d.period === "custom" ? (
              <>
                <input type="hidden" name="from" value={d.from} />
                <input type="hidden" name="to" value={d.to} />
              </>
            ) : (
              <input type="hidden" name="period" value={d.period} />
            )}
            <label htmlFor="type" className="text-sm text-gray-700">
              Type
            </label>
            <select
              id="type"
              name="type"
              defaultValue={d.kind}
              className="rounded-lg border border-gray-300 px-2 py-1 text-sm"
            >
              <option value="">All</option>
              {EARNING_KINDS.map((k) => (
                <option key={k} value={k}>
                  {EARNING_KIND_LABELS[k]}
                </option>
              ))}
            </select>
            <button type="submit" className="rounded-lg bg-gray-100 px-3 py-1 text-sm font-medium">
              Filter
            </button>
          </Form>
        }
      >
        {d.rows.length === 0 ? (
          <EmptyState
            title="No transactions yet"
            message="Sales, entry fees, ad revenue, pool shares and withdrawals of this period appear here."
          />
        ) : (
          <Table head={["Date", "Type", "Description", "Amount", "Your Earnings", "Status"]}>
            {d.rows.map((r) => (
              <tr key={r.id}>
                <td className="px-4 py-2 whitespace-nowrap">
                  <DateText value={r.date} />
                </td>
                <td className="px-4 py-2 whitespace-nowrap">
                  <Link to={`/transaction/${r.id}`} className="font-medium text-brand-700 hover:underline">
                    {r.type}
                  </Link>
                </td>
                <td className="px-4 py-2">{r.description}</td>
                <td className="px-4 py-2 whitespace-nowrap">{r.gross}</td>
                <td className="px-4 py-2 whitespace-nowrap">{r.amount}</td>
                <td className="px-4 py-2">
                  <Badge tone={r.status === "Available" ? "green" : "yellow"}>{r.status}</Badge>
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination page={d.page} hasNext={d.hasNext} hrefFor={base} />
      </Section>
      {d.groupBuys.length > 0 ? (
        <section className="mt-6" aria-labelledby="group-buy-revenue">
          <h2 id="group-buy-revenue" className="mb-2 font-semibold text-gray-900">
            Group buy revenue
          </h2>
          <Table head={["Group buy", "Orders", "Charged", "Refunded", "Total"]}>
            {d.groupBuys.map((g) => (
              <tr key={g.id}>
                <td className="px-4 py-2">
                  <Link to={`/group-buy-detail/${g.id}`} className="font-medium text-brand-700 hover:underline">
                    {g.name}
                  </Link>
                </td>
                <td className="px-4 py-2">{g.orderCount}</td>
                <td className="px-4 py-2 whitespace-nowrap">{formatCents(g.paidCents, g.currency)}</td>
                <td className="px-4 py-2 whitespace-nowrap">{formatCents(g.refundedCents, g.currency)}</td>
                <td className="px-4 py-2 whitespace-nowrap" data-testid={`group-buy-total-${g.id}`}>
                  {g.netCents === null ? "Pending" : formatCents(g.netCents, g.currency)}
                </td>
              </tr>
            ))}
          </Table>
        </section>
      ) : null}
    </Page>
  );
}
