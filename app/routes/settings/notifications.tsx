// /settings/notifications: the notifications section below the settings layout, whose action saves its form.
import { useOutletContext } from "react-router";
import type { SettingsPageData } from "~/lib/settings-form";
import { NotificationsSection } from "~/components/settings/notifications-section";

export default function SettingsNotifications() {
  return <NotificationsSection data={useOutletContext<SettingsPageData>()} />;
}
