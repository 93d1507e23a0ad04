// Who may hold an entry in a prize pool, and why not (issue 29, docs/decisions/510-lawful-draws.md,
// docs/product.md#eligibility). Pure: the refusal codes and the messages a fan sees, the age, the date-of-birth rule
// and the list of excluded places. app/lib/entry-eligibility.server.ts gathers the facts and decides.

import { z } from "zod";
import { isPlaceCode, placeName } from "./regions";

/** How an entry would be earned: a paid guess, a purchase that earns an entry, the free route, a postcard. */
export const ENTRY_ROUTES = ["paid_guess", "entry_purchase", "free_entry", "postal_entry"] as const;
export type EntryRoute = (typeof ENTRY_ROUTES)[number];

/** The age from which an account may enter a prize draw (the official rules name it). */
export const MIN_ENTRY_AGE = 18;

/** Where a fan sets their date of birth and region, and self-excludes. */
export const RESPONSIBLE_PLAY_PATH = "/settings/responsible-play";

/** Why an account may not enter (or earn an entry in) a pool. */
export const ENTRY_REFUSAL_CODES = [
  "staff",
  "own_pool",
  "account_closed",
  "self_excluded",
  "dob_required",
  "under_age",
  "region_required",
  "excluded_place",
] as const;
export type EntryRefusalCode = (typeof ENTRY_REFUSAL_CODES)[number];

export const ENTRY_REFUSAL_MESSAGES: Record<EntryRefusalCode, string> = {
  staff: "Platform staff cannot enter prize pools.",
  own_pool: "Hosts cannot enter their own prize pool.",
  account_closed: "This account is closed and cannot enter prize pools.",
  self_excluded: "You have excluded yourself from prize draws. You cannot enter until your self-exclusion ends.",
  dob_required: "Please add your date of birth in Settings > Responsible play before your first entry.",
  under_age: `You must be ${MIN_ENTRY_AGE} or over to enter prize draws.`,
  region_required:
    "Please choose your state or region in Settings > Responsible play: prize draws are not offered in some regions of your country.",
  excluded_place: "Prize draws are not offered where you live, so you cannot enter.",
};

/**
 * The refusal a page knows from the session alone, before any read: platform staff (the admin role) may never enter,
 * so the guess pages show them this instead of Free Guess and Paid Guess (checkout refuses them too). Null for anyone
 * else, whose refusal (if any) is decided at checkout.
 */
export function sessionRefusal(role: "user" | "admin" | undefined): string | null {
  return role === "admin" ? ENTRY_REFUSAL_MESSAGES.staff : null;
}

/** The page that lets the fan resolve a refusal, when one can (a link shown beside the message). */
export const ENTRY_REFUSAL_LINKS: Partial<Record<EntryRefusalCode, { href: string; label: string }>> = {
  dob_required: { href: RESPONSIBLE_PLAY_PATH, label: "Add your date of birth" },
  region_required: { href: RESPONSIBLE_PLAY_PATH, label: "Choose your region" },
  self_excluded: { href: RESPONSIBLE_PLAY_PATH, label: "Responsible play" },
};

export interface EntryRefusal {
  code: EntryRefusalCode;
  message: string;
  /** Where the fan can resolve it (e.g. add their date of birth); a page showing the message shows this link too. */
  link?: { href: string; label: string };
}

export function entryRefusalOf(code: EntryRefusalCode): EntryRefusal {
  const link = ENTRY_REFUSAL_LINKS[code];
  return link ? { code, message: ENTRY_REFUSAL_MESSAGES[code], link } : { code, message: ENTRY_REFUSAL_MESSAGES[code] };
}

/** What an account's refusal is decided on (app/db/queries/eligibility.server.ts reads it). */
export interface AccountEntryFacts {
  role: "user" | "admin";
  deleted: boolean;
  dateOfBirth: string | null;
  country: string;
  region: string | null;
}

/**
 * Why an account may not enter any pool, in this order: closed, staff, self-excluded (by this account, its e-mail, or
 * its name with its date of birth), no date of birth, under MIN_ENTRY_AGE, an excluded country or region, a country
 * with excluded regions and no region given. Null: it may enter.
 */
export function accountRefusalOf(
  facts: AccountEntryFacts | null,
  excludedPlaces: readonly string[],
  selfExcluded: boolean,
  now: Date,
): EntryRefusal | null {
  if (!facts || facts.deleted) return entryRefusalOf("account_closed");
  if (facts.role === "admin") return entryRefusalOf("staff");
  if (selfExcluded) return entryRefusalOf("self_excluded");
  if (!facts.dateOfBirth) return entryRefusalOf("dob_required");
  if (!isOfEntryAge(facts.dateOfBirth, now)) return entryRefusalOf("under_age");
  if (isExcludedPlace(excludedPlaces, facts.country, facts.region)) return entryRefusalOf("excluded_place");
  if (facts.region === null && hasExcludedRegionIn(excludedPlaces, facts.country))
    return entryRefusalOf("region_required");
  return null;
}

