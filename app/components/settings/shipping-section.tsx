import { useState } from "react";
import { Field } from "~/components/form";
import { Card } from "~/components/page";
import { COUNTRIES } from "~/domain/currency";
import type { SettingsPageData } from "~/lib/settings-form";
import { SaveButton, SETTINGS_ACTION, useSettingsFetcher } from "./settings-ui";

export function ShippingSection({ data: d }: { data: SettingsPageData }) {
  const fetcher = useSettingsFetcher("settings-shipping");
  const [filter, setFilter] = useState("");
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(d.shipping));
  const needle = filter.trim().toLowerCase();
  const error = fetcher.data?.intent === "shipping" ? fetcher.data.errors?.countries : undefined;
  return (
    <Card>
      <h2 className="font-semibold text-gray-900">Shipping countries</h2>
      <p className="mt-1 text-sm text-gray-600">
        The countries you ship physical products to. Buyers elsewhere see your shop as coming soon and cannot check out.
        {chosen.size === 0
          ? ` With none chosen you ship to ${d.profile.country} only.`
          : ` You ship to ${chosen.size} ${chosen.size === 1 ? "country" : "countries"}.`}
      </p>
      <fetcher.Form method="post" action={SETTINGS_ACTION} className="mt-4 space-y-3">
        <input type="hidden" name="intent" value="shipping" />
        <Field
          label="Find a country"
          name="country-filter"
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
        <fieldset>
          <legend className="sr-only">Countries you ship to</legend>
          <ul className="grid max-h-96 gap-1 overflow-y-auto rounded-lg border border-gray-200 p-2 sm:grid-cols-2">
            {COUNTRIES.map((c) => (
              <li
                key={c.code}
                hidden={needle !== "" && !c.name.toLowerCase().includes(needle) && c.code.toLowerCase() !== needle}
              >
                <label className="flex items-center gap-2 rounded px-2 py-1 text-sm hover:bg-gray-50">
                  <input
                    type="checkbox"
                    name="countries"
                    value={c.code}
                    checked={chosen.has(c.code)}
                    onChange={(event) => {
                      const on = event.currentTarget.checked;
                      setChosen((set) => {
                        const next = new Set(set);
                        if (on) next.add(c.code);
                        else next.delete(c.code);
                        return next;
                      });
                    }}
                  />
                  {c.name}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {error ? <p className="text-sm text-red-600">{error}</p> : null}
        <SaveButton pending={fetcher.state !== "idle"}>Save Shipping Countries</SaveButton>
      </fetcher.Form>
    </Card>
  );
}
