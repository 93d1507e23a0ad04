// The platform owner's list of excluded places (docs/product.md#eligibility): countries and regions where entries and
// paid guesses are not offered. /admin shows it and adds or removes one place at a time; each change is audit-logged
// in the same batch as the setting, and only applies to the list the admin saw.

import { getDb } from "~/db/client.server";
import { getExcludedPlacesSetting, saveExcludedPlaces } from "~/db/queries/eligibility.server";
import {
  EXCLUDED_PLACE_MESSAGES,
  EXCLUDED_PLACES_MAX,
  excludedPlaceChangeSchema,
  PLACES_NEEDING_LEGAL_DECISION,
  resolveExcludedPlaces,
} from "~/domain/eligibility";
import { placeName } from "~/domain/regions";

export type ExcludedPlacesResult =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 409; message: string; fieldErrors: Record<string, string> };

/** What the admin section shows: the list, and the places flagged for the operator's legal decision. */
export interface ExcludedPlacesAdminData {
  excluded: { code: string; name: string }[];
  flagged: { code: string; name: string; why: string; excluded: boolean }[];
}

export async function loadExcludedPlacesAdmin(env: Pick<Env, "DB">): Promise<ExcludedPlacesAdminData> {
  const excluded = resolveExcludedPlaces(await getExcludedPlacesSetting(getDb(env)));
  return {
    excluded: excluded.map((code) => ({ code, name: placeName(code) })),
    flagged: PLACES_NEEDING_LEGAL_DECISION.map((p) => ({
      code: p.code,
      name: placeName(p.code),
      why: p.why,
      excluded: excluded.includes(p.code),
    })),
  };
}

const LIST_CHANGED = "The list was changed meanwhile. Please look at it again and retry.";

/** Adds a place to the list or removes one (form fields `change` = add | remove and `code`). */
export async function changeExcludedPlaces(
  env: Pick<Env, "DB">,
  adminId: string,
  form: FormData,
): Promise<ExcludedPlacesResult> {
  const parsed = excludedPlaceChangeSchema.safeParse({ change: form.get("change"), code: form.get("code") });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? EXCLUDED_PLACE_MESSAGES.unknown;
    return { ok: false, status: 400, message, fieldErrors: { code: message } };
  }
  const { change, code } = parsed.data;
  const db = getDb(env);
  const previous = await getExcludedPlacesSetting(db);
  const current = resolveExcludedPlaces(previous);
  const refuse = (status: 400 | 409, message: string): ExcludedPlacesResult => ({
    ok: false,
    status,
    message,
    fieldErrors: { code: message },
  });
  if (change === "add" && current.includes(code)) return refuse(409, EXCLUDED_PLACE_MESSAGES.already(code));
  if (change === "add" && current.length >= EXCLUDED_PLACES_MAX) return refuse(400, EXCLUDED_PLACE_MESSAGES.tooMany);
  if (change === "remove" && !current.includes(code)) return refuse(409, EXCLUDED_PLACE_MESSAGES.notListed(code));
  const next = change === "add" ? [...current, code].sort() : current.filter((c) => c !== code);
  const saved = await saveExcludedPlaces(db, {
    adminId,
    previous,
    next,
    detail: { change, code, name: placeName(code), from: current, to: next },
  });
  if (!saved) return refuse(409, LIST_CHANGED);
  return {
    ok: true,
    message: change === "add" ? EXCLUDED_PLACE_MESSAGES.added(code) : EXCLUDED_PLACE_MESSAGES.removed(code),
  };
}
