import { describe, expect, it } from "vitest";
import { splitByWeights } from "~/domain/money";
import { reversalVoidsEntry } from "~/domain/pool";
import {
  allocateAcrossOrders,
  disputeCounts,
  entryStanding,
  entryStandingText,
  refundableCents,
  refundFailed,
  refundFailedMail,
  refundMail,
  refundCounts,
  refundState,
  refundStatusRank,
} from "~/domain/payments";

describe("refund rules", () => {
  it("pending and succeeded refunds count; failed and canceled ones do not", () => {
    expect(["pending", "requires_action", "succeeded"].map(refundCounts)).toEqual([true, true, true]);
    expect(["failed", "canceled", "unknown"].map(refundCounts)).toEqual([false, false, false]);
  });

  it("statuses only move forward: pending < succeeded < failed/canceled", () => {
    expect(refundStatusRank("pending")).toBeLessThan(refundStatusRank("succeeded"));
    expect(refundStatusRank("requires_action")).toBe(refundStatusRank("pending"));
    expect(refundStatusRank("succeeded")).toBeLessThan(refundStatusRank("failed"));
    expect(refundStatusRank("canceled")).toBe(refundStatusRank("failed"));
  });

  it("refund state, refundable amount and the entry's void threshold (more than half)", () => {
    expect([refundState(4000, 0), refundState(4000, 1), refundState(4000, 4000)]).toEqual(["none", "partial", "full"]);
    expect(refundableCents(4000, 1500)).toBe(2500);
    expect(refundableCents(4000, 5000)).toBe(0);
    expect(reversalVoidsEntry(2000, 4000)).toBe(false);
    expect(reversalVoidsEntry(2001, 4000)).toBe(true);
  });
});

describe("dispute rules", () => {
  const d = (status: string, fundsWithdrawn = false, fundsReinstated = false) => ({
    status,
    fundsWithdrawn,
    fundsReinstated,
  });

  it("counts while the funds are withdrawn and not reinstated, and always once lost", () => {
    expect(disputeCounts(d("needs_response"))).toBe(false);
    expect(disputeCounts(d("needs_response", true))).toBe(true);
    expect(disputeCounts(d("under_review", true, true))).toBe(false);
    expect(disputeCounts(d("lost"))).toBe(true);
    expect(disputeCounts(d("won", true))).toBe(false);
  });
});

/** The site's origin the mails link to (SITE_ORIGIN); the push notification's `url` stays a path. */
const SITE = "https://tribe.example";

describe("refundMail", () => {
  const order = { orderNumber: "ORD-1234ABCD", productName: "Mug", hostName: "Clay Studio" };
  it("names the host who refunded an order, the reason and when the money arrives", () => {
    const mail = refundMail({
      origin: "host",
      siteOrigin: SITE,
      amount: "USD 15.00",
      reason: "Chipped",
      order,
      purpose: "product",
    });
    expect(mail.subject).toBe("Refund of USD 15.00 for order ORD-1234ABCD");
    expect(mail.text).toBe(
      "Clay Studio refunded USD 15.00 of your order ORD-1234ABCD (Mug).\n\nReason: Chipped\n\nRefunds take 3-5 business days to appear on your statement.\n\nSee the order: https://tribe.example/order/ORD-1234ABCD",
    );
    expect(mail.url).toBe("/order/ORD-1234ABCD");
  });
  it("an approved return's refund is its approval mail", () => {
    const mail = refundMail({
      origin: "return",
      siteOrigin: SITE,
      amount: "USD 40.00",
      reason: null,
      order,
      purpose: "product",
    });
    expect(mail.subject).toBe("Your return of order ORD-1234ABCD is approved");
    expect(mail.text).toContain("A refund of USD 40.00 goes back to your payment method.");
  });
  it("a guess's fee (no order) says what it was for", () => {
    const mail = refundMail({
      origin: "unfulfillable",
      siteOrigin: SITE,
      amount: "USD 5.00",
      reason: "Too late.",
      order: null,
      purpose: "guess_entry",
    });
    expect(mail.subject).toBe("Refund of USD 5.00 for your guess");
    expect(mail.text).toBe(
      "USD 5.00 you paid for your guess is refunded to your payment method.\n\nReason: Too late.\n\nRefunds take 3-5 business days to appear on your statement.",
    );
    expect(mail.url).toBe("/guess-win");
  });
  it("a cart refund split over its orders names each order and its part, and so does its failure", () => {
    const parts = [
      { orderNumber: "ORD-AAAA1111", productName: "Lamp", amount: "USD 30.00" },
      { orderNumber: "ORD-BBBB2222", productName: "Class", amount: "USD 40.00" },
    ];
    const mail = refundMail({
      origin: "provider",
      siteOrigin: SITE,
      amount: "USD 70.00",
      reason: null,
      order: null,
      purpose: "cart",
      parts,
    });
    expect(mail.subject).toBe("Refund of USD 70.00 for 2 orders");
    expect(mail.text).toBe(
      "USD 70.00 of your cart payment is refunded to your payment method:\n- Order ORD-AAAA1111 (Lamp): USD 30.00\n- Order ORD-BBBB2222 (Class): USD 40.00\n\nRefunds take 3-5 business days to appear on your statement.\n\nSee your orders: https://tribe.example/my-orders",
    );
    const failed = refundFailedMail({
      origin: "provider",
      siteOrigin: SITE,
      amount: "USD 70.00",
      reason: null,
      order: null,
      purpose: "cart",
      parts,
      announced: true,
      missedDrawEntry: null,
    });
    expect(failed.subject).toBe("Refund of USD 70.00 for 2 orders did not go through");
    expect(failed.text).toContain(
      "The refund of USD 70.00 of your cart payment did not go through, so no money is returned to your payment method. This corrects our earlier e-mail",
    );
    expect(failed.text).toContain("- Order ORD-BBBB2222 (Class): USD 40.00");
  });
});

