import { Link } from "react-router";
import { Badge, Card, DateText, LinkButton, Page, pageMeta, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getCurrentPool, listContributionTotals, listHostWinners } from "~/db/queries/pools.server";
import { countdownText } from "~/domain/countdown";
import { formatCents, percentageText, progressPercent } from "~/domain/money";
import { CONTRIBUTION_PLACEHOLDER_TYPES, contributionLabel, distributePool } from "~/domain/revenue";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/prize-pool-management";

export const meta: Route.MetaFunction = () => pageMeta("Prize Pool Management");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const db = getDb(getEnv(context));
  const [pool, winners] = await Promise.all([getCurrentPool(db, user.id), listHostWinners(db, user.id, 5)]);
  const totals = pool ? await listContributionTotals(db, pool.id) : [];
  const currency = pool?.currency ?? "USD";
  const amountCents = pool?.amountCents ?? 0;
  const rows = totals.length
    ? totals
    : CONTRIBUTION_PLACEHOLDER_TYPES.map((sourceType) => ({ sourceType, totalCents: 0 }));
  const sum = rows.reduce((s, r) => s + r.totalCents, 0);
  const split = distributePool(amountCents);
  const money = (cents: number) => formatCents(cents, currency);
  return {
    pool: pool
      ? {
          amount: money(amountCents),
          target: money(pool.targetCents),
          timeLeft: countdownText(pool.endAt, new Date()),
          entries: pool.entriesCount,
          progress: progressPercent(amountCents, pool.targetCents),
          status: pool.status,
        }
      : null,
    split: { mainPrize: money(split.mainPrize), hostShare: money(split.hostShare), platformShare: money(split.platformShare) },
    sources: rows.map((r) => ({
      label: contributionLabel(r.sourceType),
      amount: money(r.totalCents),
      percent: percentageText(r.totalCents, sum),
    })),
    winners: winners.map((w) => ({
      id: w.id,
      winner: w.winnerName,
      game: w.gameQuestion,
      type: w.prizeType,
      prize: formatCents(w.prizeAmountCents, w.currency),
      date: w.createdAt,
    })),
  };
}

export default function PrizePoolManagement({ loaderData }: Route.ComponentProps) {
  const { pool, split, sources, winners } = loaderData;
  return (
    <Page
      title="Prize Pool Management"
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        <>
          <LinkButton to="/prize-pool-management" reloadDocument variant="secondary">
            Refresh
          </LinkButton>
          <LinkButton to="/prize-pool-settings">Settings</LinkButton>
        </>
      }
    >
      {!pool ? (
        <p className="mb-4 rounded-lg bg-brand-50 px-4 py-3 text-sm text-brand-700">
          You don't have a prize pool yet.{" "}
          <Link to="/prize-pool-settings" className="font-semibold underline">
            Set a target to start one.
          </Link>
        </p>
      ) : null}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Current Pool" value={pool?.amount ?? "—"} />
        <Stat label="Target" value={pool?.target ?? "—"} />
        <Stat label="Time Left" value={pool?.timeLeft ?? "—"} />
        <Stat label="Participants" value={pool?.entries ?? 0} />
      </div>

      <Card className="mt-6">
        <h2 className="font-semibold text-gray-900">Current Pool Status</h2>
        <div className="mt-3 h-2 overflow-hidden rounded-full bg-gray-200" role="progressbar" aria-label="Progress to target" aria-valuenow={pool?.progress ?? 0} aria-valuemin={0} aria-valuemax={100}>
          <div className="h-full bg-brand-500" style={{ width: `${pool?.progress ?? 0}%` }} />
        </div>
        <p className="mt-1 text-sm text-gray-600">{pool?.progress ?? 0}% of target</p>
        <dl className="mt-4 grid grid-cols-3 gap-3 text-sm">
          <div>
            <dt className="text-gray-500">Main Prize 60%</dt>
            <dd className="font-semibold">{split.mainPrize}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Host Share 25%</dt>
            <dd className="font-semibold">{split.hostShare}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Platform 15%</dt>
            <dd className="font-semibold">{split.platformShare}</dd>
          </div>
        </dl>
      </Card>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="font-semibold text-gray-900">Contribution Sources</h2>
          <ul className="mt-3 divide-y divide-gray-100 text-sm">
            {sources.map((s) => (
              <li key={s.label} className="flex justify-between py-2">
                <span>{s.label}</span>
                <span className="font-medium">
                  {s.amount} <span className="text-gray-500">({s.percent}%)</span>
                </span>
              </li>
            ))}
          </ul>
        </Card>
        <Card>
          <div className="flex items-center justify-between">
            <h2 className="font-semibold text-gray-900">Recent Winners</h2>
            <Link to="/prize-pool-details" className="text-sm font-semibold text-brand-700 hover:underline">
              View All
            </Link>
          </div>
          {winners.length === 0 ? (
            <div className="py-6 text-center text-sm">
              <p className="font-medium text-gray-900">No winners yet</p>
              <p className="text-gray-600">Start playing to see winners!</p>
            </div>
          ) : (
            <ul className="mt-3 divide-y divide-gray-100 text-sm">
              {winners.map((w) => (
                <li key={w.id} className="flex items-center justify-between gap-2 py-2">
                  <span className="min-w-0">
                    <span className="block font-medium">{w.winner}</span>
                    {w.game ? <span className="block truncate text-xs text-gray-500">{w.game}</span> : null}
                  </span>
                  <Badge tone={w.type === "main" ? "brand" : "gray"}>{w.type === "main" ? "Main Prize" : "Mini Prize"}</Badge>
                  <span className="text-right">
                    <span className="block font-medium">{w.prize}</span>
                    <span className="block text-xs text-gray-500">
                      <DateText value={w.date} />
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </Page>
  );
}
