// Whether an account may enter a host's pool now (issue 29): the one check every entry route calls, at checkout and
// again at fulfilment. Returns the refusal a fan sees, or null when the account may enter.

import { getDb } from "~/db/client.server";
import { getUserRole } from "~/db/queries/accounts.server";
import { entryRefusalOf, type EntryRefusal, type EntryRoute } from "~/domain/eligibility";

export interface EntryEligibilityInput {
  userId: string;
  /** The host whose pool the entry is for. */
  hostId: string;
  route: EntryRoute;
  now: Date;
}

export async function entryRefusal(env: Pick<Env, "DB">, input: EntryEligibilityInput): Promise<EntryRefusal | null> {
  if (input.userId === input.hostId) return entryRefusalOf("own_pool");
  const role = await getUserRole(getDb(env), input.userId);
  if (role === "admin") return entryRefusalOf("staff");
  return null;
}
