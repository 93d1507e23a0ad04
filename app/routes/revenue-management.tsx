import { useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { z } from "zod";
import { Table } from "~/components/cards";
import { Field, FormError, SubmitButton } from "~/components/form";
import { Button, Card, LinkButton, Page, pageMeta, Section, Stat } from "~/components/page";
import { RevenueChart } from "~/components/revenue-chart";
import { getDb } from "~/db/client.server";
import {
  dailyRevenue,
  earningsByKind,
  getWithdrawalFeePercent,
  hostBalances,
  pendingGroupBuyCents,
  revenueTotals,
} from "~/db/queries/earnings.server";
import { getDefaultPayoutMethod } from "~/db/queries/payouts.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import {
  choosePeriod,
  dailySeries,
  periodQuery,
  REVENUE_KIND_LABELS,
  REVENUE_KINDS,
  REVENUE_PERIOD_LABELS,
  REVENUE_PERIODS,
} from "~/domain/earnings";
import { formatCents } from "~/domain/money";
import {
  DEFAULT_ESTIMATED_ARRIVAL_TEXT,
  maskedAccount,
  PAYOUT_MESSAGES,
  payoutMethodProblem,
  withdrawalFailedText,
} from "~/domain/payouts";
import { distributePool, withdrawableBalanceCents, type RevenueSource } from "~/domain/revenue";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { requestWithdrawal } from "~/lib/payments/connect/payouts.server";
import { getOpenPool } from "~/lib/pools.server";
import type { Route } from "./+types/revenue-management";

export const meta: Route.MetaFunction = () => pageMeta("Revenue Management");

const RULE_OF: Record<(typeof REVENUE_KINDS)[number], RevenueSource> = {
  shop_sale: "shop_sales",
  guess_entry: "guess_win_entries",
  ad_revenue: "ad_revenue",
  group_buy_sale: "group_buy_sales",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const now = new Date();
  const url = new URL(request.url);
  const choice = choosePeriod(url.searchParams, now);
  const [balances, feePercent, totals, daily, byKind, pendingGroupBuy, method, rules, pool] = await Promise.all([
    hostBalances(db, user.id, now),
    getWithdrawalFeePercent(db),
    revenueTotals(db, user.id, choice.range),
    dailyRevenue(db, user.id, choice.range),
    earningsByKind(db, user.id, choice.range),
    pendingGroupBuyCents(db, user.id),
    getDefaultPayoutMethod(db, user.id),
    getRevenueRules(db),
    getOpenPool(env, user.id),
  ]);
  const currency = balances.currency;
  const money = (cents: number) => formatCents(cents, currency);
  const withdrawable = withdrawableBalanceCents(balances.availableCents, feePercent);
  const totalGross = REVENUE_KINDS.reduce((s, k) => s + totals[k].grossCents, 0);
  const hostShare = REVENUE_KINDS.reduce((s, k) => s + totals[k].hostCents, 0);
  const poolShares = byKind.get("pool_share") ?? 0;
  const fees = (byKind.get("platform_fee") ?? 0) + (byKind.get("fee_return") ?? 0);
  const withdrawn = (byKind.get("withdrawal") ?? 0) + (byKind.get("withdrawal_return") ?? 0);
  const split = distributePool(pool?.amountCents ?? 0);
  return {
    period: choice.period,
    periodQuery: periodQuery(choice),
    balance: {
      available: money(balances.availableCents),
      pending: money(balances.pendingCents),
      withdrawable: money(withdrawable),
      withdrawableDecimal: (withdrawable / 100).toFixed(2),
      negative: balances.availableCents < 0,
      feePercent,
    },
    method: method
      ? {
          label: `${method.bankName || "Bank account"} ${maskedAccount(method.accountLast4)}`,
          problem: payoutMethodProblem(method),
        }
      : null,
    cards: REVENUE_KINDS.map((kind) => ({
      kind,
      label: REVENUE_KIND_LABELS[kind],
      value: money(totals[kind].grossCents),
      pending: kind === "group_buy_sale" ? money(pendingGroupBuy) : null,
    })),
    totalRevenue: money(totalGross),
    chart: { days: dailySeries(choice.range, daily), currency },
    sources: REVENUE_KINDS.map((kind) => ({
      name: REVENUE_KIND_LABELS[kind],
      total: money(totals[kind].grossCents),
      prizePoolPercentage: rules[RULE_OF[kind]].prizePoolPercent,
      hostPercentage: rules[RULE_OF[kind]].hostPercent,
      host: money(totals[kind].hostCents),
    })),
    pool: pool
      ? {
          amount: formatCents(pool.amountCents, pool.currency),
          mainPrize: formatCents(split.mainPrize, pool.currency),
          hostShare: formatCents(split.hostShare, pool.currency),
          platformShare: formatCents(split.platformShare, pool.currency),
        }
      : null,
    summary: {
      hostShare: money(hostShare),
      poolShares: money(poolShares),
      hostTotal: money(hostShare + poolShares),
      fees: money(fees),
      withdrawn: money(-withdrawn),
    },
  };
}

