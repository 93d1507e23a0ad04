// Whether an account may enter a host's pool now (issue 29, docs/product.md#eligibility): the one check every entry
// route calls, at checkout and again at fulfilment. Returns the refusal a fan sees, or null when the account may
// enter. Two D1 round trips at most: the account's facts with the excluded places (one batch), then its
// self-exclusion keys.

import { getDb } from "~/db/client.server";
import { getExcludedPlacesSetting, readEntryFacts } from "~/db/queries/eligibility.server";
import {
  entryRefusalOf,
  hasExcludedRegionIn,
  isExcludedPlace,
  isOfEntryAge,
  resolveExcludedPlaces,
  type EntryRefusal,
  type EntryRoute,
} from "~/domain/eligibility";
import { placeName } from "~/domain/regions";
import { selfExcludedUntil } from "~/lib/self-exclusion.server";

export interface EntryEligibilityInput {
  userId: string;
  /** The host whose pool the entry is for. */
  hostId: string;
  route: EntryRoute;
  now: Date;
}

/**
 * The refusal, in this order: the pool's own host, staff, a self-excluded person (by this account, its e-mail, or
 * its name with its date of birth, so a deleted and re-opened account is still excluded), no date of birth, under
 * MIN_ENTRY_AGE, a country whose excluded regions need the fan's region, an excluded country or region. Every route
 * (paid guess, entry-earning purchase, free entry, postcard) is refused alike.
 */
export async function entryRefusal(
  env: Pick<Env, "DB" | "SELF_EXCLUSION_SECRET" | "DEMO_MODE">,
  input: EntryEligibilityInput,
): Promise<EntryRefusal | null> {
  if (input.userId === input.hostId) return entryRefusalOf("own_pool");
  const { facts, excludedPlaces } = await readEntryFacts(getDb(env), input.userId);
  if (!facts || facts.deleted) return entryRefusalOf("account_closed");
  if (facts.role === "admin") return entryRefusalOf("staff");
  const excludedUntil = await selfExcludedUntil(
    env,
    { userId: input.userId, email: facts.email, names: [facts.name], dateOfBirth: facts.dateOfBirth },
    input.now,
  );
  if (excludedUntil) return entryRefusalOf("self_excluded");
  if (!facts.dateOfBirth) return entryRefusalOf("dob_required");
  if (!isOfEntryAge(facts.dateOfBirth, input.now)) return entryRefusalOf("under_age");
  if (isExcludedPlace(excludedPlaces, facts.country, facts.region)) return entryRefusalOf("excluded_place");
  if (facts.region === null && hasExcludedRegionIn(excludedPlaces, facts.country))
    return entryRefusalOf("region_required");
  return null;
}

/** A place where entries are not offered, for the official rules and the admin page. */
export interface ExcludedPlace {
  code: string;
  name: string;
}

/** The countries and regions where entries and paid guesses are not offered (the official rules list them). */
export async function listExcludedPlaces(env: Pick<Env, "DB">): Promise<ExcludedPlace[]> {
  const places = resolveExcludedPlaces(await getExcludedPlacesSetting(getDb(env)));
  return places.map((code) => ({ code, name: placeName(code) }));
}
