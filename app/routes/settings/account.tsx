// /settings/account: password, e-mail, guest orders, data export and account deletion, below the settings layout.
import { useOutletContext } from "react-router";
import { AccountSection } from "~/components/settings/account-section";
import { getDb } from "~/db/client.server";
import { getEnv } from "~/lib/context";
import { requireUser } from "~/lib/guards.server";
import type { SettingsPageData } from "~/lib/settings-form";
import { loadAccountSection } from "~/lib/settings.server";
import type { Route } from "./+types/account";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return loadAccountSection(getDb(getEnv(context)), user.id);
}

export default function SettingsAccount({ loaderData }: Route.ComponentProps) {
  return <AccountSection data={useOutletContext<SettingsPageData>()} account={loaderData} />;
}