const WithdrawSchema = z.object({ intent: z.literal("withdraw"), amount: z.string().trim().max(20) });

type WithdrawActionData =
  | { ok: true; amount: string; payoutId: string; status: string; estimatedArrival: string }
  | { ok: false; error: string; amount: string };

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const form = await request.formData();
  const parsed = WithdrawSchema.safeParse({ intent: form.get("intent"), amount: form.get("amount") ?? "" });
  if (!parsed.success)
    return data<WithdrawActionData>(
      { ok: false, error: "Please enter a valid amount to withdraw", amount: "" },
      { status: 400 },
    );
  const result = await requestWithdrawal(env, new URL(request.url).origin, user.id, parsed.data.amount);
  if (!result.ok)
    return data<WithdrawActionData>(
      { ok: false, error: result.message, amount: parsed.data.amount },
      { status: result.status },
    );
  const { payout } = result;
  if (payout.status === "failed") {
    return data<WithdrawActionData>(
      {
        ok: false,
        error: withdrawalFailedText(payout.failureReason ?? PAYOUT_MESSAGES.initiateFailed),
        amount: parsed.data.amount,
      },
      { status: 502 },
    );
  }
  return data<WithdrawActionData>({
    ok: true,
    amount: formatCents(payout.amountCents, payout.currency),
    payoutId: payout.id,
    status: payout.status,
    estimatedArrival: payout.estimatedArrivalAt
      ? new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" }).format(payout.estimatedArrivalAt)
      : DEFAULT_ESTIMATED_ARRIVAL_TEXT,
  });
}

