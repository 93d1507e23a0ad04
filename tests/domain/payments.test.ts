import { describe, expect, it } from "vitest";
import {
  disputeCounts,
  disputeOutcome,
  refundableCents,
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
