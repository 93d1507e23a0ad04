import { Link } from "react-router";
import { Badge, Card, DateText, EmptyState, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listHostGroupBuys } from "~/db/queries/group-buys.server";
import { groupBuyProgressPercent, groupBuyStatusLabel } from "~/domain/group-buy";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/group-buy-management";

export const meta: Route.MetaFunction = () => pageMeta("Group Buy Management");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const groupBuys = await listHostGroupBuys(getDb(getEnv(context)), user.id, 50);
  return { groupBuys };
}

const tones = { active: "green", completed: "blue", cancelled: "red", draft: "gray" } as const;

export default function GroupBuyManagement({ loaderData }: Route.ComponentProps) {
  const { groupBuys } = loaderData;
  return (
    <Page
      title="Group Buy Management"
      subtitle="Only one group buy can be active at a time."
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
    >
      {groupBuys.length === 0 ? (
        <EmptyState title="No group buys found" message="Group buys give your buyers tiered discounts; the difference is refunded automatically when a higher tier is reached." />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {groupBuys.map((g) => {
            const progress = groupBuyProgressPercent(g.currentSalesCents, g.targetCents);
            return (
              <li key={g.id}>
                <Card className="h-full">
                  <div className="flex items-start justify-between gap-2">
                    <h2 className="font-semibold text-gray-900">{g.name}</h2>
                    <Badge tone={tones[g.status]}>{groupBuyStatusLabel(g.status)}</Badge>
                  </div>
                  <p className="mt-2 text-sm text-gray-600">
                    {formatCents(g.currentSalesCents, g.currency)} of {formatCents(g.targetCents, g.currency)} ·{" "}
                    {g.currentParticipants} participants
                  </p>
                  <div className="mt-2 h-2 overflow-hidden rounded-full bg-gray-200" role="progressbar" aria-label={`${g.name} progress`} aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100}>
                    <div className="h-full bg-brand-500" style={{ width: `${progress}%` }} />
                  </div>
                  <p className="mt-2 text-xs text-gray-500">
                    Ends <DateText value={g.endAt} />
                  </p>
                  <Link to={`/group-buy-detail/${g.id}`} className="mt-3 inline-block text-sm font-semibold text-brand-700 hover:underline">
                    View
                  </Link>
                </Card>
              </li>
            );
          })}
        </ul>
      )}
    </Page>
  );
}
