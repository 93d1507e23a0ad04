// The per-person cap on a pool's entries (issue 29 item 5, docs/product.md#per-person-cap, decision 560): no account
// holds more than max(POOL_CAP_PERCENT of the pool's entries at the moment an entry is earned, POOL_CAP_FLOOR)
// entries. The pool's Durable Object applies it at fulfilment (reading the setting here); checkout asks
// `entryCapReached` whether an entry is expected; the platform owner edits the setting on /admin.

import { getDb } from "~/db/client.server";
import { getEntryCapFacts } from "~/db/queries/pools.server";
import { getPoolEntryCapSetting, savePoolEntryCapSetting } from "~/db/queries/platform.server";
import {
  mayEarnEntry,
  POOL_CAP_MESSAGES,
  POOL_CAP_SETTING_KEY,
  poolEntryCapSchema,
  resolvePoolEntryCap,
  type PoolEntryCap,
} from "~/domain/pool-cap";

/** The cap in force (the platform setting, else the defaults). */
export async function poolEntryCap(env: Pick<Env, "DB">): Promise<PoolEntryCap> {
  return resolvePoolEntryCap(await getPoolEntryCapSetting(getDb(env)));
}

/**
 * Whether the account already holds as many entries in the host's open pool as one person may: then a payment still
 * counts in the pool but earns no entry. Read from the D1 mirror of the pool (one statement); the pool's object
 * decides at fulfilment, exactly. False when the host has no open pool (the next one starts empty).
 * @public checkout's question: the entry gate of issue 29 item 4 (the limits work) calls it.
 */
export async function entryCapReached(
  env: Pick<Env, "DB">,
  input: { hostId: string; userId: string },
): Promise<boolean> {
  const facts = await getEntryCapFacts(getDb(env), { ...input, settingKey: POOL_CAP_SETTING_KEY });
  if (!facts) return false;
  return !mayEarnEntry(facts.held, facts.poolEntries, resolvePoolEntryCap(facts.setting));
}

export type PoolCapActionResult =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 409; message: string; fieldErrors: Record<string, string> };

/** The admin's form: saves the cap (both numbers) with an audit row. The caller has checked the admin role. */
export async function savePoolEntryCap(
  env: Pick<Env, "DB">,
  adminId: string,
  form: FormData,
): Promise<PoolCapActionResult> {
  const parsed = poolEntryCapSchema.safeParse({
    percent: String(form.get("percent") ?? "").trim() || undefined,
    floor: String(form.get("floor") ?? "").trim() || undefined,
  });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "percent");
      fieldErrors[field] ??= field === "floor" ? POOL_CAP_MESSAGES.floor : POOL_CAP_MESSAGES.percent;
    }
    return { ok: false, status: 400, message: Object.values(fieldErrors)[0]!, fieldErrors };
  }
  const db = getDb(env);
  const previous = resolvePoolEntryCap(await getPoolEntryCapSetting(db));
  if (previous.percent === parsed.data.percent && previous.floor === parsed.data.floor) {
    return { ok: false, status: 409, message: POOL_CAP_MESSAGES.unchanged, fieldErrors: {} };
  }
  await savePoolEntryCapSetting(db, adminId, parsed.data, previous);
  return { ok: true, message: POOL_CAP_MESSAGES.saved };
}
