import { useEffect, useState } from "react";
import { data, useFetcher } from "react-router";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Badge, Button, Card, LinkButton, Page, pageMeta, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getGroupBuy, hasSharedGroupBuy, listGroupBuyTiers, recordGroupBuyShare } from "~/db/queries/group-buys.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { countdownText } from "~/domain/countdown";
import {
  amountToNextTier,
  currentTier,
  GROUP_BUY_ACTION_MESSAGES,
  groupBuyProgressPercent,
  groupBuyStatusLabel,
  LINK_COPIED_MS,
  nextTier,
} from "~/domain/group-buy";
import { formatIn } from "~/domain/currency";
import { progressPercent } from "~/domain/money";
import { getOptionalUser, viewerSession } from "~/lib/auth.server";
import { viewerCurrency } from "~/lib/currency.server";
import { getViewerPlace } from "~/db/queries/profiles.server";
import { idParam, notFound } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/group-buy-detail";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData?.groupBuy.name ?? errorTitle(error, "Group buy not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const db = getDb(getEnv(context));
  const user = await getOptionalUser(context);
  const groupBuy = await getGroupBuy(db, id);
  // A draft is the host's work in progress: nobody else sees it.
  if (!groupBuy || (groupBuy.status === "draft" && groupBuy.hostId !== user?.id)) notFound();
  const viewer = viewerSession(context);
  const [tiers, rules, shared, viewerPlace] = await Promise.all([
    listGroupBuyTiers(db, id),
    getRevenueRules(db),
    user ? hasSharedGroupBuy(db, user.id, id) : Promise.resolve(false),
    viewer ? getViewerPlace(db, viewer) : undefined,
  ]);
  return {
    groupBuy,
    tiers,
    shared,
    // Amounts in the viewer's currency, as on every page that shows prices (decision 620).
    currency: viewerCurrency(request, viewerPlace),
    signedIn: user !== null,
    poolPercent: rules.group_buy_sales.prizePoolPercent,
    now: Date.now(),
  };
}

/** Share for 2x Entry: records one share per fan and group buy (a repeat changes nothing). */
export async function action({ params, request, context }: Route.ActionArgs) {
  const id = idParam(params.id);
  const user = await getOptionalUser(context);
  if (!user) return data({ ok: false as const, message: "Please sign in to get a double entry" }, { status: 401 });
  const form = await request.formData();
  if (form.get("intent") !== "share") return data({ ok: false as const, message: "Unknown action" }, { status: 400 });
  const db = getDb(getEnv(context));
  const groupBuy = await getGroupBuy(db, id);
  if (!groupBuy || groupBuy.status === "draft") notFound();
  if (groupBuy.status !== "active")
    return data({ ok: false as const, message: GROUP_BUY_ACTION_MESSAGES.notActive }, { status: 409 });
  const recorded = await recordGroupBuyShare(db, user.id, id);
  return { ok: true as const, recorded };
}

function ShareButton({ groupBuyId, shared, signedIn }: { groupBuyId: string; shared: boolean; signedIn: boolean }) {
  const fetcher = useFetcher<typeof action>();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), LINK_COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const doubled = shared || (fetcher.data?.ok ?? false);
  async function share() {
    const url = `${window.location.origin}/group-buy-detail/${groupBuyId}`;
    try {
      await navigator.clipboard?.writeText(url);
    } catch {
      // Copying can be refused (no permission); the share still counts.
    }
    setCopied(true);
    if (signedIn) fetcher.submit({ intent: "share" }, { method: "post" });
  }
  return (
    <div>
      <Button type="button" variant="secondary" onClick={share}>
        {copied ? GROUP_BUY_ACTION_MESSAGES.linkCopied : "Share for 2x Entry"}
      </Button>
      <p className="mt-1 text-xs text-gray-600" aria-live="polite">
        {doubled
          ? "Double entry unlocked: your next checkout in this group buy earns 2 entries."
          : signedIn
            ? "Share this group buy to earn 2 entries per checkout."
            : "Sign in and share to earn 2 entries per checkout."}
      </p>
      {fetcher.data && !fetcher.data.ok ? <p className="text-xs text-red-600">{fetcher.data.message}</p> : null}
    </div>
  );
}

