import { Card, Page, pageMeta, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getOwnProfile } from "~/db/queries/profiles.server";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/revenue-management";

export const meta: Route.MetaFunction = () => pageMeta("Revenue Management");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const profile = await getOwnProfile(getDb(getEnv(context)), user.id);
  const currency = profile?.currency ?? "USD";
  return {
    available: formatCents(profile?.withdrawableBalanceCents ?? 0, currency),
    totalRevenue: formatCents(profile?.totalRevenueCents ?? 0, currency),
  };
}

export default function RevenueManagement({ loaderData }: Route.ComponentProps) {
  const { available, totalRevenue } = loaderData;
  return (
    <Page title="Revenue Management" back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Stat label="Available Balance" value={available} />
        <Stat label="Total Revenue" value={totalRevenue} />
      </div>
      <Card className="mt-6">
        <p className="text-sm text-gray-700">
          This page will break your revenue down by week, month and year into Shop Sales, Guess &amp; Win and Ad Revenue,
          and let you withdraw your available balance to your payout method.
        </p>
      </Card>
    </Page>
  );
}
