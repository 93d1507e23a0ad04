import { data } from "react-router";
import { getDb } from "~/db/client.server";
import { prizePools } from "~/db/schema";
import { eq } from "drizzle-orm";
import { Page } from "~/components/page";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/draw-verification";

export const meta: Route.MetaFunction = () => [{ title: "Verify a draw · Tribe" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!/^[0-9a-f-]{36}$/i.test(params.poolId)) throw data(null, { status: 404 });
  const [pool] = await getDb(getEnv(context)).select({ id: prizePools.id }).from(prizePools).where(eq(prizePools.id, params.poolId)).limit(1);
  if (!pool) throw data(null, { status: 404 });
  return { poolId: pool.id };
}

export default function DrawVerification({ loaderData }: Route.ComponentProps) {
  return (
    <Page title="Verify a draw" back={{ to: "/winner-selection", label: "Winner Selection" }}>
      <p className="text-gray-600">Pool {loaderData.poolId}</p>
    </Page>
  );
}
