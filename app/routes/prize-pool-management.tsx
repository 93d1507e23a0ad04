import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import { data, redirect, useRevalidator } from "react-router";
import { Link } from "~/components/link";
import { z } from "zod";
import { MiniPrizeDeliveries } from "~/components/mini-prize-deliveries";
import { Badge, Card, DateText, LinkButton, Page, pageMeta, Stat } from "~/components/page";
import { usePoolLive } from "~/components/use-pool-live";
import { getDb } from "~/db/client.server";
import { listHostMiniPrizeWinners, markMiniPrizeDelivered } from "~/db/queries/mini-prizes.server";
import { countPoolParticipants, poolContributionSum } from "~/db/queries/pool-screens.server";
import { listContributionTotals, listHostWinners } from "~/db/queries/pools.server";
import { COUNTDOWN_TICK_MS, countdownText } from "~/domain/countdown";
import { formatCents, percentageText, progressPercent } from "~/domain/money";
import { displayedPoolCents, POOL_CURRENCY } from "~/domain/pool";
import { CONTRIBUTION_PLACEHOLDER_TYPES, contributionLabel, distributePool } from "~/domain/revenue";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { getOpenPool } from "~/lib/pools.server";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/prize-pool-management";

export const meta: Route.MetaFunction = () => pageMeta("Prize Pool Management");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const [pool, winners, miniWinners] = await Promise.all([
    getOpenPool(env, user.id),
    listHostWinners(db, user.id, 5),
    listHostMiniPrizeWinners(db, user.id),
  ]);
  const [totals, contributionSumCents, participants] = pool
    ? await Promise.all([
        listContributionTotals(db, pool.id),
        poolContributionSum(db, pool.id),
        countPoolParticipants(db, pool.id),
      ])
    : [[], 0, 0];
  const currency = pool?.currency ?? POOL_CURRENCY;
  const money = (cents: number) => formatCents(cents, currency);
  const rows = totals.length
    ? [...totals].sort((a, b) => b.totalCents - a.totalCents)
    : CONTRIBUTION_PLACEHOLDER_TYPES.map((sourceType) => ({ sourceType, totalCents: 0 }));
  const sourcesSum = rows.reduce((s, r) => s + r.totalCents, 0);
  const amountCents = pool ? displayedPoolCents(pool.amountCents, contributionSumCents) : 0;
  const split = distributePool(amountCents);
  return {
    pool: pool
      ? {
          id: pool.id,
          status: pool.status,
          currency,
          amountCents: pool.amountCents,
          contributionSumCents,
          targetCents: pool.targetCents,
          entries: pool.entriesCount,
          participants,
          endAt: pool.endAt.toISOString(),
          timeLeft: countdownText(pool.endAt, new Date()),
        }
      : null,
    // The split of the amount the loader saw; a live amount that differs triggers a reload of this data.
    split: {
      amountCents,
      mainPrize: money(split.mainPrize),
      hostShare: money(split.hostShare),
      platformShare: money(split.platformShare),
    },
    sources: rows.map((r) => ({
      key: r.sourceType,
      label: contributionLabel(r.sourceType),
      amount: money(r.totalCents),
      percent: percentageText(r.totalCents, sourcesSum),
    })),
    winners: winners.map((w) => ({
      id: w.id,
      winner: w.winnerName,
      game: w.gameQuestion,
      type: w.prizeType,
      prize: formatCents(w.prizeAmountCents, w.currency),
      date: w.createdAt.toISOString(),
    })),
    miniWinners: miniWinners.map((w) => ({
      id: w.id,
      poolId: w.poolId,
      name: w.name,
      amountText: w.amountText,
      entryNumber: w.entryNumber,
      winnerName: w.winnerName ?? `Entry #${w.entryNumber}`,
      deliveredAt: w.deliveredAt?.toISOString() ?? null,
    })),
  };
}

const ActionSchema = z.object({ intent: z.literal("mark-delivered"), miniPrizeWinnerId: z.string().uuid() });

