import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canEditPoolTerms,
  isPrizeUnsettled,
  PRIZE_SETTLEMENT_DAYS,
  prizeSettlesAt,
  reversalShareCents,
  reversalVoidsEntry,
  cleanMiniPrizes,
  DEFAULT_POOL_DURATION_DAYS,
  DEFAULT_POOL_STATUS,
  DEFAULT_PROFILE_POOL_TARGET_CENTS,
  displayedPoolCents,
  HOST_DEPOSIT_MIN_CENTS,
  miniPrizeLabel,
  miniPrizeQuantityText,
  miniPrizeValueText,
  nextPoolTerms,
  POOL_CURRENCY,
  POOL_DURATION_DAYS,
  POOL_TARGET_MIN_CENTS,
  poolCloseReason,
  poolEndAt,
  poolProgressPercent,
  shouldCloseForTarget,
  TARGET_HIT_CLOSE_DELAY_MS,
  validateHostDeposit,
  validatePoolDuration,
  validatePoolSettings,
  validatePoolTarget,
} from "~/domain/pool";

const TARGET_MESSAGE = "Please enter a target amount of at least 1,000 USD.";
const DEPOSIT_MESSAGE = "Please enter a valid deposit amount (minimum USD 1).";
const now = new Date("2026-03-01T12:00:00.000Z");
const DAY = 24 * 60 * 60 * 1000;

describe("constants", () => {
  it("holds the product's pool numbers", () => {
    expect(POOL_DURATION_DAYS).toEqual([7, 14, 30, 60, 90]);
    expect(DEFAULT_POOL_DURATION_DAYS).toBe(30);
    expect(POOL_TARGET_MIN_CENTS).toBe(100_000);
    expect(HOST_DEPOSIT_MIN_CENTS).toBe(100);
    expect(DEFAULT_PROFILE_POOL_TARGET_CENTS).toBe(1_000_000);
    expect(TARGET_HIT_CLOSE_DELAY_MS).toBe(1000);
    expect(POOL_CURRENCY).toBe("USD");
    expect(DEFAULT_POOL_STATUS).toBe("open");
  });
});

describe("validatePoolTarget", () => {
  it.each([
    ["1000", 100_000],
    ["2000", 200_000],
    ["10000", 1_000_000],
    ["1000.00", 100_000],
    [5000, 500_000],
  ])("accepts %j", (input, cents) => {
    expect(validatePoolTarget(input)).toEqual({ ok: true, value: cents });
  });

  it.each(["", "0", "999", "999.99", null, undefined])("rejects %j as below the minimum", (input) => {
    expect(validatePoolTarget(input)).toEqual({ ok: false, message: TARGET_MESSAGE });
  });

  it.each([
    ["1500", "Please enter a target amount in steps of 1,000 USD (such as 1,000, 2,000 or 3,000)."],
    ["1000.50", "Please enter a target amount in steps of 1,000 USD (such as 1,000, 2,000 or 3,000)."],
    ["1000.001", "Please enter a target amount in steps of 1,000 USD (such as 1,000, 2,000 or 3,000)."],
    ["1,500", "Please enter the target amount in digits only, such as 2000."],
    ["-1000", "Please enter the target amount in digits only, such as 2000."],
    ["abc", "Please enter the target amount in digits only, such as 2000."],
    ["99999999999999999999", "That target amount is too large."],
  ])("rejects %j with what is wrong", (input, message) => {
    expect(validatePoolTarget(input)).toEqual({ ok: false, message });
  });
});

describe("validatePoolDuration", () => {
  it("accepts the five durations as numbers or text", () => {
    for (const days of [7, 14, 30, 60, 90]) {
      expect(validatePoolDuration(days)).toEqual({ ok: true, value: days });
      expect(validatePoolDuration(String(days))).toEqual({ ok: true, value: days });
    }
  });

  it("rejects anything else", () => {
    for (const bad of [0, 1, 8, 31, 365, "30.0", "", null, "thirty"]) {
      expect(validatePoolDuration(bad).ok).toBe(false);
    }
  });
});

describe("validateHostDeposit", () => {
  it("accepts USD 1 or more", () => {
    expect(validateHostDeposit("1")).toEqual({ ok: true, value: 100 });
    expect(validateHostDeposit("1.00")).toEqual({ ok: true, value: 100 });
    expect(validateHostDeposit("25.50")).toEqual({ ok: true, value: 2550 });
  });

  it.each(["0.99", "0", "", "-5", "abc", null])("rejects %j", (input) => {
    expect(validateHostDeposit(input)).toEqual({ ok: false, message: DEPOSIT_MESSAGE });
  });

  it("accepts up to USD 999,999.99 (one card payment) and says so above it", () => {
    expect(validateHostDeposit("999999.99")).toEqual({ ok: true, value: 99_999_999 });
    for (const input of ["1000000", "99999999999999999999"]) {
      expect(validateHostDeposit(input)).toEqual({ ok: false, message: "A deposit can be at most USD 999,999.99." });
    }
  });

  it("says a deposit with fractions of a cent is not in whole cents", () => {
    expect(validateHostDeposit("1.001")).toEqual({
      ok: false,
      message: "Please enter the deposit in whole cents (at most 2 decimal places).",
    });
  });
});

