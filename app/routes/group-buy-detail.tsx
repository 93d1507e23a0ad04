import { ErrorPage, errorTitle } from "~/components/error-page";
import { Badge, Card, DateText, LinkButton, Page, pageMeta, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getGroupBuy, listGroupBuyTiers } from "~/db/queries/group-buys.server";
import { amountToNextTier, currentTier, groupBuyProgressPercent, groupBuyStatusLabel } from "~/domain/group-buy";
import { formatCents } from "~/domain/money";
import { getOptionalUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/group-buy-detail";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData?.groupBuy.name ?? errorTitle(error, "Group buy not found"));

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const db = getDb(getEnv(context));
  const groupBuy = await getGroupBuy(db, id);
  // A draft is the host's work in progress: nobody else sees it.
  if (!groupBuy || (groupBuy.status === "draft" && groupBuy.hostId !== getOptionalUser(context)?.id)) notFound();
  const tiers = await listGroupBuyTiers(db, id);
  return { groupBuy, tiers };
}

export default function GroupBuyDetail({ loaderData }: Route.ComponentProps) {
  const { groupBuy: g, tiers } = loaderData;
  const domainTiers = tiers.map((t) => ({ salesThresholdCents: t.salesThresholdCents, discountPercent: t.discountPercent }));
  const current = currentTier(domainTiers, g.currentSalesCents);
  const toNext = amountToNextTier(domainTiers, g.currentSalesCents);
  const progress = groupBuyProgressPercent(g.currentSalesCents, g.targetCents);
  return (
    <Page
      title={g.name}
      subtitle={g.hostName ? `A group buy by ${g.hostName}` : undefined}
      back={{ to: `/profile/${g.hostId}`, label: `Back to ${g.hostName ?? "creator"}` }}
      actions={<Badge tone={g.status === "active" ? "green" : "gray"}>{groupBuyStatusLabel(g.status)}</Badge>}
    >
      {g.description ? <p className="mb-6 max-w-3xl whitespace-pre-line text-gray-700">{g.description}</p> : null}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Current sales" value={formatCents(g.currentSalesCents, g.currency)} />
        <Stat label="Target" value={formatCents(g.targetCents, g.currency)} />
        <Stat label="Participants" value={g.currentParticipants} />
        <Stat label="Ends" value={<DateText value={g.endAt} />} />
      </div>
      <div className="mt-4 h-2 overflow-hidden rounded-full bg-gray-200" role="progressbar" aria-label="Progress to target" aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100}>
        <div className="h-full bg-brand-500" style={{ width: `${progress}%` }} />
      </div>

      <Card className="mt-6">
        <h2 className="font-semibold text-gray-900">Discount tiers</h2>
        {tiers.length === 0 ? (
          <p className="mt-2 text-sm text-gray-600">No discount tiers set.</p>
        ) : (
          <ul className="mt-3 divide-y divide-gray-100">
            {tiers.map((t) => {
              const isCurrent = current?.salesThresholdCents === t.salesThresholdCents;
              return (
                <li key={t.salesThresholdCents} className="flex items-center justify-between py-2 text-sm">
                  <span>
                    From {formatCents(t.salesThresholdCents, g.currency)} in sales: <strong>{t.discountPercent}% off</strong>
                  </span>
                  {isCurrent ? <Badge tone="brand">CURRENT</Badge> : null}
                </li>
              );
            })}
          </ul>
        )}
        {toNext !== null ? (
          <p className="mt-3 text-sm text-gray-600">{formatCents(toNext, g.currency)} to go to the next tier.</p>
        ) : null}
      </Card>

      <Card className="mt-4">
        <h2 className="font-semibold text-gray-900">How payment and refunds work</h2>
        <p className="mt-2 text-sm text-gray-700">
          You pay the original price when you join. When the group buy ends, the final tier is worked out from total
          sales and the difference is refunded to your card automatically (refunds take 3-5 business days). If the
          target is not met, the original price applies with no discount. 10% of every sale goes to the creator's prize
          pool.
        </p>
      </Card>

      {g.status === "active" ? (
        <div className="mt-6">
          <LinkButton to={`/group-buy-product-selection/${g.id}`}>Join Group Buy</LinkButton>
        </div>
      ) : null}
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{ title: "Group buy not found", message: "This group buy doesn't exist or has been removed.", action: { to: "/explore", label: "Explore creators" } }}
    />
  );
}