export default function GroupBuyDetail({ loaderData }: Route.ComponentProps) {
  const { groupBuy: g, tiers, shared, signedIn, poolPercent, now, currency } = loaderData;
  const current = currentTier(tiers, g.currentSalesCents);
  const next = nextTier(tiers, g.currentSalesCents);
  const toNext = amountToNextTier(tiers, g.currentSalesCents);
  const progress = groupBuyProgressPercent(g.currentSalesCents, g.targetCents);
  const fromTier = current?.salesThresholdCents ?? 0;
  const tierProgress = next
    ? progressPercent(g.currentSalesCents - fromTier, next.salesThresholdCents - fromTier)
    : 100;
  const active = g.status === "active";
  return (
    <Page
      title={g.name}
      subtitle={g.hostName ? `A group buy by ${g.hostName}` : undefined}
      back={{ to: `/profile/${g.hostId}`, label: `Back to ${g.hostName ?? "creator"}` }}
      actions={<Badge tone={active ? "green" : "gray"}>{groupBuyStatusLabel(g.status)}</Badge>}
    >
      {g.description ? <p className="mb-6 max-w-3xl whitespace-pre-line text-gray-700">{g.description}</p> : null}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Current sales" value={formatIn(g.currentSalesCents, g.currency, currency)} />
        <Stat label="Target" value={formatIn(g.targetCents, g.currency, currency)} />
        <Stat label="Participants" value={g.currentParticipants} />
        <Stat
          label="Time left"
          value={active ? countdownText(g.endAt, new Date(now)) : groupBuyStatusLabel(g.status)}
        />
      </div>
      <p className="mt-4 text-sm text-gray-700">{progress}% of target</p>
      <div
        className="mt-1 h-2 overflow-hidden rounded-full bg-gray-200"
        role="progressbar"
        aria-label="Progress to target"
        aria-valuenow={progress}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full bg-brand-500" style={{ width: `${Math.min(100, progress)}%` }} />
      </div>

      {g.finalisedAt !== null && g.finalDiscountPercent !== null ? (
        <Card className="mt-6">
          <p className="text-sm text-gray-800">
            {g.status === "cancelled"
              ? "This group buy was cancelled: every participant was refunded in full."
              : g.finalDiscountPercent > 0
                ? `This group buy ended at ${g.finalDiscountPercent}% off: the difference has been refunded to every buyer.`
                : "This group buy ended below its target: the original price applies with no discount."}
          </p>
        </Card>
      ) : null}

      <Card className="mt-6">
        <h2 className="font-semibold text-gray-900">Discount tiers</h2>
        <ul className="mt-3 divide-y divide-gray-100">
          {tiers.map((t) => {
            const isCurrent = current?.salesThresholdCents === t.salesThresholdCents;
            const togo = t.salesThresholdCents - g.currentSalesCents;
            return (
              <li key={t.salesThresholdCents} className="flex items-center justify-between py-2 text-sm">
                <span>
                  {formatIn(t.salesThresholdCents, g.currency, currency)} in sales:{" "}
                  <strong>{t.discountPercent}% off</strong>
                </span>
                {isCurrent ? (
                  <Badge tone="brand">CURRENT</Badge>
                ) : togo > 0 ? (
                  <span className="text-gray-600">{`${formatIn(togo, g.currency, currency)} to go`}</span>
                ) : null}
              </li>
            );
          })}
        </ul>
        {next && toNext !== null ? (
          <div className="mt-3">
            <p className="text-sm text-gray-700">
              {`Progress to the next tier (${next.discountPercent}% off): ${formatIn(toNext, g.currency, currency)} to go`}
            </p>
            <div
              className="mt-1 h-2 overflow-hidden rounded-full bg-gray-200"
              role="progressbar"
              aria-label="Progress to the next tier"
              aria-valuenow={tierProgress}
              aria-valuemin={0}
              aria-valuemax={100}
            >
              <div className="h-full bg-green-500" style={{ width: `${Math.min(100, tierProgress)}%` }} />
            </div>
          </div>
        ) : (
          <p className="mt-3 text-sm text-gray-700">The top tier is reached.</p>
        )}
      </Card>

      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <Card>
          <h2 className="font-semibold text-gray-900">Prize Pool Benefits</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-gray-700">
            <li>The more the tribe buys, the bigger everyone's discount.</li>
            <li>{`${poolPercent}% of every sale goes to the creator's prize pool, and each checkout earns an entry to the main prize.`}</li>
            <li>Share the group buy for a double entry (2 entries per checkout).</li>
          </ul>
        </Card>
        <Card>
          <h2 className="font-semibold text-gray-900">How payment and refunds work</h2>
          <p className="mt-2 text-sm text-gray-700">
            You pay the original price when you join. When the group buy ends, the final tier is worked out from total
            sales and the difference is refunded to your card automatically (refunds take 3-5 business days). If the
            target is not met, the original price applies with no discount.
          </p>
        </Card>
      </div>

      {active ? (
        <div className="mt-6 flex flex-wrap items-start gap-4">
          <LinkButton to={`/group-buy-product-selection/${g.id}`}>Join Group Buy</LinkButton>
          <ShareButton groupBuyId={g.id} shared={shared} signedIn={signedIn} />
        </div>
      ) : null}
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Group buy not found",
        message: "This group buy doesn't exist or has been removed.",
        action: { to: "/explore", label: "Explore creators" },
      }}
    />
  );
}
