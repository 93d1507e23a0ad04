import { Card, DateText, EmptyState, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getCurrentPool } from "~/db/queries/pools.server";
import { countdownText } from "~/domain/countdown";
import { formatCents, progressPercent } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/prize-pool";

export const meta: Route.MetaFunction = () => pageMeta("Prize Pool");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const pool = await getCurrentPool(getDb(getEnv(context)), user.id);
  if (!pool) return { pool: null };
  return {
    pool: {
      status: pool.status,
      amount: formatCents(pool.amountCents, pool.currency),
      target: formatCents(pool.targetCents, pool.currency),
      progress: progressPercent(pool.amountCents, pool.targetCents),
      timeLeft: countdownText(pool.endAt, new Date()),
      endAt: pool.endAt,
    },
  };
}

export default function PrizePool({ loaderData }: Route.ComponentProps) {
  const { pool } = loaderData;
  return (
    <Page title="Prize Pool" back={{ to: "/dashboard", label: "Back to Dashboard" }} actions={<LinkButton to="/prize-pool-management" variant="secondary">Manage</LinkButton>}>
      {!pool ? (
        <EmptyState title="No prize pool yet" message="Set a target and a duration to start your first prize pool." action={{ to: "/prize-pool-settings", label: "Prize Pool Settings" }} />
      ) : (
        <Card>
          <p className="text-sm text-gray-600">
            {pool.status === "open" ? "Open" : pool.status === "closed" ? "Closed, waiting for the draw" : "Drawn"} · ends{" "}
            <DateText value={pool.endAt} withTime />
          </p>
          <p className="mt-2 text-3xl font-bold text-gray-900">
            {pool.amount} <span className="text-base font-medium text-gray-500">of {pool.target}</span>
          </p>
          <div className="mt-3 h-2 overflow-hidden rounded-full bg-gray-200" role="progressbar" aria-label="Progress to target" aria-valuenow={pool.progress} aria-valuemin={0} aria-valuemax={100}>
            <div className="h-full bg-brand-500" style={{ width: `${pool.progress}%` }} />
          </div>
          <p className="mt-2 text-sm text-gray-600">
            {pool.progress}% of target · time left {pool.timeLeft}
          </p>
        </Card>
      )}
    </Page>
  );
}
