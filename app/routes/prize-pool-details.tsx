import { Card, DateText, EmptyState, LinkButton, Page, pageMeta, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getCurrentPool } from "~/db/queries/pools.server";
import { formatCents } from "~/domain/money";
import { distributePool } from "~/domain/revenue";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/prize-pool-details";

export const meta: Route.MetaFunction = () => pageMeta("Prize Pool Details");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const pool = await getCurrentPool(getDb(getEnv(context)), user.id);
  if (!pool) return { pool: null };
  const split = distributePool(pool.amountCents);
  const money = (cents: number) => formatCents(cents, pool.currency);
  return {
    pool: {
      status: pool.status,
      amount: money(pool.amountCents),
      target: money(pool.targetCents),
      entries: pool.entriesCount,
      endAt: pool.endAt,
      mainPrize: money(split.mainPrize),
      hostShare: money(split.hostShare),
      platformShare: money(split.platformShare),
    },
  };
}

export default function PrizePoolDetails({ loaderData }: Route.ComponentProps) {
  const { pool } = loaderData;
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
        <EmptyState title="No prize pool yet" message="Set a target and a duration to start your first prize pool." action={{ to: "/prize-pool-settings", label: "Prize Pool Settings" }} />
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Stat label="Status" value={pool.status.charAt(0).toUpperCase() + pool.status.slice(1)} />
            <Stat label="Current pool" value={pool.amount} />
            <Stat label="Target" value={pool.target} />
            <Stat label="Entries" value={pool.entries} hint={<>Ends <DateText value={pool.endAt} /></>} />
          </div>
          <Card className="mt-6">
            <h2 className="font-semibold text-gray-900">Fixed distribution</h2>
            <dl className="mt-3 grid grid-cols-3 gap-3 text-sm">
              <div>
                <dt className="text-gray-500">Main Prize (60%)</dt>
                <dd className="font-semibold">{pool.mainPrize}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Host Share (25%)</dt>
                <dd className="font-semibold">{pool.hostShare}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Platform (15%)</dt>
                <dd className="font-semibold">{pool.platformShare}</dd>
              </div>
            </dl>
          </Card>
          <p className="mt-4 text-sm text-gray-600">The contribution breakdown, winners and growth metrics will appear on this page.</p>
        </>
      )}
    </Page>
  );
}
