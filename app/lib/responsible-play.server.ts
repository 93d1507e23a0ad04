// Settings > Responsible play (docs/product.md#eligibility, #self-exclusion): what the section shows, and its forms'
// intents (date of birth, region, self-exclusion), which the settings layout's action hands to
// responsiblePlayAction. Each form is parsed with zod; bad input gets a 4xx with its message and changes nothing.

import { z } from "zod";
import { getDb } from "~/db/client.server";
import { readEntryFacts, setDateOfBirthOnce, setProfileRegion } from "~/db/queries/eligibility.server";
import { formatUtcDate } from "~/domain/countdown";
import { countryByCode } from "~/domain/currency";
import { DATE_OF_BIRTH_MESSAGES, dateOfBirthSchema, MIN_ENTRY_AGE, type EntryRefusal } from "~/domain/eligibility";
import { isRegionOf, regionsOf, type Region } from "~/domain/regions";
import { SELF_EXCLUSION_MESSAGES, SELF_EXCLUSION_PERIOD_LABELS, selfExclusionSchema } from "~/domain/self-exclusion";
import type { SessionUser } from "~/lib/auth.server";
import { accountEligibility } from "~/lib/entry-eligibility.server";
import { excludeSelf } from "~/lib/self-exclusion.server";
import type { SettingsActionData } from "~/lib/settings-form";
import { fieldErrors } from "~/lib/validation";

/** The intents of the section's forms, posted to the settings action. */
type ResponsiblePlayIntent = "date-of-birth" | "region" | "self-exclude";

/** What the eligibility part of Settings > Responsible play shows. */
export interface EligibilitySectionData {
  dateOfBirth: string | null;
  minAge: number;
  /** Today in UTC (YYYY-MM-DD), the latest date of birth the form takes. */
  today: string;
  country: { code: string; name: string };
  region: string | null;
  regions: readonly Region[];
  accountName: string;
  /** Why the fan may not enter prize draws now, or null when they may. */
  refusal: EntryRefusal | null;
  /** When the fan's self-exclusion ends ("May 26, 2027"), or null when they are not excluded. */
  excludedUntil: string | null;
  periods: { value: string; label: string }[];
}

export async function loadEligibilitySection(
  env: Env,
  user: Pick<SessionUser, "id">,
  now = new Date(),
): Promise<EligibilitySectionData> {
  const { facts, refusal, selfExcludedUntil } = await accountEligibility(env, user.id, now);
  if (!facts) throw new Response("Profile not found", { status: 404 });
  const country = countryByCode(facts.country);
  return {
    dateOfBirth: facts.dateOfBirth,
    minAge: MIN_ENTRY_AGE,
    today: now.toISOString().slice(0, 10),
    country: { code: country.code, name: country.name },
    region: facts.region,
    regions: regionsOf(country.code),
    accountName: facts.name,
    refusal,
    excludedUntil: selfExcludedUntil ? formatUtcDate(selfExcludedUntil) : null,
    periods: Object.entries(SELF_EXCLUSION_PERIOD_LABELS).map(([value, label]) => ({ value, label })),
  };
}

type ResponsiblePlayResult = { body: SettingsActionData; status: number };

const answer = (intent: string, message: string, status = 200, errors?: Record<string, string>) => ({
  body: { ok: status < 400, intent, message, ...(errors ? { errors } : {}) },
  status,
});

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : undefined;
};

const REGION_MESSAGES = {
  saved: "Your region is saved.",
  cleared: "Your region is cleared.",
  notOfCountry: (country: string) => `Please choose a region of ${country} from the list.`,
} as const;

/** Handles one form of the section, by its intent. */
export async function responsiblePlayAction(
  env: Env,
  user: Pick<SessionUser, "id">,
  intent: ResponsiblePlayIntent,
  form: FormData,
  now = new Date(),
): Promise<ResponsiblePlayResult> {
  const db = getDb(env);
  switch (intent) {
    case "date-of-birth": {
      const parsed = z
        .object({ dateOfBirth: dateOfBirthSchema(now) })
        .safeParse({ dateOfBirth: text(form, "dateOfBirth") });
      if (!parsed.success) {
        const errors = fieldErrors(parsed.error);
        return answer(intent, errors.dateOfBirth ?? DATE_OF_BIRTH_MESSAGES.format, 400, errors);
      }
      // Set once: a date of birth cannot be changed here, so nobody under 18 can type a new one to enter.
      if (!(await setDateOfBirthOnce(db, user.id, parsed.data.dateOfBirth)))
        return answer(intent, DATE_OF_BIRTH_MESSAGES.alreadySet, 409, {
          dateOfBirth: DATE_OF_BIRTH_MESSAGES.alreadySet,
        });
      return answer(intent, "Your date of birth is saved.");
    }
    case "region": {
      const { facts } = await readEntryFacts(db, user.id);
      if (!facts) return answer(intent, "Profile not found", 404);
      const country = countryByCode(facts.country);
      const message = REGION_MESSAGES.notOfCountry(country.name);
      const parsed = z
        .object({
          region: z
            .string({ error: message })
            .trim()
            .toUpperCase()
            .max(10, message)
            .refine((v) => v === "" || isRegionOf(v, country.code), message)
            .transform((v) => (v === "" ? null : v)),
        })
        .safeParse({ region: text(form, "region") });
      if (!parsed.success) return answer(intent, message, 400, { region: message });
      await setProfileRegion(db, user.id, parsed.data.region);
      return answer(intent, parsed.data.region ? REGION_MESSAGES.saved : REGION_MESSAGES.cleared);
    }
    case "self-exclude": {
      const parsed = selfExclusionSchema.safeParse({
        period: text(form, "period"),
        fullName: text(form, "fullName"),
        confirm: text(form, "confirm"),
      });
      if (!parsed.success) {
        const errors = fieldErrors(parsed.error);
        return answer(intent, Object.values(errors)[0] ?? SELF_EXCLUSION_MESSAGES.period, 400, errors);
      }
      const { facts } = await readEntryFacts(db, user.id);
      if (!facts) return answer(intent, "Profile not found", 404);
      if (!facts.dateOfBirth) return answer(intent, SELF_EXCLUSION_MESSAGES.dobFirst, 409);
      const { endsAt, extended } = await excludeSelf(
        env,
        {
          userId: user.id,
          email: facts.email,
          names: [facts.name, parsed.data.fullName],
          dateOfBirth: facts.dateOfBirth,
        },
        parsed.data.period,
        now,
      );
      const until = formatUtcDate(endsAt);
      if (!extended) return answer(intent, SELF_EXCLUSION_MESSAGES.notShortened(until), 409);
      return answer(intent, SELF_EXCLUSION_MESSAGES.done(until));
    }
  }
}
