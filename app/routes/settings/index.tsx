// /settings: the profile section below the settings layout. Links made before the sections had their own URLs name
// one as `/settings?tab=<id>`; that URL still shows the section it names, in place.
import { useOutletContext } from "react-router";
import { AccountSection } from "~/components/settings/account-section";
import { NotificationsSection } from "~/components/settings/notifications-section";
import { PrivacySection } from "~/components/settings/privacy-section";
import { ProfileSection } from "~/components/settings/profile-section";
import { ShippingSection } from "~/components/settings/shipping-section";
import { getDb } from "~/db/client.server";
import { getEnv } from "~/lib/context";
import { requireUser } from "~/lib/guards.server";
import { sectionOfTab, type SettingsPageData } from "~/lib/settings-form";
import { loadAccountSection } from "~/lib/settings.server";
import type { Route } from "./+types/index";

export async function loader({ request, context }: Route.LoaderArgs) {
  const section = sectionOfTab(new URL(request.url).searchParams.get("tab"));
  if (section !== "account") return { section, account: null };
  const user = await requireUser(context, request);
  return { section, account: await loadAccountSection(getDb(getEnv(context)), user.id) };
}

export default function SettingsIndex({ loaderData }: Route.ComponentProps) {
  const data = useOutletContext<SettingsPageData>();
  const { section, account } = loaderData;
  if (section === "shipping") return <ShippingSection data={data} />;
  if (section === "notifications") return <NotificationsSection data={data} />;
  if (section === "privacy") return <PrivacySection data={data} />;
  if (section === "account" && account) return <AccountSection data={data} account={account} />;
  return <ProfileSection data={data} />;
}
