// /settings/responsible-play: who may enter prize draws and the fan's own limits on them (docs/product.md#eligibility,
// #self-exclusion). Its forms post to the settings layout's action (/settings), which hands each intent to its module.
import { Link } from "~/components/link";
import { DateOfBirthAndRegion, SelfExclusion } from "~/components/settings/eligibility-section";
import { RESPONSIBLE_PLAY_PAGE_PATH } from "~/domain/responsible-play";
import { SpendLimitSummary } from "~/components/settings/spend-limit-summary";
import { getEnv } from "~/lib/context";
import { spendLimitView } from "~/lib/entry-gate.server";
import { requireUser } from "~/lib/guards.server";
import { loadEligibilitySection } from "~/lib/responsible-play.server";
import type { Route } from "./+types/responsible-play";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  // Each part of the page loads its own data under its own key (the spend limit adds its key here).
  return {
    eligibility: await loadEligibilitySection(env, user),
    spendLimit: await spendLimitView(env, user.id, new Date()),
  };
}

export default function SettingsResponsiblePlay({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <p className="text-sm text-gray-600">
        How limits, self-exclusion, the per-person cap and free entry work, and where to find help:{" "}
        <Link to={RESPONSIBLE_PLAY_PAGE_PATH} className="font-medium text-brand-700 hover:underline">
          Responsible play
        </Link>
        .
      </p>
      <DateOfBirthAndRegion data={loaderData.eligibility} />
      <SpendLimitSummary data={loaderData.spendLimit} />
      <SelfExclusion data={loaderData.eligibility} />
    </div>
  );
}
