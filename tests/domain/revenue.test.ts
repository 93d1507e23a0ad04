import { describe, expect, it } from "vitest";
import { resolveRevenueRules } from "~/domain/revenue-settings";
import {
  BALANCE_PLATFORM_FEE_PERCENT,
  CONTRIBUTION_PLACEHOLDER_TYPES,
  CONTRIBUTION_TYPES,
  contributionLabel,
  DEFAULT_REVENUE_RULES,
  distributePool,
  HOST_DEPOSIT_POOL_PERCENT,
  isContributionType,
  MAIN_PRIZE_PERCENT,
  HOST_POOL_SHARE_PERCENT,
  PLATFORM_POOL_SHARE_PERCENT,
  poolContributionCents,
  REVENUE_RULES_SETTING_KEY,
  REVENUE_SOURCES,
  revenueSourceForContribution,
  splitRevenue,
  validateWithdrawal,
  withdrawableBalanceCents,
} from "~/domain/revenue";

describe("default revenue rules", () => {
  it("are the default platform fee / prize pool / host percentages", () => {
    expect(DEFAULT_REVENUE_RULES).toEqual({
      shop_sales: { platformFeePercent: 0, prizePoolPercent: 10, hostPercent: 90 },
      guess_win_entries: { platformFeePercent: 0, prizePoolPercent: 100, hostPercent: 0 },
      ad_revenue: { platformFeePercent: 20, prizePoolPercent: 30, hostPercent: 50 },
      group_buy_sales: { platformFeePercent: 0, prizePoolPercent: 10, hostPercent: 90 },
    });
    expect(REVENUE_SOURCES).toEqual(["shop_sales", "guess_win_entries", "ad_revenue", "group_buy_sales"]);
    expect(REVENUE_RULES_SETTING_KEY).toBe("revenue_distribution_rules");
    expect(HOST_DEPOSIT_POOL_PERCENT).toBe(100);
  });
});

describe("resolveRevenueRules", () => {
  it.each([
    ["undefined", undefined],
    ["null", null],
    ["a number", 42],
    ["an array", []],
    ["unparseable JSON text", "{not json"],
    ["JSON text of a number", "7"],
    ["a source that is not an object", { shop_sales: 10 }],
    ["a percentage above 100", { shop_sales: { prize_pool_contribution: 110, host_share: 0 } }],
    ["a negative percentage", { shop_sales: { prize_pool_contribution: -10, host_share: 90 } }],
    ["a string percentage", { shop_sales: { prize_pool_contribution: "10", host_share: 90 } }],
    ["pool + host above 100", { shop_sales: { prize_pool_contribution: 20, host_share: 90 } }],
    [
      "three parts not adding to 100",
      { ad_revenue: { prize_pool_contribution: 30, host_share: 50, platform_fee: 10 } },
    ],
    ["too many decimals", { shop_sales: { prize_pool_contribution: 10.001, host_share: 89.999 } }],
    ["a missing host share", { shop_sales: { prize_pool_contribution: 10 } }],
    [
      "one bad source among good ones",
      {
        shop_sales: { prize_pool_contribution: 20, host_share: 80 },
        ad_revenue: { prize_pool_contribution: 30, host_share: 80 },
      },
    ],
  ])("falls back to the defaults for %s", (_label, value) => {
    expect(resolveRevenueRules(value)).toEqual(DEFAULT_REVENUE_RULES);
  });

  it("keeps the defaults for an empty object", () => {
    expect(resolveRevenueRules({})).toEqual(DEFAULT_REVENUE_RULES);
  });

  it("applies a valid override over the defaults, the platform taking the rest", () => {
    const rules = resolveRevenueRules({ shop_sales: { prize_pool_contribution: 15, host_share: 80 } });
    expect(rules.shop_sales).toEqual({ platformFeePercent: 5, prizePoolPercent: 15, hostPercent: 80 });
    expect(rules.guess_win_entries).toEqual(DEFAULT_REVENUE_RULES.guess_win_entries);
    expect(rules.ad_revenue).toEqual(DEFAULT_REVENUE_RULES.ad_revenue);
    expect(rules.group_buy_sales).toEqual(DEFAULT_REVENUE_RULES.group_buy_sales);
  });

  it("accepts an explicit platform fee that completes 100", () => {
    const rules = resolveRevenueRules({
      ad_revenue: { prize_pool_contribution: 25, host_share: 55, platform_fee: 20 },
    });
    expect(rules.ad_revenue).toEqual({ platformFeePercent: 20, prizePoolPercent: 25, hostPercent: 55 });
  });

  it("accepts the setting as stored JSON text, with decimals, ignoring unknown keys", () => {
    const text = JSON.stringify({
      group_buy_sales: { prize_pool_contribution: 12.5, host_share: 87.5 },
      guess_win_entries: { prize_pool_contribution: 90, host_share: 0, platform_fee: 10 },
      unrelated: true,
    });
    const rules = resolveRevenueRules(text);
    expect(rules.group_buy_sales).toEqual({ platformFeePercent: 0, prizePoolPercent: 12.5, hostPercent: 87.5 });
    expect(rules.guess_win_entries).toEqual({ platformFeePercent: 10, prizePoolPercent: 90, hostPercent: 0 });
    expect(rules.shop_sales).toEqual(DEFAULT_REVENUE_RULES.shop_sales);
  });

  it("does not change the defaults object", () => {
    resolveRevenueRules({ shop_sales: { prize_pool_contribution: 50, host_share: 50 } });
    expect(DEFAULT_REVENUE_RULES.shop_sales.prizePoolPercent).toBe(10);
  });
});

