import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import { DEFAULT_REVENUE_RULES } from "~/domain/revenue";
import { requireUser } from "~/lib/auth.server";
import type { Route } from "./+types/ads-revenue";

export const meta: Route.MetaFunction = () => pageMeta("Ads Revenue");

export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  // Read on the server: the revenue module (and its zod schema) stays out of the browser bundle.
  const { hostPercent, prizePoolPercent, platformFeePercent } = DEFAULT_REVENUE_RULES.ad_revenue;
  return { rule: { hostPercent, prizePoolPercent, platformFeePercent } };
}

export default function AdsRevenue({ loaderData }: Route.ComponentProps) {
  const { rule } = loaderData;
  return (
    <Page title="Ads Revenue" subtitle="Coming soon." back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      <Card>
        <p className="text-gray-700">
          Ads will be shown only in video content. When ad revenue starts, it is split {rule.hostPercent}% to you,{" "}
          {rule.prizePoolPercent}% to your prize pool and {rule.platformFeePercent}% to the platform. This page will then
          show your impressions, clicks, click-through rate and earnings in USD.
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <LinkButton to="/create-guess-win">Create a video game</LinkButton>
          <LinkButton to="/tribe" variant="secondary">
            My Tribe
          </LinkButton>
        </div>
      </Card>
    </Page>
  );
}