describe("a refund or dispute naming no order, split over a payment's orders (allocateAcrossOrders)", () => {
  const order = (id: string, amountCents: number, refundedCents = 0) => ({ id, amountCents, refundedCents });

  it("in proportion to what each order has left, in cents adding up to the amount", () => {
    expect(allocateAcrossOrders(7_000, [order("a", 3_000), order("b", 4_000)])).toEqual([
      { orderId: "a", amountCents: 3_000 },
      { orderId: "b", amountCents: 4_000 },
    ]);
    expect(allocateAcrossOrders(3_500, [order("a", 3_000), order("b", 4_000)])).toEqual([
      { orderId: "a", amountCents: 1_500 },
      { orderId: "b", amountCents: 2_000 },
    ]);
    // What is left, not what was paid: b has 1,000 of 4,000 left.
    expect(
      allocateAcrossOrders(2_000, [order("a", 3_000), order("b", 4_000, 3_000)]).map((p) => p.amountCents),
    ).toEqual([1_500, 500]);
    // A fully refunded order gets nothing while others have something left.
    expect(
      allocateAcrossOrders(1_000, [order("a", 3_000, 3_000), order("b", 4_000)]).map((p) => p.amountCents),
    ).toEqual([0, 1_000]);
  });

  it("hands the rounding cents to the largest remainders, earlier lines first on a tie", () => {
    expect(
      allocateAcrossOrders(100, [order("a", 1_000), order("b", 1_000), order("c", 1_000)]).map((p) => p.amountCents),
    ).toEqual([34, 33, 33]);
    expect(allocateAcrossOrders(1, [order("a", 1_000), order("b", 1_000)]).map((p) => p.amountCents)).toEqual([1, 0]);
    expect(allocateAcrossOrders(5, [order("a", 100), order("b", 300)]).map((p) => p.amountCents)).toEqual([1, 4]);
  });

  it("beyond what is left: each order its rest, the excess in proportion to the orders' amounts", () => {
    // 2,000 already refunded of a; a dispute of the whole 7,000.
    expect(
      allocateAcrossOrders(7_000, [order("a", 3_000, 2_000), order("b", 4_000)]).map((p) => p.amountCents),
    ).toEqual([1_000 + 857, 4_000 + 1_143]);
    expect(
      allocateAcrossOrders(500, [order("a", 3_000, 3_000), order("b", 4_000, 4_000)]).map((p) => p.amountCents),
    ).toEqual([214, 286]);
  });

  it("never gives an order more than it has left while the amount fits, and always adds up (any amounts)", () => {
    for (let seed = 1; seed < 400; seed++) {
      const orders = [...Array((seed % 4) + 1)].map((_, i) => {
        const amount = ((seed * 7919 + i * 104_729) % 9_000) + 1;
        return order(`o${i}`, amount, (seed * 31 + i * 17) % (amount + 1));
      });
      const left = orders.reduce((sum, o) => sum + o.amountCents - o.refundedCents, 0);
      const amount = (seed * 2_654_435) % (left + 2_000);
      const parts = allocateAcrossOrders(amount, orders);
      expect(parts.map((p) => p.orderId)).toEqual(orders.map((o) => o.id));
      expect(parts.reduce((sum, p) => sum + p.amountCents, 0)).toBe(amount);
      expect(parts.every((p) => Number.isSafeInteger(p.amountCents) && p.amountCents >= 0)).toBe(true);
      if (amount <= left)
        parts.forEach((p, i) =>
          expect(p.amountCents).toBeLessThanOrEqual(orders[i]!.amountCents - orders[i]!.refundedCents),
        );
    }
  });

  it("refuses a negative or fractional amount", () => {
    expect(() => allocateAcrossOrders(-1, [order("a", 100)])).toThrow(RangeError);
    expect(() => allocateAcrossOrders(1.5, [order("a", 100)])).toThrow(RangeError);
  });
});

