import { describe, expect, it } from "vitest";
import {
  disputeCounts,
  disputeOutcome,
  refundableCents,
  refundMail,
  refundCounts,
  refundState,
  refundStatusRank,
  refundVoidsEntry,
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
    expect(refundVoidsEntry(4000, 2000)).toBe(false);
    expect(refundVoidsEntry(4000, 2001)).toBe(true);
  });
});

describe("dispute rules", () => {
  const d = (status: string, fundsWithdrawn = false, fundsReinstated = false) => ({ status, fundsWithdrawn, fundsReinstated });

  it("counts while the funds are withdrawn and not reinstated, and always once lost", () => {
    expect(disputeCounts(d("needs_response"))).toBe(false);
    expect(disputeCounts(d("needs_response", true))).toBe(true);
    expect(disputeCounts(d("under_review", true, true))).toBe(false);
    expect(disputeCounts(d("lost"))).toBe(true);
    expect(disputeCounts(d("won", true))).toBe(false);
  });

  it("reduces Stripe's state to what moves money", () => {
    expect(disputeOutcome(d("needs_response"))).toBe("open");
    expect(disputeOutcome(d("needs_response", true))).toBe("funds_withdrawn");
    expect(disputeOutcome(d("won", true, true))).toBe("won");
    expect(disputeOutcome(d("lost", true))).toBe("lost");
  });
});

describe("refundMail", () => {
  const order = { orderNumber: "ORD-1234ABCD", productName: "Mug", hostName: "Clay Studio" };
  it("names the host who refunded an order, the reason and when the money arrives", () => {
    const mail = refundMail({ origin: "host", amount: "USD 15.00", reason: "Chipped", order, purpose: "product" });
    expect(mail.subject).toBe("Refund of USD 15.00 for order ORD-1234ABCD");
    expect(mail.text).toBe(
      "Clay Studio refunded USD 15.00 of your order ORD-1234ABCD (Mug).\n\nReason: Chipped\n\nRefunds take 3-5 business days to appear on your statement.\n\nSee the order: /order/ORD-1234ABCD",
    );
    expect(mail.url).toBe("/order/ORD-1234ABCD");
  });
  it("an approved return's refund is its approval mail", () => {
    const mail = refundMail({ origin: "return", amount: "USD 40.00", reason: null, order, purpose: "product" });
    expect(mail.subject).toBe("Your return of order ORD-1234ABCD is approved");
    expect(mail.text).toContain("A refund of USD 40.00 goes back to your payment method.");
  });
  it("a guess's fee (no order) says what it was for", () => {
    const mail = refundMail({ origin: "unfulfillable", amount: "USD 5.00", reason: "Too late.", order: null, purpose: "guess_entry" });
    expect(mail.subject).toBe("Refund of USD 5.00 for your guess");
    expect(mail.text).toBe("USD 5.00 you paid for your guess is refunded to your payment method.\n\nReason: Too late.\n\nRefunds take 3-5 business days to appear on your statement.");
    expect(mail.url).toBe("/guess-win");
  });
});
