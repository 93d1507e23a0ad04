import type { ReactNode } from "react";
import { Link } from "~/components/link";
import { Badge, Card, DateText, EmptyState, LinkButton, Page, pageMeta, Pagination, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { dailyContributions, listHostWinnersPage, poolContributionSum } from "~/db/queries/pool-screens.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { getCurrentPool, listContributionTotals } from "~/db/queries/pools.server";
import { addDays, countdownText } from "~/domain/countdown";
import { formatCents, percentageText } from "~/domain/money";
import { displayedPoolCents, POOL_CURRENCY } from "~/domain/pool";
import {
  contributionLabel,
  HOST_DEPOSIT_POOL_PERCENT,
  HOST_POOL_SHARE_PERCENT,
  MAIN_PRIZE_PERCENT,
  PLATFORM_POOL_SHARE_PERCENT,
  distributePool,
  isContributionType,
  revenueSourceForContribution,
  type RevenueRules,
} from "~/domain/revenue";
import { pageParam, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/prize-pool-details";

export const meta: Route.MetaFunction = () => pageMeta("Prize Pool Details");

const WINNERS_PER_PAGE = 10;
export const GROWTH_DAYS = 14;
const dayLabel = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** What share of a contribution source's money feeds the pool (the platform's rules in force), as the breakdown explains it. */
function poolRateText(sourceType: string, rules: RevenueRules): string | null {
  if (!isContributionType(sourceType)) return null;
  if (sourceType === "host_deposit") return `${HOST_DEPOSIT_POOL_PERCENT}% of each deposit`;
  const source = revenueSourceForContribution(sourceType);
  return source ? `${rules[source].prizePoolPercent}% of each payment` : null;
}

/** The UTC days from `start` for `days` days, as YYYY-MM-DD. */
function utcDays(start: Date, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(start, i).toISOString().slice(0, 10));
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const db = getDb(getEnv(context));
  const page = pageParam(request);
  const now = new Date();
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const since = addDays(today, -(GROWTH_DAYS - 1));

  const [pool, winnerRows, daily, rules] = await Promise.all([
    getCurrentPool(db, user.id),
    listHostWinnersPage(db, user.id, { limit: WINNERS_PER_PAGE + 1, offset: (page - 1) * WINNERS_PER_PAGE }),
    dailyContributions(db, user.id, since),
    getRevenueRules(db),
  ]);
  const [totals, contributionSumCents] = pool
    ? await Promise.all([listContributionTotals(db, pool.id), poolContributionSum(db, pool.id)])
    : [[], 0];

  const currency = pool?.currency ?? POOL_CURRENCY;
  const money = (cents: number) => formatCents(cents, currency);
  const amountCents = pool ? displayedPoolCents(pool.amountCents, contributionSumCents) : 0;
  const split = distributePool(amountCents);
  const sourcesSum = totals.reduce((s, r) => s + r.totalCents, 0);
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const growth = utcDays(since, GROWTH_DAYS).map((day) => ({
    day,
    totalCents: byDay.get(day)?.totalCents ?? 0,
    contributions: byDay.get(day)?.contributions ?? 0,
  }));
  const growthTotal = growth.reduce((s, d) => s + d.totalCents, 0);
  const best = Math.max(0, ...growth.map((d) => d.totalCents));

  return {
    pool: pool
      ? {
          id: pool.id,
          status: pool.status,
          amount: money(amountCents),
          target: money(pool.targetCents),
          entries: pool.entriesCount,
          endAt: pool.endAt.toISOString(),
          timeLeft: pool.status === "open" ? countdownText(pool.endAt, now) : null,
          mainPrize: money(split.mainPrize),
          hostShare: money(split.hostShare),
          platformShare: money(split.platformShare),
        }
      : null,
    breakdown: [...totals]
      .sort((a, b) => b.totalCents - a.totalCents)
      .map((r) => ({
        key: r.sourceType,
        label: contributionLabel(r.sourceType),
        rate: poolRateText(r.sourceType, rules),
        amount: money(r.totalCents),
        percent: percentageText(r.totalCents, sourcesSum),
      })),
    winners: winnerRows.slice(0, WINNERS_PER_PAGE).map((w) => ({
      id: w.id,
      poolId: w.poolId,
      winner: w.winnerName,
      type: w.prizeType,
      game: w.gameQuestion,
      entryNumber: w.entryNumber,
      prize: formatCents(w.prizeAmountCents, w.currency),
      date: w.createdAt.toISOString(),
    })),
    page,
    hasNextWinners: winnerRows.length > WINNERS_PER_PAGE,
    growth: {
      days: growth.map((d) => ({
        day: d.day,
        label: dayLabel.format(new Date(`${d.day}T00:00:00Z`)),
        amount: money(d.totalCents),
        contributions: d.contributions,
        // Bar height relative to the best day; days without money in (or with refunds only) show no bar.
        barPercent: best > 0 && d.totalCents > 0 ? Math.max(4, Math.round((d.totalCents / best) * 100)) : 0,
      })),
      total: money(growthTotal),
      contributions: growth.reduce((s, d) => s + d.contributions, 0),
    },
    distribution: { main: MAIN_PRIZE_PERCENT, host: HOST_POOL_SHARE_PERCENT, platform: PLATFORM_POOL_SHARE_PERCENT },
  };
}

