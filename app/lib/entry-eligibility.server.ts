// Whether an account may enter a host's pool now (issue 29, docs/product.md#eligibility): the one check every entry
// route calls, at checkout and again at fulfilment. Returns the refusal a fan sees, or null when the account may
// enter. Two D1 round trips at most: the account's facts with the excluded places (one batch), then its
// self-exclusion keys.

import { getDb } from "~/db/client.server";
import { getExcludedPlacesSetting, readEntryFacts, type EntryFacts } from "~/db/queries/eligibility.server";
import {
  accountRefusalOf,
  entryRefusalOf,
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

type EligibilityEnv = Pick<Env, "DB" | "SELF_EXCLUSION_SECRET" | "DEMO_MODE">;

/**
 * @public Every entry route calls it (checkout and fulfilment: app/lib/entry-gate.server.ts, being wired for issue 29).
 *
 * The refusal: the pool's own host, then the account's own (accountRefusalOf: closed, staff, self-excluded, no date
 * of birth, under 18, excluded place, region needed). Every route (paid guess, entry-earning purchase, free entry,
 * postcard) is refused alike.
 */
export async function entryRefusal(env: EligibilityEnv, input: EntryEligibilityInput): Promise<EntryRefusal | null> {
  if (input.userId === input.hostId) return entryRefusalOf("own_pool");
  return (await accountEligibility(env, input.userId, input.now)).refusal;
}

/** The account's facts, its refusal for any pool, and until when it is self-excluded (null: it is not). */
export async function accountEligibility(
  env: EligibilityEnv,
  userId: string,
  now: Date,
): Promise<{ facts: EntryFacts | null; refusal: EntryRefusal | null; selfExcludedUntil: Date | null }> {
  const { facts, excludedPlaces } = await readEntryFacts(getDb(env), userId);
  if (!facts || facts.deleted || facts.role === "admin")
    return { facts, refusal: accountRefusalOf(facts, excludedPlaces, false, now), selfExcludedUntil: null };
  const until = await selfExcludedUntil(
    env,
    { userId, email: facts.email, names: [facts.name], dateOfBirth: facts.dateOfBirth },
    now,
  );
  return { facts, refusal: accountRefusalOf(facts, excludedPlaces, until !== null, now), selfExcludedUntil: until };
}

/** A place where entries are not offered, for the official rules and the admin page. */
export interface ExcludedPlace {
  code: string;
  name: string;
}

/**
 * @public The official rules page calls it (issue 29 item 8, being written).
 *
 * The countries and regions where entries and paid guesses are not offered (the official rules list them).
 */
export async function listExcludedPlaces(env: Pick<Env, "DB">): Promise<ExcludedPlace[]> {
  const places = resolveExcludedPlaces(await getExcludedPlacesSetting(getDb(env)));
  return places.map((code) => ({ code, name: placeName(code) }));
}