export default function RevenueManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { balance, cards, chart, sources, pool, summary, method } = loaderData;
  // The withdrawal dialog opens again with a refused withdrawal's answer and closes with a completed one.
  const [open, setOpen] = useState(actionData !== undefined && !actionData.ok);
  const [seenAnswer, setSeenAnswer] = useState(actionData);
  if (actionData !== seenAnswer) {
    setSeenAnswer(actionData);
    if (actionData) setOpen(!actionData.ok);
  }
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "withdraw";
  const result = actionData as WithdrawActionData | undefined;

  return (
    <Page
      title="Revenue Management"
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        <LinkButton to="/revenue" variant="secondary">
          All transactions
        </LinkButton>
      }
    >
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <p className="text-sm font-medium text-gray-600">Available Balance</p>
          <p className="mt-1 text-3xl font-bold text-gray-900" data-testid="available-balance">
            {balance.available}
          </p>
          <p className="mt-1 text-sm text-gray-600">
            Withdrawable after the {balance.feePercent}% platform fee:{" "}
            <strong data-testid="withdrawable-balance">{balance.withdrawable}</strong> · Pending: {balance.pending}
          </p>
          {balance.negative ? <p className="mt-2 text-sm text-red-700">{PAYOUT_MESSAGES.negativeBalance}</p> : null}
          <p className="mt-2 text-sm text-gray-600">
            Payout method:{" "}
            {method && !method.problem ? (
              <span className="font-medium text-gray-900">{method.label}</span>
            ) : (
              <span>none verified yet</span>
            )}{" "}
            ·{" "}
            <Link to="/payouts" className="font-semibold text-brand-700 hover:underline">
              Payouts and payout methods
            </Link>
          </p>
          <div className="mt-4">
            <Button type="button" onClick={() => setOpen(true)}>
              Withdraw
            </Button>
          </div>
          {result?.ok ? (
            <div
              role="status"
              className="mt-4 rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-900"
            >
              <p className="font-semibold">{`Withdrawal of ${result.amount} ${result.status === "completed" ? "sent" : "requested"}.`}</p>
              <p>
                Payout ID: <span data-testid="payout-id">{result.payoutId}</span>
              </p>
              <p>{`Estimated arrival: ${result.estimatedArrival}`}</p>
            </div>
          ) : null}
        </Card>
        <Stat
          label="Total Revenue"
          value={loaderData.totalRevenue}
          hint={`${REVENUE_PERIOD_LABELS[loaderData.period === "custom" ? "month" : loaderData.period]} so far`}
        />
      </div>

      {open ? (
        <div
          role="dialog"
          aria-modal="true"
          aria-labelledby="withdraw-title"
          onKeyDown={(event) => {
            if (event.key === "Escape") setOpen(false);
          }}
          className="fixed inset-0 z-40 flex items-center justify-center bg-black/40 p-4"
        >
          <Card className="w-full max-w-md">
            <h2 id="withdraw-title" className="text-lg font-semibold text-gray-900">
              Withdraw Funds
            </h2>
            <p className="mt-1 text-sm text-gray-600">Withdrawable balance: {balance.withdrawable}</p>
            <Form method="post" className="mt-4 space-y-3" key={result?.ok ? result.payoutId : "withdraw"}>
              <input type="hidden" name="intent" value="withdraw" />
              <Field
                label="Amount"
                name="amount"
                type="number"
                inputMode="decimal"
                min="1"
                max={balance.withdrawableDecimal}
                step="0.01"
                required
                defaultValue={result && !result.ok ? result.amount : ""}
              />
              {result && !result.ok ? <FormError>{result.error}</FormError> : null}
              <div className="flex gap-2">
                <SubmitButton pending={submitting}>{submitting ? "Processing..." : "Withdraw"}</SubmitButton>
                <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
              </div>
            </Form>
          </Card>
        </div>
      ) : null}

      <nav aria-label="Period" className="mt-8 flex flex-wrap items-center gap-2">
        {REVENUE_PERIODS.map((p) => (
          <Link
            key={p}
            to={`?period=${p}`}
            aria-current={loaderData.period === p ? "page" : undefined}
            className={`rounded-full px-4 py-1.5 text-sm font-medium ${loaderData.period === p ? "bg-brand-600 text-white" : "bg-gray-100 text-gray-700 hover:bg-gray-200"}`}
          >
            {REVENUE_PERIOD_LABELS[p]}
          </Link>
        ))}
        <a
          href={`/revenue/export.csv?${loaderData.periodQuery}`}
          className="ml-auto text-sm font-semibold text-brand-700 hover:underline"
          download
        >
          Export CSV
        </a>
      </nav>

      <div className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map((c) => (
          <Stat
            key={c.kind}
            label={c.label}
            value={c.pending !== null && c.value === formatCents(0, chart.currency) ? "Pending" : c.value}
            hint={c.pending !== null ? `Pending until finalised: ${c.pending}` : undefined}
          />
        ))}
      </div>

      <Section title="Daily revenue">
        <Card>
          <RevenueChart days={chart.days} currency={chart.currency} />
        </Card>
      </Section>

      <Section title="Revenue Sources">
        <Table head={["Source", "Revenue", "Prize Pool", "Your Share", "Your Earnings"]}>
          {sources.map((s) => (
            <tr key={s.name}>
              <td className="px-4 py-2 font-medium text-gray-900">{s.name}</td>
              <td className="px-4 py-2">{s.total}</td>
              <td className="px-4 py-2">{s.prizePoolPercentage.toFixed(1)}%</td>
              <td className="px-4 py-2">{s.hostPercentage.toFixed(1)}%</td>
              <td className="px-4 py-2">{s.host}</td>
            </tr>
          ))}
        </Table>
      </Section>

      <div className="grid gap-4 lg:grid-cols-2">
        <Section
          title="Prize Pool Distribution"
          actions={
            <Link to="/prize-pool-details" className="text-sm font-semibold text-brand-700 hover:underline">
              View All
            </Link>
          }
        >
          <Card>
            {pool ? (
              <dl className="grid grid-cols-2 gap-3 text-sm">
                <div>
                  <dt className="text-gray-500">Current pool</dt>
                  <dd className="font-medium">{pool.amount}</dd>
                </div>
                <div>
                  <dt className="text-gray-500">Main Prize (60.0%)</dt>
                  <dd className="font-medium">{pool.mainPrize}</dd>
                </div>
                <div>
                  <dt className="text-gray-500">Host Share (25.0%)</dt>
                  <dd className="font-medium">{pool.hostShare}</dd>
                </div>
                <div>
                  <dt className="text-gray-500">Platform (15.0%)</dt>
                  <dd className="font-medium">{pool.platformShare}</dd>
                </div>
              </dl>
            ) : (
              <p className="text-sm text-gray-600">No open prize pool.</p>
            )}
          </Card>
        </Section>
        <Section title="Host Earning Summary">
          <Card>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-gray-500">Your revenue share</dt>
                <dd className="font-medium">{summary.hostShare}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Prize pool shares (25%)</dt>
                <dd className="font-medium">{summary.poolShares}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Host total</dt>
                <dd className="font-semibold text-gray-900">{summary.hostTotal}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Platform fees</dt>
                <dd className="font-medium">{summary.fees}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Withdrawn</dt>
                <dd className="font-medium">{summary.withdrawn}</dd>
              </div>
            </dl>
          </Card>
        </Section>
      </div>
    </Page>
  );
}
