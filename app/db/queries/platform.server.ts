import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { preparedRead } from "~/db/prepared.server";
import { adminAuditLog, platformSettings } from "~/db/schema";
import { POOL_CAP_SETTING_KEY, type PoolEntryCap } from "~/domain/pool-cap";
import { REVENUE_RULES_SETTING_KEY, type RevenueRules } from "~/domain/revenue";
import { resolveRevenueRules } from "~/domain/revenue-settings";

/** The revenue split rules: the platform setting when valid, else the defaults (docs/product.md#splits). */
export async function getRevenueRules(db: Db): Promise<RevenueRules> {
  const row = await revenueRulesRead(db).get();
  return resolveRevenueRules(row?.value);
}

const revenueRulesRead = preparedRead((db) =>
  db
    .select({ value: platformSettings.settingValue })
    .from(platformSettings)
    .where(eq(platformSettings.settingKey, REVENUE_RULES_SETTING_KEY))
    .limit(1)
    .prepare(),
);

/** The stored per-person entry cap setting (raw, as saved), or null (decision 560). */
export async function getPoolEntryCapSetting(db: Db): Promise<unknown> {
  const row = await poolEntryCapRead(db).get();
  return row?.value ?? null;
}

const poolEntryCapRead = preparedRead((db) =>
  db
    .select({ value: platformSettings.settingValue })
    .from(platformSettings)
    .where(eq(platformSettings.settingKey, POOL_CAP_SETTING_KEY))
    .limit(1)
    .prepare(),
);

/** Saves the per-person entry cap and its audit row in one batch. */
export async function savePoolEntryCapSetting(
  db: Db,
  adminId: string,
  setting: PoolEntryCap,
  previous: PoolEntryCap,
): Promise<void> {
  const now = new Date();
  await db.batch([
    db
      .insert(platformSettings)
      .values({ settingKey: POOL_CAP_SETTING_KEY, settingValue: setting, updatedAt: now })
      .onConflictDoUpdate({ target: platformSettings.settingKey, set: { settingValue: setting, updatedAt: now } }),
    db.insert(adminAuditLog).values({
      adminId,
      action: "pool_cap_updated",
      detail: { from: previous, to: setting },
      createdAt: now,
    }),
  ]);
}