describe("validatePoolSettings", () => {
  it("checks the target, then the duration, and drops nameless mini prizes", () => {
    expect(
      validatePoolSettings({
        targetAmount: "3000",
        durationDays: "14",
        miniPrizes: [
          { name: " Mug ", amountText: "15%", quantityText: "10" },
          { name: "  ", amountText: "100", quantityText: "1" },
          { amountText: "5" },
        ],
      }),
    ).toEqual({
      ok: true,
      value: {
        targetCents: 300_000,
        durationDays: 14,
        miniPrizes: [{ name: "Mug", amountText: "15%", quantityText: "10" }],
      },
    });
    expect(validatePoolSettings({ targetAmount: "500", durationDays: "13" })).toEqual({
      ok: false,
      message: TARGET_MESSAGE,
    });
    expect(validatePoolSettings({ targetAmount: "1000", durationDays: "13" }).ok).toBe(false);
  });

  it("trims mini prizes", () => {
    expect(cleanMiniPrizes([{ name: "Cap", amountText: 5, quantityText: undefined }])).toEqual([
      { name: "Cap", amountText: "", quantityText: "" },
    ]);
  });

  it("shows mini prize quantities", () => {
    expect(miniPrizeQuantityText("10")).toBe("10 left");
    expect(miniPrizeQuantityText(3)).toBe("3 left");
    expect(miniPrizeQuantityText("0")).toBe("0 left");
    expect(miniPrizeQuantityText("unlimited")).toBe("Unlimited");
    expect(miniPrizeQuantityText("")).toBe("Unlimited");
    expect(miniPrizeQuantityText(null)).toBe("Unlimited");
  });

  it("says what a mini prize's amount means: a number is its value in USD, anything else as typed", () => {
    expect(miniPrizeValueText("26")).toBe("worth USD 26.00");
    expect(miniPrizeValueText(" 12.5 ")).toBe("worth USD 12.50");
    expect(miniPrizeValueText("15%")).toBe("15%");
    expect(miniPrizeValueText("  ")).toBeNull();
    expect(miniPrizeLabel({ name: "Batik cushion cover of your choice", amountText: "26" })).toBe(
      "Batik cushion cover of your choice (worth USD 26.00)",
    );
    expect(miniPrizeLabel({ name: "Sticker pack", amountText: "" })).toBe("Sticker pack");
  });
});

describe("nextPoolTerms", () => {
  it("takes the saved target and duration, the defaults without a profile or with a duration not offered", () => {
    expect(nextPoolTerms({ targetCents: 900_000, durationDays: 60 })).toEqual({
      targetCents: 900_000,
      durationDays: 60,
    });
    expect(nextPoolTerms(null)).toEqual({
      targetCents: DEFAULT_PROFILE_POOL_TARGET_CENTS,
      durationDays: DEFAULT_POOL_DURATION_DAYS,
    });
    expect(nextPoolTerms({ targetCents: 200_000, durationDays: 10 })).toEqual({
      targetCents: 200_000,
      durationDays: DEFAULT_POOL_DURATION_DAYS,
    });
  });
});

describe("poolProgressPercent", () => {
  it.each([
    [0, 1_000_000, 0],
    [990_000, 1_000_000, 99],
    [1_000_000, 1_000_000, 100],
    [1_010_000, 1_000_000, 100],
    [250_000, 1_000_000, 25],
    [1, 1_000_000, 0],
    [100, 0, 0],
  ])("%i of %i is %i%%", (amount, target, percent) => {
    expect(poolProgressPercent(amount, target)).toBe(percent);
  });
});

describe("closing", () => {
  it("closes for the target once the amount reaches it", () => {
    expect(shouldCloseForTarget(99_999, 100_000, 1)).toBe(false);
    expect(shouldCloseForTarget(100_000, 100_000, 1)).toBe(true);
    expect(shouldCloseForTarget(100_001, 100_000, 1)).toBe(true);
    expect(shouldCloseForTarget(0, 0, 1)).toBe(false);
    expect(shouldCloseForTarget(500, 0, 1)).toBe(false);
    // Nothing to draw: a target filled by deposits alone waits for an entry (or the pool's end).
    expect(shouldCloseForTarget(100_000, 100_000, 0)).toBe(false);
    expect(shouldCloseForTarget(250_000, 100_000, 0)).toBe(false);
  });

  it("gives the reason", () => {
    const future = new Date(now.getTime() + DAY);
    const past = new Date(now.getTime() - 1);
    expect(poolCloseReason(100_000, 100_000, 1, future, now)).toBe("target_reached");
    expect(poolCloseReason(100_000, 100_000, 1, past, now)).toBe("target_reached");
    expect(poolCloseReason(100_000, 100_000, 0, future, now)).toBeNull();
    expect(poolCloseReason(100_000, 100_000, 0, past, now)).toBe("timer_expired");
    expect(poolCloseReason(10, 100_000, 1, past, now)).toBe("timer_expired");
    expect(poolCloseReason(10, 100_000, 1, now, now)).toBe("timer_expired");
    expect(poolCloseReason(10, 100_000, 1, future, now)).toBeNull();
    expect(poolCloseReason(10, 100_000, 1, null, now)).toBeNull();
    expect(poolCloseReason(10, 100_000, 1, "2026-03-01 11:59:59", now)).toBe("timer_expired");
  });

  it("ends a new pool after its duration", () => {
    expect(poolEndAt(now).toISOString()).toBe("2026-03-31T12:00:00.000Z");
    expect(poolEndAt(now, 7).toISOString()).toBe("2026-03-08T12:00:00.000Z");
  });

  it("allows editing the terms in the first 3 days only", () => {
    expect(canEditPoolTerms(now, now)).toBe(true);
    expect(canEditPoolTerms(new Date(now.getTime() - 3 * DAY + 1), now)).toBe(true);
    expect(canEditPoolTerms(new Date(now.getTime() - 3 * DAY), now)).toBe(false);
    expect(canEditPoolTerms("not a date", now)).toBe(false);
  });

  it("shows the larger of the stored amount and the contributions", () => {
    expect(displayedPoolCents(500, 700)).toBe(700);
    expect(displayedPoolCents(900, 700)).toBe(900);
  });
});

