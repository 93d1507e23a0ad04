import { describe, expect, it } from "vitest";
import { reversedPartCents, reversedPartsCents } from "~/domain/payments";
import { reversalShareCents } from "~/domain/pool";

// A payment for several orders (a group-buy join, a cart host's part) contributed the sum of its orders' pool shares,
// each rounded per order: it gives back each order's share at that order's own refunded level (decision 380).

describe("reversedPartsCents", () => {
  it("is the sum of each order's part, never the rule taken once over the payment", () => {
    // A lamp (3.00 of 30.00) and a print (1.00 of 10.00) refunded 24.38 and 8.12: 243 + 81, where the host's part as a
    // whole (4.00 of 40.00 at 32.50) would give back 325.
    const orders = [
      { partCents: 300, paymentCents: 3_000, reversedCents: 2_438 },
      { partCents: 100, paymentCents: 1_000, reversedCents: 812 },
    ];
    expect(reversedPartsCents(orders)).toBe(324);
    expect(reversedPartCents(400, 4_000, 3_250)).toBe(325);
    // Every order refunded in full: exactly the whole contribution.
    expect(reversedPartsCents(orders.map((o) => ({ ...o, reversedCents: o.paymentCents })))).toBe(400);
    expect(reversedPartsCents([])).toBe(0);
  });

  it("gives back what each refund of a join adds, one refund at a time, as the per-order ledger books it", () => {
    const prices = [2_345, 1_999, 1_501, 777, 3_333, 1_234, 999];
    const shares = prices.map((p) => Math.round(p / 10));
    const reversed = prices.map(() => 0);
    const level = () =>
      reversedPartsCents(
        prices.map((p, i) => ({ partCents: shares[i]!, paymentCents: p, reversedCents: reversed[i]! })),
      );
    const contribution = shares.reduce((a, b) => a + b, 0);
    let pool = 0;
    let ledger = 0;
    for (const [i, refund] of [
      [0, 282],
      [1, 240],
      [2, 181],
      [3, 94],
      [4, 400],
      [5, 149],
      [6, 120],
      [1, 433],
      [3, 683],
    ] as const) {
      const before = reversedPartCents(shares[i]!, prices[i]!, reversed[i]!);
      reversed[i]! += refund;
      ledger += reversedPartCents(shares[i]!, prices[i]!, reversed[i]!) - before;
      pool += reversalShareCents({
        contributionCents: contribution,
        alreadyReversedCents: pool,
        reversedCents: refund,
        paymentCents: prices.reduce((a, b) => a + b, 0),
        cumulativeReversedCents: reversed.reduce((a, b) => a + b, 0),
        givenBackCents: level(),
      });
      expect(pool).toBe(ledger);
    }
  });

  it("reversalShareCents keeps a given-back level between 0 and the contribution, and each event its own way", () => {
    const base = { contributionCents: 100, paymentCents: 1_000, cumulativeReversedCents: 500 };
    expect(reversalShareCents({ ...base, alreadyReversedCents: 0, reversedCents: 500, givenBackCents: 250 })).toBe(100);
    expect(reversalShareCents({ ...base, alreadyReversedCents: 60, reversedCents: 500, givenBackCents: 49 })).toBe(0);
    expect(reversalShareCents({ ...base, alreadyReversedCents: 60, reversedCents: -500, givenBackCents: 49 })).toBe(
      -11,
    );
    expect(reversalShareCents({ ...base, alreadyReversedCents: 60, reversedCents: -500, givenBackCents: 70 })).toBe(0);
  });
});
