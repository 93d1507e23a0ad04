import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { preparedRead } from "~/db/prepared.server";
import { platformSettings } from "~/db/schema";
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