describe("splitRevenue and poolContributionCents", () => {
  it("sends 10% of a shop sale to the pool and 90% to the host", () => {
    expect(splitRevenue("shop_sales", 10000)).toEqual({ prizePool: 1000, host: 9000, platformFee: 0 });
    expect(poolContributionCents("shop_sales", 10000)).toBe(1000);
    expect(poolContributionCents("group_buy_sales", 2500)).toBe(250);
  });

  it("sends 100% of an entry fee to the pool", () => {
    expect(splitRevenue("guess_win_entries", 300)).toEqual({ prizePool: 300, host: 0, platformFee: 0 });
    expect(poolContributionCents("guess_win_entries", 1)).toBe(1);
  });

  it("splits ad revenue 30 / 50 / 20", () => {
    expect(splitRevenue("ad_revenue", 1000)).toEqual({ prizePool: 300, host: 500, platformFee: 200 });
  });

  it("adds up exactly with uneven amounts", () => {
    expect(splitRevenue("shop_sales", 1999)).toEqual({ prizePool: 200, host: 1799, platformFee: 0 }); // 199.9 / 1799.1
    expect(splitRevenue("shop_sales", 5)).toEqual({ prizePool: 1, host: 4, platformFee: 0 }); // tie: pool first
    expect(splitRevenue("ad_revenue", 1)).toEqual({ prizePool: 0, host: 1, platformFee: 0 }); // 0.3 / 0.5 / 0.2
    expect(splitRevenue("ad_revenue", 3)).toEqual({ prizePool: 1, host: 1, platformFee: 1 }); // 0.9 / 1.5 / 0.6
    for (const source of REVENUE_SOURCES) {
      for (let amount = 0; amount <= 500; amount++) {
        const split = splitRevenue(source, amount);
        expect(split.prizePool + split.host + split.platformFee).toBe(amount);
      }
    }
  });

  it("uses the resolved rules", () => {
    const rules = resolveRevenueRules({ shop_sales: { prize_pool_contribution: 20, host_share: 75 } });
    expect(splitRevenue("shop_sales", 1000, rules)).toEqual({ prizePool: 200, host: 750, platformFee: 50 });
    expect(poolContributionCents("shop_sales", 1000, rules)).toBe(200);
  });
});

describe("distributePool", () => {
  it("is 60 / 25 / 15", () => {
    expect([MAIN_PRIZE_PERCENT, HOST_POOL_SHARE_PERCENT, PLATFORM_POOL_SHARE_PERCENT]).toEqual([60, 25, 15]);
    expect(distributePool(10000)).toEqual({ mainPrize: 6000, hostShare: 2500, platformShare: 1500 });
    expect(distributePool(1_000_000)).toEqual({ mainPrize: 600_000, hostShare: 250_000, platformShare: 150_000 });
  });

  it.each([
    [0, 0, 0, 0],
    [1, 1, 0, 0],
    [2, 1, 1, 0],
    [3, 2, 1, 0],
    [7, 4, 2, 1], // 4.2 / 1.75 / 1.05
    [99, 59, 25, 15], // 59.4 / 24.75 / 14.85
    [101, 61, 25, 15],
    [333, 200, 83, 50], // 199.8 / 83.25 / 49.95
  ])("distributePool(%i) = %i / %i / %i", (pool, mainPrize, hostShare, platformShare) => {
    expect(distributePool(pool)).toEqual({ mainPrize, hostShare, platformShare });
  });

  it("always sums back to the pool", () => {
    for (let pool = 0; pool <= 2000; pool++) {
      const { mainPrize, hostShare, platformShare } = distributePool(pool);
      expect(mainPrize + hostShare + platformShare).toBe(pool);
    }
    const big = 987_654_321_987;
    const parts = distributePool(big);
    expect(parts.mainPrize + parts.hostShare + parts.platformShare).toBe(big);
  });
});

