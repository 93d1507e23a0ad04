// /settings/responsible-play: who may enter prize draws and the fan's own limits on them (docs/product.md#eligibility,
// #self-exclusion). Its forms post to the settings layout's action (/settings), which hands each intent to its module.
import { DateOfBirthAndRegion, SelfExclusion } from "~/components/settings/eligibility-section";
import { getEnv } from "~/lib/context";
import { requireUser } from "~/lib/guards.server";
import { loadEligibilitySection } from "~/lib/responsible-play.server";
import type { Route } from "./+types/responsible-play";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  // Each part of the page loads its own data under its own key (the spend limit adds its key here).
  return { eligibility: await loadEligibilitySection(env, user) };
}

export default function SettingsResponsiblePlay({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <DateOfBirthAndRegion data={loaderData.eligibility} />
      {/* Spend limit (issue 29 item 4): its own component file (app/components/settings/spend-limit-*.tsx) goes here. */}
      <SelfExclusion data={loaderData.eligibility} />
    </div>
  );
}
