import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getCurrentPool } from "~/db/queries/pools.server";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/prize-pool-settings";

export const meta: Route.MetaFunction = () => pageMeta("Prize Pool Settings");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const pool = await getCurrentPool(getDb(getEnv(context)), user.id);
  return { pool: pool ? { status: pool.status, target: formatCents(pool.targetCents, pool.currency), endAt: pool.endAt } : null };
}

export default function PrizePoolSettings({ loaderData }: Route.ComponentProps) {
  const { pool } = loaderData;
  return (
    <Page title="Prize Pool Settings" width="narrow" back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      <Card>
        <p className="text-gray-700">
          This page will hold your prize pool settings: a target of at least USD 1,000, a duration of 7, 14, 30, 60 or
          90 days, your mini prizes, and host deposits (at least USD 1, all of it goes to the pool). Target and duration
          can be changed only in the first 3 days of a pool's run.
        </p>
        <p className="mt-3 text-sm text-gray-600">
          {pool ? `Your current pool is ${pool.status} with a target of ${pool.target}.` : "You don't have a prize pool yet."}
        </p>
        <div className="mt-4">
          <LinkButton to="/dashboard" variant="secondary">
            Cancel
          </LinkButton>
        </div>
      </Card>
    </Page>
  );
}
