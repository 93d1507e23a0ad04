import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { saleShares } from "~/domain/earnings";
import { groupBuyOrderRule, poolShareCents, recordedGroupBuyRule } from "~/domain/group-buy";

// One rule for a group-buy order's pool share (its contribution) and its sale row in the earnings ledger (decision 380).
describe("a group-buy order's pool share is the pool part of its sale row", () => {
  it("for any amount, pool percent and group-buy platform fee", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 5000 }),
        (cents, poolBp, feeBp) => {
          const pool = poolBp / 100;
          const fee = feeBp / 100;
          expect(poolShareCents(cents, pool, fee)).toBe(saleShares(cents, groupBuyOrderRule(pool, fee)).poolCents);
        },
      ),
    );
  });

  it("at 10/85/5, USD 19.95 gives the pool 1.99 (half up would give 2.00), and without a fee it stays half up", () => {
    expect(poolShareCents(1_995, 10, 5)).toBe(199);
    expect(poolShareCents(1_995, 10)).toBe(200);
    expect(poolShareCents(2_345, 10)).toBe(235);
  });

  it("reads the split recorded on the order, else the rule in force", () => {
    const inForce = { prizePoolPercent: 10, hostPercent: 85, platformFeePercent: 5 };
    expect(recordedGroupBuyRule({ pool_percent: 12, platform_fee_percent: 3 }, inForce)).toEqual({
      prizePoolPercent: 12,
      hostPercent: 85,
      platformFeePercent: 3,
    });
    expect(recordedGroupBuyRule({ pool_percent: 10 }, inForce)).toEqual(inForce);
    expect(recordedGroupBuyRule(null, inForce)).toEqual(inForce);
  });
});
