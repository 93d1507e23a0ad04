// Settings > Responsible play, the eligibility parts: date of birth and region (who may enter), and self-exclusion
// (docs/product.md#eligibility, #self-exclusion). Forms post to the settings action (app/lib/responsible-play.server.ts).
import { EntryRefusalNotice } from "~/components/entry-refusal-notice";
import { Field, SelectField } from "~/components/form";
import { Card } from "~/components/page";
import type { EligibilitySectionData } from "~/lib/responsible-play.server";
import { SaveButton, SETTINGS_ACTION, useSettingsFetcher } from "./settings-ui";

export function DateOfBirthAndRegion({ data: d }: { data: EligibilitySectionData }) {
  const dob = useSettingsFetcher("settings-date-of-birth");
  const region = useSettingsFetcher("settings-region");
  const dobErrors = dob.data?.intent === "date-of-birth" ? (dob.data.errors ?? {}) : {};
  const regionErrors = region.data?.intent === "region" ? (region.data.errors ?? {}) : {};
  return (
    <>
      <Card>
        <h2 className="font-semibold text-gray-900">Prize draws</h2>
        <div className="mt-2" data-testid="entry-status">
          {d.refusal ? (
            <EntryRefusalNotice refusal={d.refusal} showLink={false} />
          ) : (
            <p className="text-sm text-green-800">You can enter prize draws.</p>
          )}
        </div>
      </Card>

      <Card>
        <h2 className="font-semibold text-gray-900">Date of birth</h2>
        <p className="mt-1 text-sm text-gray-600">
          Prize draws are for people aged {d.minAge} or over. We ask for your date of birth before your first entry and
          never show it to anyone.
        </p>
        {d.dateOfBirth ? (
          <p className="mt-3 text-sm text-gray-800" data-testid="date-of-birth">
            Your date of birth: <span className="font-medium">{d.dateOfBirth}</span>. It cannot be changed here; please
            contact support if it is wrong.
          </p>
        ) : (
          <dob.Form method="post" action={SETTINGS_ACTION} className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="date-of-birth" />
            <Field
              label="Date of birth"
              name="dateOfBirth"
              type="date"
              required
              min="1900-01-01"
              max={d.today}
              autoComplete="bday"
              hint="Once saved it cannot be changed here."
              error={dobErrors.dateOfBirth}
            />
            <SaveButton pending={dob.state !== "idle"}>Save date of birth</SaveButton>
          </dob.Form>
        )}
      </Card>

      <Card>
        <h2 className="font-semibold text-gray-900">Where you live</h2>
        <p className="mt-1 text-sm text-gray-600">
          Country: <span className="font-medium text-gray-900">{d.country.name}</span>. Prize draws are not offered in
          some countries and regions; the official rules list them.
        </p>
        {d.regions.length === 0 ? (
          <p className="mt-3 text-sm text-gray-600">No region is needed for {d.country.name}.</p>
        ) : (
          <region.Form method="post" action={SETTINGS_ACTION} className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="region" />
            <SelectField
              label={d.country.code === "US" ? "State" : "Region"}
              name="region"
              defaultValue={d.region ?? ""}
              placeholder="Not set"
              options={d.regions.map((r) => ({ value: r.code, label: r.name }))}
              error={regionErrors.region}
            />
            <SaveButton pending={region.state !== "idle"}>Save region</SaveButton>
          </region.Form>
        )}
      </Card>
    </>
  );
}

export function SelfExclusion({ data: d }: { data: EligibilitySectionData }) {
  const exclude = useSettingsFetcher("settings-self-exclude");
  const errors = exclude.data?.intent === "self-exclude" ? (exclude.data.errors ?? {}) : {};
  return (
    <Card>
      <h2 className="font-semibold text-gray-900">Self-exclusion</h2>
      <p className="mt-1 text-sm text-gray-600">
        Exclude yourself from prize draws for 6 months, 1 year or 5 years: no paid guesses, no free entries, and no
        purchase earns an entry. It cannot be undone or shortened, also not by deleting your account: a new account with
        your e-mail, or your name and date of birth, stays excluded until the end.
      </p>
      {d.excludedUntil ? (
        <p role="status" className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {`You are excluded from prize draws until ${d.excludedUntil}. You can extend it below.`}
        </p>
      ) : null}
      {exclude.data?.ok ? (
        <p role="status" className="mt-3 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800">
          {exclude.data.message}
        </p>
      ) : null}
      {d.dateOfBirth ? (
        <exclude.Form method="post" action={SETTINGS_ACTION} className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="self-exclude" />
          <fieldset aria-describedby={errors.period ? "period-error" : undefined}>
            <legend className="text-sm font-medium text-gray-700">How long</legend>
            <div className="mt-1 flex flex-wrap gap-4">
              {d.periods.map((p) => (
                <label key={p.value} className="flex items-center gap-2 text-sm text-gray-800">
                  <input type="radio" name="period" value={p.value} required />
                  {p.label}
                </label>
              ))}
            </div>
            {errors.period ? (
              <p id="period-error" className="mt-1 text-sm text-red-600">
                {errors.period}
              </p>
            ) : null}
          </fieldset>
          <Field
            label="Your full name"
            name="fullName"
            required
            maxLength={120}
            autoComplete="name"
            defaultValue={d.accountName}
            hint="As on your ID: it keeps you excluded if you open another account."
            error={errors.fullName}
          />
          <div>
            <label className="flex items-start gap-2 text-sm text-gray-800">
              <input type="checkbox" name="confirm" required className="mt-0.5" />I understand that I cannot undo this
              early.
            </label>
            {errors.confirm ? <p className="mt-1 text-sm text-red-600">{errors.confirm}</p> : null}
          </div>
          <SaveButton pending={exclude.state !== "idle"}>Exclude me from prize draws</SaveButton>
        </exclude.Form>
      ) : (
        <p className="mt-3 text-sm text-gray-800">
          Please add your date of birth above first: it keeps you excluded if you open a new account.
        </p>
      )}
    </Card>
  );
}
