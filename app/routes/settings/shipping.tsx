// /settings/shipping: the shipping section below the settings layout, whose action saves its form.
import { useOutletContext } from "react-router";
import type { SettingsPageData } from "~/lib/settings-form";
import { ShippingSection } from "~/components/settings/shipping-section";

export default function SettingsShipping() {
  return <ShippingSection data={useOutletContext<SettingsPageData>()} />;
}
