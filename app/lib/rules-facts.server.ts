// The facts the official rules and the public "Responsible play" page state that the operator sets (issue 29 item
// 8, decision 560): the places where entries are not offered, the per-person cap, and where postal entries go.

import { listExcludedPlaces, type ExcludedPlace } from "~/lib/entry-eligibility.server";
import { poolEntryCap } from "~/lib/pool-cap.server";
import type { PoolEntryCap } from "~/domain/pool-cap";

export interface RulesFacts {
  excludedPlaces: ExcludedPlace[];
  cap: PoolEntryCap;
  /** The postal address for entry cards (POSTAL_ENTRY_ADDRESS), or null when the operator has not set one. */
  postalAddress: string | null;
  /** Where to ask for the postal address when none is set (MAIL_FROM). */
  contactEmail: string;
}

export async function loadRulesFacts(env: Pick<Env, "DB" | "MAIL_FROM" | "POSTAL_ENTRY_ADDRESS">): Promise<RulesFacts> {
  const [excludedPlaces, cap] = await Promise.all([listExcludedPlaces(env), poolEntryCap(env)]);
  const postal = (env.POSTAL_ENTRY_ADDRESS ?? "").trim();
  return { excludedPlaces, cap, postalAddress: postal === "" ? null : postal, contactEmail: env.MAIL_FROM };
}
