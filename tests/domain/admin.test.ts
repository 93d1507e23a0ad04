import { describe, expect, it } from "vitest";
import { adminUserQuerySchema, statusChangeSchema } from "~/domain/admin";
import { parseRevenueRulesForm } from "~/domain/revenue-settings";
import { activeSince, tribeQuerySchema } from "~/domain/tribe";

const valid: Record<string, string> = {
  "shop_sales.pool": "10",
  "shop_sales.host": "85.5",
  "shop_sales.platform": "4.5",
  "guess_win_entries.pool": "100",
  "guess_win_entries.host": "0",
  "guess_win_entries.platform": "0",
  "group_buy_sales.pool": "10",
  "group_buy_sales.host": "90",
  "group_buy_sales.platform": "0",
  "ad_revenue.pool": "30",
  "ad_revenue.host": "50",
  "ad_revenue.platform": "20",
};

describe("revenue distribution form", () => {
  it("accepts shares adding up to exactly 100% per source and returns the setting and rules", () => {
    const result = parseRevenueRulesForm((f) => valid[f]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.setting.shop_sales).toEqual({ prize_pool_contribution: 10, host_share: 85.5, platform_fee: 4.5 });
    expect(result.rules.shop_sales).toEqual({ prizePoolPercent: 10, hostPercent: 85.5, platformFeePercent: 4.5 });
  });

  it("names each source whose shares do not add up, or are not percentages", () => {
    const result = parseRevenueRulesForm(
      (f) => ({ ...valid, "shop_sales.host": "80", "ad_revenue.pool": "-1", "group_buy_sales.host": "90.001" })[f],
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        shop_sales: "Shop sales: the shares must add up to 100% (now 94.5%).",
        group_buy_sales: "Group buy sales: each share must be a number from 0 to 100 with at most two decimals.",
        ad_revenue: "Ad revenue: each share must be a number from 0 to 100 with at most two decimals.",
      },
    });
  });

  it("treats a missing field as invalid", () => {
    const result = parseRevenueRulesForm((f) => (f === "guess_win_entries.host" ? undefined : valid[f]));
    expect(result.ok).toBe(false);
  });
});

describe("admin and tribe query strings", () => {
  it("fall back to defaults for anything invalid", () => {
    expect(adminUserQuerySchema.parse({ q: "  Ana ", sort: "evil", page: "-2" })).toEqual({
      q: "Ana",
      sort: "joined",
      page: 1,
    });
    expect(adminUserQuerySchema.parse({ q: null, sort: "revenue", page: "3" })).toEqual({
      q: "",
      sort: "revenue",
      page: 3,
    });
    expect(tribeQuerySchema.parse({ q: "x".repeat(300), filter: "active", page: "x" })).toMatchObject({
      filter: "active",
      page: 1,
    });
    expect(tribeQuerySchema.parse({ q: "", filter: "sleepy", page: "2" })).toEqual({ q: "", filter: "all", page: 2 });
  });

  it("only accepts the three account statuses", () => {
    expect(statusChangeSchema.safeParse({ userId: "u1", status: "suspended" }).success).toBe(true);
    expect(statusChangeSchema.safeParse({ userId: "u1", status: "banned" }).success).toBe(false);
    expect(statusChangeSchema.safeParse({ userId: "", status: "active" }).success).toBe(false);
  });

  it("counts a member active for 30 days", () => {
    expect(activeSince(new Date("2026-03-31T00:00:00Z")).toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });
});
