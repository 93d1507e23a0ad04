import { describe, expect, it } from "vitest";
import { REFUND_MESSAGES } from "~/domain/payments";
import { checkRefundAmount, orderRefundState, RETURN_MESSAGES, returnEligibility } from "~/domain/returns";

const DAY = 86_400_000;
const now = new Date("2026-11-22T12:00:00Z");
const delivered = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
const order = {
  status: "completed",
  deliveredAt: delivered(1),
  amountCents: 4000,
  refundedCents: 0,
  hasOpenRequest: false,
};

describe("returnEligibility", () => {
  it("allows a return from delivery until 7 days later", () => {
    expect(returnEligibility(order, now)).toEqual({ ok: true });
    expect(returnEligibility({ ...order, deliveredAt: delivered(7) }, now)).toEqual({ ok: true });
    expect(returnEligibility({ ...order, deliveredAt: new Date(delivered(7).getTime() - 1) }, now)).toEqual({
      ok: false,
      message: RETURN_MESSAGES.windowClosed,
    });
  });

  it("refuses a voucher that has been used", () => {
    expect(returnEligibility({ ...order, voucherRedeemed: 1 }, now)).toEqual({
      ok: false,
      message: RETURN_MESSAGES.voucherUsed,
    });
    expect(returnEligibility({ ...order, voucherRedeemed: 0 }, now)).toEqual({ ok: true });
  });

  it("refuses an undelivered, unpaid, cancelled, fully refunded order or one with an open request", () => {
    expect(returnEligibility({ ...order, deliveredAt: null }, now)).toEqual({
      ok: false,
      message: RETURN_MESSAGES.notDelivered,
    });
    expect(returnEligibility({ ...order, status: "pending" }, now)).toEqual({
      ok: false,
      message: RETURN_MESSAGES.notReturnable,
    });
    expect(returnEligibility({ ...order, status: "cancelled" }, now)).toEqual({
      ok: false,
      message: RETURN_MESSAGES.notReturnable,
    });
    expect(returnEligibility({ ...order, refundedCents: 4000 }, now)).toEqual({
      ok: false,
      message: RETURN_MESSAGES.fullyRefunded,
    });
    expect(returnEligibility({ ...order, hasOpenRequest: true }, now)).toEqual({
      ok: false,
      message: RETURN_MESSAGES.alreadyOpen,
    });
    // A partly refunded order may still be returned.
    expect(returnEligibility({ ...order, refundedCents: 1000 }, now)).toEqual({ ok: true });
  });
});

describe("checkRefundAmount", () => {
  const paid = { amountCents: 4000, refundedCents: 1000, currency: "USD" };
  it("takes an amount in currency units above 0 and at most what is left", () => {
    expect(checkRefundAmount("12.5", paid)).toEqual({ ok: true, amountCents: 1250 });
    expect(checkRefundAmount(" 30 ", paid)).toEqual({ ok: true, amountCents: 3000 });
    expect(checkRefundAmount("0.01", paid)).toEqual({ ok: true, amountCents: 1 });
  });
  it("refuses zero, negatives, junk, more than two decimals and more than is left, with a message", () => {
    for (const bad of ["0", "0.00", "-5", "abc", "", "1.234", "1e3", undefined, null]) {
      expect(checkRefundAmount(bad, paid)).toEqual({ ok: false, message: REFUND_MESSAGES.notPositive });
    }
    expect(checkRefundAmount("30.01", paid)).toEqual({ ok: false, message: "You can refund at most USD 30.00." });
    expect(checkRefundAmount("1", { ...paid, refundedCents: 4000 })).toEqual({
      ok: false,
      message: REFUND_MESSAGES.nothingLeft,
    });
  });
});

describe("orderRefundState", () => {
  it("is none, partial or full from the refunded total", () => {
    expect(orderRefundState({ amountCents: 4000, refundedCents: 0 })).toBe("none");
    expect(orderRefundState({ amountCents: 4000, refundedCents: 1 })).toBe("partial");
    expect(orderRefundState({ amountCents: 4000, refundedCents: 4000 })).toBe("full");
  });
});