function Collapsible({ title, open, children }: { title: string; open?: boolean; children: ReactNode }) {
  return (
    <details open={open} className="group mt-6 rounded-xl border border-gray-200 bg-white shadow-sm">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 px-4 py-3 font-semibold text-gray-900 sm:px-5">
        {title}
        <span aria-hidden="true" className="text-gray-400 transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="border-t border-gray-100 px-4 py-4 sm:px-5">{children}</div>
    </details>
  );
}

const statusText = (status: string) =>
  status === "open"
    ? "Open"
    : status === "closed"
      ? "Closed, waiting for the draw"
      : status === "drawn"
        ? "Drawn"
        : status;

export default function PrizePoolDetails({ loaderData }: Route.ComponentProps) {
  const { pool, breakdown, winners, page, hasNextWinners, growth, distribution } = loaderData;
  return (
    <Page
      title="Prize Pool Details"
      back={{ to: "/prize-pool-management", label: "Back to Prize Pool" }}
      actions={
        <>
          <LinkButton to="/prize-pool-settings" variant="secondary">
            Settings
          </LinkButton>
          <LinkButton to="/winner-selection" variant="ghost">
            How winners are chosen
          </LinkButton>
        </>
      }
    >
      {!pool ? (
        <EmptyState
          title="No prize pool yet"
          message="Set a target and a duration to start your first prize pool."
          action={{ to: "/prize-pool-settings", label: "Prize Pool Settings" }}
        />
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Stat label="Status" value={statusText(pool.status)} />
            <Stat label="Current pool" value={pool.amount} />
            <Stat label="Target" value={pool.target} />
            <Stat
              label="Entries"
              value={pool.entries}
              hint={
                <>
                  {pool.timeLeft ? `${pool.timeLeft} left · ` : null}ends <DateText value={pool.endAt} />
                </>
              }
            />
          </div>
          <Card className="mt-6">
            <h2 className="font-semibold text-gray-900">Fixed distribution</h2>
            <p className="mt-1 text-sm text-gray-600">Every pool is split the same way when it closes.</p>
            <dl className="mt-3 grid grid-cols-3 gap-3 text-sm">
              <div>
                <dt className="text-gray-500">Main Prize ({distribution.main}%)</dt>
                <dd className="font-semibold">{pool.mainPrize}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Host Share ({distribution.host}%)</dt>
                <dd className="font-semibold">{pool.hostShare}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Platform ({distribution.platform}%)</dt>
                <dd className="font-semibold">{pool.platformShare}</dd>
              </div>
            </dl>
            {pool.status !== "open" ? (
              <p className="mt-3 text-sm">
                <Link to={`/winner-selection/${pool.id}`} className="font-medium text-brand-700 hover:underline">
                  Verify this pool's draw
                </Link>
              </p>
            ) : null}
          </Card>
        </>
      )}

      <Collapsible title="Contribution Breakdown" open>
        {breakdown.length === 0 ? (
          <p className="text-sm text-gray-600">No contributions in this pool yet.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-gray-500">
              <tr>
                <th className="py-1 font-medium">Source</th>
                <th className="py-1 font-medium">Goes to the pool</th>
                <th className="py-1 text-right font-medium">Amount</th>
                <th className="py-1 text-right font-medium">Share</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {breakdown.map((row) => (
                <tr key={row.key}>
                  <td className="py-2">{row.label}</td>
                  <td className="py-2 text-gray-600">{row.rate ?? "—"}</td>
                  <td className="py-2 text-right font-medium">{row.amount}</td>
                  <td className="py-2 text-right text-gray-600">{row.percent}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Collapsible>

      <Collapsible title="Winners" open={page > 1 || winners.length > 0}>
        {winners.length === 0 ? (
          <p className="text-sm text-gray-600">
            {page > 1 ? "No more winners." : "No winners yet. Start playing to see winners!"}
          </p>
        ) : (
          <ul className="divide-y divide-gray-100 text-sm">
            {winners.map((w) => (
              <li key={w.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0 flex-1">
                  <span className="block font-medium">{w.winner}</span>
                  <span className="block truncate text-xs text-gray-500">
                    {w.game ?? "Prize pool draw"}
                    {w.entryNumber !== null ? ` · entry #${w.entryNumber}` : ""}
                  </span>
                </span>
                <Badge tone={w.type === "main" ? "brand" : "gray"}>
                  {w.type === "main" ? "Main Prize" : "Mini Prize"}
                </Badge>
                <span className="w-28 text-right">
                  <span className="block font-medium">{w.prize}</span>
                  <span className="block text-xs text-gray-500">
                    <DateText value={w.date} />
                  </span>
                </span>
                <Link
                  to={`/winner-selection/${w.poolId}`}
                  className="w-full text-xs font-medium text-brand-700 hover:underline sm:w-auto"
                >
                  Verify draw
                </Link>
              </li>
            ))}
          </ul>
        )}
        <Pagination page={page} hasNext={hasNextWinners} hrefFor={(p) => `/prize-pool-details?page=${p}`} />
      </Collapsible>

      <Collapsible title="Growth Metrics" open>
        <p className="text-sm text-gray-600">
          Contributions to your pools over the last {growth.days.length} days:{" "}
          <span className="font-semibold text-gray-900">{growth.total}</span> from {growth.contributions}{" "}
          {growth.contributions === 1 ? "contribution" : "contributions"}.
        </p>
        <ol className="mt-4 flex h-32 items-end gap-1" aria-label="Contributions per day">
          {growth.days.map((d) => (
            <li
              key={d.day}
              className="flex h-full flex-1 flex-col justify-end"
              title={`${d.label}: ${d.amount} (${d.contributions})`}
            >
              <span className="sr-only">
                {d.label}: {d.amount}, {d.contributions} contributions
              </span>
              <span className="block rounded-t bg-brand-500" style={{ height: `${d.barPercent}%` }} />
            </li>
          ))}
        </ol>
        <div className="mt-1 flex justify-between text-xs text-gray-500">
          <span>{growth.days[0]?.label}</span>
          <span>{growth.days.at(-1)?.label}</span>
        </div>
        <table className="mt-4 w-full text-left text-sm">
          <thead className="text-gray-500">
            <tr>
              <th className="py-1 font-medium">Day</th>
              <th className="py-1 text-right font-medium">Contributions</th>
              <th className="py-1 text-right font-medium">Amount</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {[...growth.days].reverse().map((d) => (
              <tr key={d.day}>
                <td className="py-1.5">{d.label}</td>
                <td className="py-1.5 text-right">{d.contributions}</td>
                <td className="py-1.5 text-right">{d.amount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Collapsible>
    </Page>
  );
}
