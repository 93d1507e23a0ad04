import { Table } from "~/components/cards";
import { Card, EmptyState, LinkButton, Page, pageMeta, Section, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listAdRevenueReports } from "~/db/queries/earnings.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { clickThroughRateText } from "~/domain/earnings";
import { formatCents, formatCount } from "~/domain/money";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/ads-revenue";

export const meta: Route.MetaFunction = () => pageMeta("Ads Revenue");

/** The host's ad revenue per period, as the platform owner recorded it, with the host's share booked for each. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const db = getDb(getEnv(context));
  const [reports, rules] = await Promise.all([listAdRevenueReports(db, user.id), getRevenueRules(db)]);
  const { hostPercent, prizePoolPercent, platformFeePercent } = rules.ad_revenue;
  const sum = (pick: (r: (typeof reports)[number]) => number) => reports.reduce((s, r) => s + pick(r), 0);
  const impressions = sum((r) => r.impressions);
  const clicks = sum((r) => r.clicks);
  return {
    rule: { hostPercent, prizePoolPercent, platformFeePercent },
    totals: {
      impressions: formatCount(impressions),
      clicks: formatCount(clicks),
      ctr: `${clickThroughRateText(clicks, impressions)}%`,
      revenue: formatCents(
        sum((r) => r.amountCents),
        "USD",
      ),
      earnings: formatCents(
        sum((r) => r.hostCents ?? 0),
        "USD",
      ),
    },
    rows: reports.map((r) => ({
      id: r.id,
      period: `${r.periodStart} – ${r.periodEnd}`,
      impressions: formatCount(r.impressions),
      clicks: formatCount(r.clicks),
      ctr: `${clickThroughRateText(r.clicks, r.impressions)}%`,
      revenue: formatCents(r.amountCents, r.currency),
      earnings: formatCents(r.hostCents ?? 0, r.currency),
    })),
  };
}

export default function AdsRevenue({ loaderData }: Route.ComponentProps) {
  const { rule, totals, rows } = loaderData;
  return (
    <Page
      title="Ads Revenue"
      subtitle="Ads are shown only in video content."
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Stat label="Impressions" value={totals.impressions} />
        <Stat label="Clicks" value={totals.clicks} />
        <Stat label="CTR" value={totals.ctr} />
        <Stat label="Ad Revenue" value={totals.revenue} />
        <Stat label="Your Earnings" value={totals.earnings} />
      </div>
      <p className="mt-3 text-sm text-gray-600">
        Ad revenue is split {rule.hostPercent}% to you, {rule.prizePoolPercent}% to your prize pool and{" "}
        {rule.platformFeePercent}% to the platform.
      </p>
      <Section title="By period">
        {rows.length === 0 ? (
          <EmptyState
            title="No ad revenue yet"
            message="When ads run in your videos, the platform records the revenue of each period here."
          />
        ) : (
          <Table head={["Period", "Impressions", "Clicks", "CTR", "Ad Revenue", "Your Earnings"]}>
            {rows.map((r) => (
              <tr key={r.id}>
                <td className="px-4 py-2 whitespace-nowrap">{r.period}</td>
                <td className="px-4 py-2">{r.impressions}</td>
                <td className="px-4 py-2">{r.clicks}</td>
                <td className="px-4 py-2">{r.ctr}</td>
                <td className="px-4 py-2">{r.revenue}</td>
                <td className="px-4 py-2">{r.earnings}</td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Card className="mt-6">
        <div className="flex flex-wrap gap-3">
          <LinkButton to="/create-guess-win">Create a video game</LinkButton>
          <LinkButton to="/tribe" variant="secondary">
            My Tribe
          </LinkButton>
        </div>
      </Card>
    </Page>
  );
}