// --- date of birth -----------------------------------------------------------------------------------------------

/** No date of birth before this year is believable. */
export const EARLIEST_BIRTH_YEAR = 1900;

export const DATE_OF_BIRTH_MESSAGES = {
  format: "Please enter your date of birth as a date (YYYY-MM-DD).",
  notADate: "This date does not exist. Please check the day and month.",
  future: "Your date of birth cannot be in the future.",
  tooEarly: `Please enter a date of birth from ${EARLIEST_BIRTH_YEAR} on.`,
  alreadySet: "Your date of birth is already set and cannot be changed here. Please contact support if it is wrong.",
} as const;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The calendar date of `now` in UTC, as YYYY-MM-DD. */
export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** True when the YYYY-MM-DD text names a day of the calendar (2026-02-30 does not). */
export function isCalendarDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The date of birth a fan types: a real day, not in the future (UTC), not before EARLIEST_BIRTH_YEAR. */
export function dateOfBirthSchema(now: Date) {
  return z
    .string({ error: DATE_OF_BIRTH_MESSAGES.format })
    .trim()
    .regex(ISO_DATE, DATE_OF_BIRTH_MESSAGES.format)
    .refine(isCalendarDate, DATE_OF_BIRTH_MESSAGES.notADate)
    .refine((v) => v <= utcDate(now), DATE_OF_BIRTH_MESSAGES.future)
    .refine((v) => Number(v.slice(0, 4)) >= EARLIEST_BIRTH_YEAR, DATE_OF_BIRTH_MESSAGES.tooEarly);
}

/** Whole years from a YYYY-MM-DD date of birth to `now` (UTC); someone born on 29 February turns a year older on 1 March. */
export function ageOn(dateOfBirth: string, now: Date): number {
  const [year, month, day] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const today = utcDate(now);
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  const hadBirthday = tm > month || (tm === month && td >= day);
  return ty - year - (hadBirthday ? 0 : 1);
}

export function isOfEntryAge(dateOfBirth: string, now: Date): boolean {
  return ageOn(dateOfBirth, now) >= MIN_ENTRY_AGE;
}

// --- excluded places ---------------------------------------------------------------------------------------------

/** The platform setting holding the excluded places: a JSON array of ISO 3166-1 and ISO 3166-2 codes. */
export const EXCLUDED_PLACES_SETTING_KEY = "excluded_places";

/** At most this many places on the list (the admin form and the setting). */
export const EXCLUDED_PLACES_MAX = 300;

/**
 * Places the platform owner must decide on with legal advice: flagged on /admin, never excluded by default
 * (docs/product.md#eligibility).
 */
export const PLACES_NEEDING_LEGAL_DECISION: readonly { code: string; why: string }[] = [
  {
    code: "MY",
    why: "Malaysia's Common Gaming Houses Act 1953 may treat chance competitions linked to a purchase as gaming.",
  },
  {
    code: "US-NY",
    why: "New York requires games of chance whose prizes exceed $5,000 to be registered in advance, with a bond.",
  },
  {
    code: "US-FL",
    why: "Florida requires game promotions whose prizes exceed $5,000 to be filed in advance, with a bond or trust account.",
  },
];

/** The excluded places a stored setting names: valid codes only, each once, sorted; anything else gives none. */
export function resolveExcludedPlaces(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter(isPlaceCode))].sort();
}

/** Whether entries are refused for a fan of this country and region. */
export function isExcludedPlace(excluded: readonly string[], country: string, region: string | null): boolean {
  return excluded.includes(country) || (region !== null && excluded.includes(region));
}

/** Whether some region of the country is excluded (then a fan of that country must name their region). */
export function hasExcludedRegionIn(excluded: readonly string[], country: string): boolean {
  return excluded.some((code) => code.startsWith(`${country}-`));
}

export const EXCLUDED_PLACE_MESSAGES = {
  unknown: "Please enter a country code (ISO 3166-1, e.g. MY) or a region code (ISO 3166-2, e.g. US-NY) from the list.",
  already: (code: string) => `${placeName(code)} is already excluded.`,
  notListed: (code: string) => `${placeName(code)} is not on the list.`,
  tooMany: `At most ${EXCLUDED_PLACES_MAX} places can be excluded.`,
  added: (code: string) => `Entries are no longer offered in ${placeName(code)}.`,
  removed: (code: string) => `Entries are offered again in ${placeName(code)}.`,
} as const;

/** The admin form: add or remove one place code. */
export const excludedPlaceChangeSchema = z.object({
  change: z.enum(["add", "remove"], { error: EXCLUDED_PLACE_MESSAGES.unknown }),
  code: z
    .string({ error: EXCLUDED_PLACE_MESSAGES.unknown })
    .trim()
    .toUpperCase()
    .refine(isPlaceCode, EXCLUDED_PLACE_MESSAGES.unknown),
});
