import { Link } from "~/components/link";
import { Card, DateText, EmptyState, LinkButton, Page, pageMeta, Pagination, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { contributionSums, listHostPools } from "~/db/queries/pool-screens.server";
import { countdownText } from "~/domain/countdown";
import { formatCents, progressPercent } from "~/domain/money";
import { displayedPoolCents } from "~/domain/pool";
import { pageParam, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/prize-pool";

export const meta: Route.MetaFunction = () => pageMeta("Prize Pool");

const POOLS_PER_PAGE = 20;

const CLOSE_REASON_TEXT = {
  target_reached: "Target reached",
  timer_expired: "Timer expired",
  closed_early: "Closed early",
} as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const db = getDb(getEnv(context));
  const page = pageParam(request);
  const rows = await listHostPools(db, user.id, { limit: POOLS_PER_PAGE + 1, offset: (page - 1) * POOLS_PER_PAGE });
  const pools = rows.slice(0, POOLS_PER_PAGE);
  const sums = await contributionSums(
    db,
    pools.map((p) => p.id),
  );
  const now = new Date();
  return {
    page,
    hasNext: rows.length > POOLS_PER_PAGE,
    pools: pools.map((p) => {
      const amountCents = displayedPoolCents(p.amountCents, sums.get(p.id) ?? 0);
      return {
        id: p.id,
        status: p.status,
        amount: formatCents(amountCents, p.currency),
        target: formatCents(p.targetCents, p.currency),
        progress: progressPercent(amountCents, p.targetCents),
        entries: p.entriesCount,
        startAt: p.startAt.toISOString(),
        endAt: p.endAt.toISOString(),
        closedAt: p.closedAt?.toISOString() ?? null,
        timeLeft: p.status === "open" ? countdownText(p.endAt, now) : null,
        closeReason: p.closeReason ? CLOSE_REASON_TEXT[p.closeReason] : null,
        winnerEntryNumber: p.winnerEntryNumber,
        winnerName: p.winnerName,
        /** Beside the status badge: where a closed pool's draw stands (the badge alone says Open or Drawn). */
        drawDetail: drawText({
          status: p.status,
          entries: p.entriesCount,
          drawBlockHeight: p.drawBlockHeight,
          drawDelayReason: p.drawDelayReason,
        }),
      };
    }),
  };
}

/** What the status badge does not say: where a closed pool's draw stands (null for an open or drawn pool). */
function drawText(pool: {
  status: string;
  entries: number;
  drawBlockHeight: number | null;
  drawDelayReason: string | null;
}): string | null {
  if (pool.status !== "closed") return null;
  if (pool.entries === 0) return "No entries";
  if (pool.drawDelayReason) return `Draw delayed: ${pool.drawDelayReason}`;
  if (pool.drawBlockHeight === null) return "Committing to a block";
  return `Waiting for block #${pool.drawBlockHeight}`;
}

export default function PrizePool({ loaderData }: Route.ComponentProps) {
  const { pools, page, hasNext } = loaderData;
  const open = page === 1 ? pools.find((p) => p.status === "open") : undefined;
  return (
    <Page
      title="Prize Pool"
      subtitle="Your current pool and every pool before it, each with its draw."
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        <LinkButton to="/prize-pool-management" variant="secondary">
          Manage
        </LinkButton>
      }
    >
      {pools.length === 0 && page === 1 ? (
        <EmptyState
          title="No prize pool yet"
          message="Set a target and a duration to start your first prize pool."
          action={{ to: "/prize-pool-settings", label: "Prize Pool Settings" }}
        />
      ) : (
        <>
          {open ? (
            <Card className="mb-6">
              <p className="text-sm text-gray-600">
                Open · ends <DateText value={open.endAt} withTime /> · {open.timeLeft} left
              </p>
              <p className="mt-2 text-3xl font-bold text-gray-900">
                {open.amount} <span className="text-base font-medium text-gray-500">of {open.target}</span>
              </p>
              <div
                className="mt-3 h-2 overflow-hidden rounded-full bg-gray-200"
                role="progressbar"
                aria-label="Progress to target"
                aria-valuenow={open.progress}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <div className="h-full bg-brand-500" style={{ width: `${open.progress}%` }} />
              </div>
              <p className="mt-2 text-sm text-gray-600">
                {open.progress}% of target · {open.entries} {open.entries === 1 ? "entry" : "entries"}
              </p>
            </Card>
          ) : null}

          <h2 className="mb-3 text-lg font-semibold text-gray-900">Pool history</h2>
          <div className="relative overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm">
            <table className="w-full min-w-[720px] text-left text-sm">
              <thead className="bg-gray-50 text-gray-500">
                <tr>
                  <th className="px-3 py-2 font-medium">Pool</th>
                  <th className="px-3 py-2 font-medium">Status</th>
                  <th className="px-3 py-2 text-right font-medium">Amount</th>
                  <th className="px-3 py-2 text-right font-medium">Entries</th>
                  <th className="px-3 py-2 font-medium">Closed</th>
                  <th className="px-3 py-2 font-medium">Winner</th>
                  <th className="px-3 py-2 font-medium">
                    <span className="sr-only">Verification</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100">
                {pools.map((p) => (
                  <tr key={p.id}>
                    <td className="px-3 py-2">
                      <span className="block">
                        <DateText value={p.startAt} /> – <DateText value={p.closedAt ?? p.endAt} />
                      </span>
                      <span className="block text-xs text-gray-500">Target {p.target}</span>
                    </td>
                    <td className="px-3 py-2">
                      <StatusBadge status={p.status} />
                      {p.drawDetail ? <span className="mt-0.5 block text-xs text-gray-500">{p.drawDetail}</span> : null}
                    </td>
                    <td className="px-3 py-2 text-right font-medium">{p.amount}</td>
                    <td className="px-3 py-2 text-right">{p.entries}</td>
                    <td className="px-3 py-2">{p.closeReason ?? "—"}</td>
                    <td className="px-3 py-2">
                      {p.winnerEntryNumber !== null ? (
                        <>
                          Entry #{p.winnerEntryNumber}
                          {p.winnerName ? <span className="block text-xs text-gray-500">{p.winnerName}</span> : null}
                        </>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className="px-3 py-2 text-right">
                      {p.status !== "open" ? (
                        <Link to={`/winner-selection/${p.id}`} className="font-medium text-brand-700 hover:underline">
                          Verify draw
                        </Link>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} hasNext={hasNext} hrefFor={(p) => `/prize-pool?page=${p}`} />
        </>
      )}
    </Page>
  );
}
