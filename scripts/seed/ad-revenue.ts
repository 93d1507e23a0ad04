// Ad revenue the platform owner recorded for the demo host (the last two calendar months), split as the admin page
// splits it (app/lib/ad-revenue.server.ts): the host's share into the earnings ledger, the pool's part into the
// host's open pool.
import { adRevenueEarning, saleShares } from "../../app/domain/earnings";
import { DEFAULT_REVENUE_RULES } from "../../app/domain/revenue";
import type { Seed } from "./context";
import { DAY, daysAgo, NOW } from "./random";

const REPORTS: readonly [
  back: number,
  amountCents: number,
  impressions: number,
  clicks: number,
  recordedDaysAgo: number,
][] = [
  [2, 18_640, 41_200, 538, 5],
  [1, 23_115, 52_870, 701, 2],
];

export function addAdRevenue(seed: Seed, openPoolId: string): void {
  const { rows, demoHost, admin } = seed;
  const today = new Date(NOW);
  const monthStart = (back: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1));
  const isoDay = (d: Date) => d.toISOString().slice(0, 10);
  const rule = DEFAULT_REVENUE_RULES.ad_revenue;
  for (const [back, amountCents, impressions, clicks, recordedDaysAgo] of REPORTS) {
    const id = crypto.randomUUID();
    const periodStart = isoDay(monthStart(back));
    const periodEnd = isoDay(new Date(monthStart(back - 1).getTime() - DAY));
    const recordedAt = daysAgo(recordedDaysAgo);
    rows.adRevenueReports.push({
      id,
      hostId: demoHost.id,
      periodStart,
      periodEnd,
      amountCents,
      currency: "USD",
      impressions,
      clicks,
      recordedBy: admin.id,
      createdAt: recordedAt,
    });
    rows.earningsLedger.push(
      adRevenueEarning(
        { id, hostId: demoHost.id, amountCents, currency: "USD", periodStart, periodEnd, recordedAt },
        rule,
      ),
    );
    seed.pools.event(openPoolId, {
      at: recordedAt,
      userId: null,
      sourceType: "ad_revenue",
      sourceKey: `ad:${id}`,
      contributionCents: saleShares(amountCents, rule).poolCents,
      earnsEntry: false,
    });
  }
}
