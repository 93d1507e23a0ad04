// The platform setting that overrides the revenue split defaults, validated with zod. Kept apart from revenue.ts so
// the pure splitting rules can go to the browser without zod.

import { z } from "zod";
import { percentToBasisPoints } from "./money";
import {
  DEFAULT_REVENUE_RULES,
  REVENUE_SOURCES,
  type RevenueRule,
  type RevenueRules,
  type RevenueSource,
} from "./revenue";

const percentSchema = z
  .number()
  .min(0)
  .max(100)
  .refine((value) => {
    try {
      percentToBasisPoints(value);
      return true;
    } catch {
      return false;
    }
  }, "at most two decimals");

/**
 * One source in the setting, in the setting's field names: `prize_pool_contribution` and `host_share` percentages and
 * an optional `platform_fee`. Without a platform fee the platform takes what is left; with one, the three must add
 * up to exactly 100.
 */
const ruleSettingSchema = z
  .object({
    prize_pool_contribution: percentSchema,
    host_share: percentSchema,
    platform_fee: percentSchema.optional(),
  })
  .transform((rule) => ruleFromSetting(rule.prize_pool_contribution, rule.host_share, rule.platform_fee))
  .refine((rule): rule is RevenueRule => rule !== null, "percentages must add up to 100");

function ruleFromSetting(poolPercent: number, hostPercent: number, platformPercent?: number): RevenueRule | null {
  const pool = percentToBasisPoints(poolPercent);
  const host = percentToBasisPoints(hostPercent);
  const platform = platformPercent === undefined ? 10000 - pool - host : percentToBasisPoints(platformPercent);
  if (platform < 0 || pool + host + platform !== 10000) return null;
  return { platformFeePercent: platform / 100, prizePoolPercent: pool / 100, hostPercent: host / 100 };
}

/** The whole setting: any subset of the sources; sources left out keep their defaults, unknown keys are ignored. */
export const revenueRulesSettingSchema = z.object({
  shop_sales: ruleSettingSchema.optional(),
  guess_win_entries: ruleSettingSchema.optional(),
  ad_revenue: ruleSettingSchema.optional(),
  group_buy_sales: ruleSettingSchema.optional(),
});

/**
 * The revenue rules in force: the platform setting `revenue_distribution_rules` (an object, or its JSON text as
 * stored) applied over the defaults. A missing, unparseable or invalid setting (any source failing validation)
 * gives the defaults unchanged, so a typo never half-applies.
 */
export function resolveRevenueRules(settingValue: unknown): RevenueRules {
  let value = settingValue;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return DEFAULT_REVENUE_RULES;
    }
  }
  const parsed = revenueRulesSettingSchema.safeParse(value);
  if (!parsed.success) return DEFAULT_REVENUE_RULES;
  const rules = { ...DEFAULT_REVENUE_RULES };
  for (const source of REVENUE_SOURCES) {
    const override = parsed.data[source];
    if (override) rules[source] = override;
  }
  return rules;
}

export const REVENUE_SOURCE_LABELS: Record<RevenueSource, string> = {
  shop_sales: "Shop sales",
  guess_win_entries: "Guess & Win entries",
  group_buy_sales: "Group buy sales",
  ad_revenue: "Ad revenue",
};

/** The three shares of one source as the admin form names its fields: `{source}.pool`, `.host`, `.platform`. */
export const REVENUE_SHARE_FIELDS = ["pool", "host", "platform"] as const;

export type RevenueRulesFormResult =
  | {
      ok: true;
      setting: Record<RevenueSource, { prize_pool_contribution: number; host_share: number; platform_fee: number }>;
      rules: RevenueRules;
    }
  | { ok: false; errors: Partial<Record<RevenueSource, string>> };

/**
 * Validates the admin's revenue distribution form: every source needs three percentages from 0 to 100 with at
 * most two decimals, and each source's shares must add up to exactly 100%. Returns the setting in its own field
 * names (what platform_settings stores) or one message per failing source.
 */
export function parseRevenueRulesForm(read: (field: string) => unknown): RevenueRulesFormResult {
  const errors: Partial<Record<RevenueSource, string>> = {};
  const setting = {} as Record<
    RevenueSource,
    { prize_pool_contribution: number; host_share: number; platform_fee: number }
  >;
  for (const source of REVENUE_SOURCES) {
    const label = REVENUE_SOURCE_LABELS[source];
    const values: number[] = [];
    for (const field of REVENUE_SHARE_FIELDS) {
      const raw = read(`${source}.${field}`);
      const text = typeof raw === "string" ? raw.trim() : "";
      const value = text === "" ? Number.NaN : Number(text);
      const parsed = percentSchema.safeParse(value);
      if (!parsed.success) {
        errors[source] = `${label}: each share must be a number from 0 to 100 with at most two decimals.`;
        break;
      }
      values.push(parsed.data);
    }
    if (errors[source]) continue;
    const [pool = 0, host = 0, platform = 0] = values;
    const totalBasisPoints = percentToBasisPoints(pool) + percentToBasisPoints(host) + percentToBasisPoints(platform);
    if (totalBasisPoints !== 10000) {
      errors[source] = `${label}: the shares must add up to 100% (now ${totalBasisPoints / 100}%).`;
      continue;
    }
    setting[source] = { prize_pool_contribution: pool, host_share: host, platform_fee: platform };
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, setting, rules: resolveRevenueRules(setting) };
}