/** The host marks a mini prize delivered: only their own pools' winners (404 otherwise), once (409 after). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const parsed = ActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "That request is not valid." }, { status: 400 });
  const result = await markMiniPrizeDelivered(
    getDb(getEnv(context)),
    user.id,
    parsed.data.miniPrizeWinnerId,
    new Date(),
  );
  if (result === "not_found") return data({ error: "Mini prize winner not found." }, { status: 404 });
  if (result === "already") return data({ error: "This mini prize is marked delivered already." }, { status: 409 });
  return redirect("/prize-pool-management", {
    headers: { "Set-Cookie": flashToastCookie({ message: "Mini prize marked delivered.", type: "success" }) },
  });
}

/** "05D 12H 09M" until the end, recomputed every second in the browser (the server's text first). */
function useCountdown(endAt: string | null, serverText: string | null): string | null {
  // The clock is an external store: it ticks every COUNTDOWN_TICK_MS; the text is read from it while rendering.
  const subscribe = useCallback(
    (onTick: () => void) => {
      if (!endAt) return () => {};
      const timer = setInterval(onTick, COUNTDOWN_TICK_MS);
      return () => clearInterval(timer);
    },
    [endAt],
  );
  return useSyncExternalStore(
    subscribe,
    () => (endAt ? countdownText(endAt, new Date()) : serverText),
    () => serverText,
  );
}

const RELOAD_AFTER_UPDATE_MS = 400;

export default function PrizePoolManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { pool, split, sources, winners, miniWinners } = loaderData;
  const revalidator = useRevalidator();
  const live = usePoolLive(pool?.id, {
    poolId: pool?.id ?? "",
    amountCents: pool?.amountCents ?? 0,
    entries: pool?.entries ?? 0,
    status: pool?.status ?? "open",
    targetCents: pool?.targetCents ?? 0,
  });
  const timeLeft = useCountdown(pool?.endAt ?? null, pool?.timeLeft ?? null);

  // Any live change (a contribution, an entry, a close) reloads the pool's data shortly after, so the sources,
  // participants and split follow without a page reload. The first value is the loader's own and is skipped.
  const seen = useRef<string | null>(null);
  const liveKey = `${live.poolId}:${live.amountCents}:${live.entries}:${live.status}:${live.targetCents}`;
  useEffect(() => {
    if (seen.current === null || !pool) {
      seen.current = liveKey;
      return;
    }
    if (seen.current === liveKey) return;
    seen.current = liveKey;
    const timer = setTimeout(() => revalidator.revalidate(), RELOAD_AFTER_UPDATE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [liveKey]);

  const currency = pool?.currency ?? POOL_CURRENCY;
  const amountCents = pool ? displayedPoolCents(live.amountCents, pool.contributionSumCents) : 0;
  const targetCents = pool ? live.targetCents || pool.targetCents : 0;
  const progress = progressPercent(amountCents, targetCents);
  const splitIsCurrent = split.amountCents === amountCents;
  const loading = revalidator.state === "loading";

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
          You don't have an open prize pool.{" "}
          <Link to="/prize-pool-settings" className="font-semibold underline">
            Set a target to start one.
          </Link>
        </p>
      ) : null}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat
          label="Current Pool (USD)"
          value={<span data-testid="pool-amount">{pool ? formatCents(amountCents, currency) : "—"}</span>}
        />
        <Stat label="Target (USD)" value={pool ? formatCents(targetCents, currency) : "—"} />
        <Stat
          label="Time Left"
          value={timeLeft ?? "—"}
          hint={
            pool ? (
              <>
                Ends <DateText value={pool.endAt} withTime />
              </>
            ) : undefined
          }
        />
        <Stat
          label="Participants"
          value={pool?.participants ?? 0}
          hint={pool ? `${live.entries} ${live.entries === 1 ? "entry" : "entries"} in the draw` : undefined}
        />
      </div>

      <Card className="mt-6">
        <div className="flex items-center justify-between gap-2">
          <h2 className="font-semibold text-gray-900">Current Pool Status</h2>
          {loading ? <span className="text-xs text-gray-500">Loading...</span> : null}
        </div>
        <div
          className="mt-3 h-2 overflow-hidden rounded-full bg-gray-200"
          role="progressbar"
          aria-label="Progress to target"
          aria-valuenow={progress}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="h-full bg-brand-500 transition-[width]" style={{ width: `${Math.min(progress, 100)}%` }} />
        </div>
        <p className="mt-1 text-sm text-gray-600">{progress}% of target</p>
        <dl className={`mt-4 grid grid-cols-3 gap-3 text-sm ${splitIsCurrent ? "" : "opacity-60"}`}>
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
              <li key={s.key} className="flex justify-between py-2">
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
                  <span className="min-w-0 flex-1">
                    <span className="block font-medium">{w.winner}</span>
                    <span className="block truncate text-xs text-gray-500">{w.game ?? "Prize pool draw"}</span>
                  </span>
                  <Badge tone={w.type === "main" ? "brand" : "gray"}>
                    {w.type === "main" ? "Main Prize" : "Mini Prize"}
                  </Badge>
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
      <MiniPrizeDeliveries winners={miniWinners} error={actionData?.error} />
    </Page>
  );
}