describe("splitByWeights", () => {
  it("splits by integer weights with the remainder to the largest fractions; all-zero weights split nothing", () => {
    expect(splitByWeights(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(splitByWeights(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(splitByWeights(7, [3_000, 4_000])).toEqual([3, 4]);
    expect(splitByWeights(10, [0, 0])).toEqual([0, 0]);
    expect(() => splitByWeights(10, [-1, 2])).toThrow(RangeError);
  });
});

describe("refundFailedMail", () => {
  const order = { orderNumber: "TRB-100", productName: "Pottery Class", hostName: "Nadia" };
  const base = {
    origin: "host" as const,
    siteOrigin: SITE,
    amount: "USD 40.00",
    reason: "Chipped",
    order,
    purpose: "product" as const,
  };

  it("after a mail that announced the refund: says it did not go through and corrects that mail", () => {
    const mail = refundFailedMail({ ...base, announced: true, missedDrawEntry: null });
    expect(mail.subject).toBe("Refund of USD 40.00 for order TRB-100 did not go through");
    expect(mail.text).toBe(
      "The refund of USD 40.00 for your order TRB-100 (Pottery Class) did not go through, so no money is returned to your payment method. This corrects our earlier e-mail, which said the refund was on its way.\n\nIf you still expect a refund, contact Nadia.\n\nSee the order: https://tribe.example/order/TRB-100",
    );
    expect(mail.url).toBe("/order/TRB-100");
  });

  it("failed before any mail: never says money is coming or corrects anything; names an entry that missed its draw", () => {
    const mail = refundFailedMail({ ...base, announced: false, missedDrawEntry: 7 });
    expect(mail.text).not.toContain("corrects");
    expect(mail.text).not.toContain("3-5 business days");
    expect(mail.text).toContain(
      "Your prize pool entry #7 was removed when the refund was made, so it was not in the pool's draw, which is final.",
    );
  });

  it("a guess's fee (no order)", () => {
    const mail = refundFailedMail({
      ...base,
      order: null,
      purpose: "guess_entry",
      announced: true,
      missedDrawEntry: null,
    });
    expect(mail.subject).toBe("Refund of USD 40.00 for your guess did not go through");
    expect(mail.text).toBe(
      "The refund of USD 40.00 you paid for your guess did not go through, so no money is returned to your payment method. This corrects our earlier e-mail, which said the refund was on its way.",
    );
  });
});

describe("an order's entry and failed refunds as the buyer reads them", () => {
  it("failed and canceled refunds did not go through; others did or are on their way", () => {
    expect(["failed", "canceled", "pending", "succeeded", "requires_action"].map(refundFailed)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it("an entry counts unless void; a void entry of a closed pool missed its draw", () => {
    expect(entryStanding({ voided: false, poolOpen: false })).toBe("counts");
    expect(entryStanding({ voided: true, poolOpen: true })).toBe("void");
    expect(entryStanding({ voided: true, poolOpen: false })).toBe("missed_draw");
    expect(entryStandingText({ entryVoided: 1, poolOpen: 0 })).toBe(
      "not in the draw: it was void when the pool closed",
    );
    expect(entryStandingText({ entryVoided: 0, poolOpen: 0 })).toBeNull();
    expect(entryStandingText({ entryVoided: null, poolOpen: null })).toBeNull();
  });
});