describe("reversals against a pool contribution", () => {
  it("voids the entry only above half of the payment, or for a full refund", () => {
    expect(reversalVoidsEntry(0, 1_000)).toBe(false);
    expect(reversalVoidsEntry(500, 1_000)).toBe(false);
    expect(reversalVoidsEntry(501, 1_000)).toBe(true);
    expect(reversalVoidsEntry(1_000, 1_000)).toBe(true);
    expect(reversalVoidsEntry(1, 1)).toBe(true);
  });

  it("reverses the pool share at the contribution's own rate, the rest exactly on a full refund", () => {
    // A 10% contribution of a USD 33.33 payment: 333 cents.
    const base = { contributionCents: 333, alreadyReversedCents: 0, paymentCents: 3_333 };
    // 1,000 of 3,333 is 99.9 cents of the share: rounded down, the one rule of money flowing back (decision 380).
    expect(reversalShareCents({ ...base, reversedCents: 1_000, cumulativeReversedCents: 1_000 })).toBe(99);
    expect(
      reversalShareCents({ ...base, alreadyReversedCents: 100, reversedCents: 2_333, cumulativeReversedCents: 3_333 }),
    ).toBe(233);
    // Three partial refunds that add up to the payment reverse exactly the contribution.
    let reversed = 0;
    let cumulative = 0;
    for (const part of [1_111, 1_111, 1_111]) {
      cumulative += part;
      reversed += reversalShareCents({
        ...base,
        alreadyReversedCents: reversed,
        reversedCents: part,
        cumulativeReversedCents: cumulative,
      });
    }
    expect(reversed).toBe(333);
  });

  it("a restore while other refunds or disputes still cover the whole payment gives back nothing (decision 380)", () => {
    // A pending refund of 350 of a 700 payment (share 35 of 70), then a lost dispute of 700 (the other 35), then the
    // refund fails: the dispute still covers the whole payment, so the pool gives back nothing.
    const base = { contributionCents: 70, paymentCents: 700 };
    expect(
      reversalShareCents({ ...base, alreadyReversedCents: 0, reversedCents: 350, cumulativeReversedCents: 350 }),
    ).toBe(35);
    expect(
      reversalShareCents({ ...base, alreadyReversedCents: 35, reversedCents: 700, cumulativeReversedCents: 700 }),
    ).toBe(35);
    expect(
      reversalShareCents({ ...base, alreadyReversedCents: 70, reversedCents: -350, cumulativeReversedCents: 700 }),
    ).toBe(0);
    // The dispute won afterwards gives it all back.
    expect(
      reversalShareCents({ ...base, alreadyReversedCents: 70, reversedCents: -700, cumulativeReversedCents: 0 }),
    ).toBe(-70);
  });

  it("never reverses more than the contribution nor restores more than was reversed", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        (contribution, payment, already, event) => {
          const share = reversalShareCents({
            contributionCents: contribution,
            alreadyReversedCents: Math.min(already, contribution),
            reversedCents: event,
            paymentCents: payment,
            cumulativeReversedCents: Math.min(Math.max(event, 0), payment),
          });
          const after = Math.min(already, contribution) + share;
          return Number.isSafeInteger(share) && after >= 0 && after <= contribution;
        },
      ),
    );
  });

  it("settles a drawn prize after the documented period", () => {
    const drawnAt = new Date("2026-01-01T00:00:00Z");
    expect(PRIZE_SETTLEMENT_DAYS).toBe(30);
    expect(prizeSettlesAt(drawnAt).toISOString()).toBe("2026-01-31T00:00:00.000Z");
    expect(isPrizeUnsettled(drawnAt, new Date("2026-01-30T23:59:59Z"))).toBe(true);
    expect(isPrizeUnsettled(drawnAt, new Date("2026-01-31T00:00:00Z"))).toBe(false);
  });
});