describe("contribution labels", () => {
  it.each([
    ["product_purchase", "Store Sales"],
    ["guess_entry", "Entry Fees"],
    ["ad_revenue", "Ad Revenue"],
    ["group_buy_entry", "Group Buy Entries"],
    ["host_deposit", "Host Deposits"],
    ["manual_adjustment", "Manual Adjustments"],
    ["refund", "Refunds"],
    ["withdrawal", "Withdrawals"],
    ["store_sale", "Other"],
    ["", "Other"],
    [null, "Other"],
    [undefined, "Other"],
    [7, "Other"],
    ["toString", "Other"],
  ])("%j is %j", (type, label) => {
    expect(contributionLabel(type)).toBe(label);
  });

  it("knows its types", () => {
    expect(CONTRIBUTION_TYPES).toHaveLength(11);
    expect(isContributionType("refund")).toBe(true);
    // Issue 29's free routes: entries with no money.
    expect(contributionLabel("free_entry")).toBe("Free Entries");
    expect(contributionLabel("postal_entry")).toBe("Postal Entries");
    // A no-entry pool's amount moving to the host's next pool.
    expect(contributionLabel("carry_over")).toBe("Carried Over");
    expect(isContributionType("REFUND")).toBe(false);
    expect(CONTRIBUTION_PLACEHOLDER_TYPES.map(contributionLabel)).toEqual([
      "Store Sales",
      "Entry Fees",
      "Ad Revenue",
      "Group Buy Entries",
      "Host Deposits",
    ]);
  });

  it("maps contribution types to revenue sources", () => {
    expect(revenueSourceForContribution("product_purchase")).toBe("shop_sales");
    expect(revenueSourceForContribution("guess_entry")).toBe("guess_win_entries");
    expect(revenueSourceForContribution("ad_revenue")).toBe("ad_revenue");
    expect(revenueSourceForContribution("group_buy_entry")).toBe("group_buy_sales");
    expect(revenueSourceForContribution("host_deposit")).toBeNull();
    expect(revenueSourceForContribution("refund")).toBeNull();
  });
});

describe("host balance", () => {
  it("withholds a 4% platform fee, rounded down in the host's favour", () => {
    expect(BALANCE_PLATFORM_FEE_PERCENT).toBe(4);
    expect(withdrawableBalanceCents(10000)).toBe(9600);
    expect(withdrawableBalanceCents(99)).toBe(96); // fee 3.96 -> 3
    expect(withdrawableBalanceCents(24)).toBe(24); // fee 0.96 -> 0
    expect(withdrawableBalanceCents(25)).toBe(24);
    expect(withdrawableBalanceCents(0)).toBe(0);
    expect(withdrawableBalanceCents(-500)).toBe(0);
  });

  it("validates a withdrawal", () => {
    expect(validateWithdrawal("50", 9600)).toEqual({ ok: true, amountCents: 5000 });
    expect(validateWithdrawal("96.00", 9600)).toEqual({ ok: true, amountCents: 9600 });
    expect(validateWithdrawal("96.01", 9600)).toEqual({
      ok: false,
      message: "Withdrawal amount cannot exceed your withdrawable balance",
    });
    expect(validateWithdrawal("1", 9600)).toEqual({ ok: true, amountCents: 100 });
    // The dialog's input has min 1: the server refuses less too.
    for (const bad of ["0", "0.5", "0.99", "", "abc", "-5", "1.234", null]) {
      expect(validateWithdrawal(bad, 9600)).toEqual({ ok: false, message: "Please enter a valid amount to withdraw" });
    }
  });
});
