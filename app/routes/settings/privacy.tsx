// /settings/privacy: the privacy section below the settings layout, whose action saves its form.
import { useOutletContext } from "react-router";
import type { SettingsPageData } from "~/lib/settings-form";
import { PrivacySection } from "~/components/settings/privacy-section";

export default function SettingsPrivacy() {
  return <PrivacySection data={useOutletContext<SettingsPageData>()} />;
}
