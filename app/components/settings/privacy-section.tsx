import { Card } from "~/components/page";
import type { SettingsPageData } from "~/lib/settings-form";
import { SaveButton, SETTINGS_ACTION, Switch, useSettingsFetcher } from "./settings-ui";

export function PrivacySection({ data: d }: { data: SettingsPageData }) {
  const fetcher = useSettingsFetcher("settings-privacy");
  const p = d.privacy;
  return (
    <Card>
      <h2 className="font-semibold text-gray-900">Privacy</h2>
      <fetcher.Form method="post" action={SETTINGS_ACTION} className="mt-2">
        <input type="hidden" name="intent" value="privacy" />
        <div className="divide-y divide-gray-100">
          <Switch
            name="profilePublic"
            label="Public profile"
            hint="Show your profile on the home page, in Explore and in search. When off, others see that your profile is private."
            defaultChecked={p.profilePublic}
          />
          <Switch
            name="showRevenue"
            label="Show revenue"
            hint="Show your total revenue on your public profile."
            defaultChecked={p.showRevenue}
          />
          <Switch
            name="showFollowers"
            label="Show followers"
            hint="Show how many tribes follow you on your public profile."
            defaultChecked={p.showFollowers}
          />
        </div>
        <div className="mt-4">
          <SaveButton pending={fetcher.state !== "idle"} />
        </div>
      </fetcher.Form>
    </Card>
  );
}
