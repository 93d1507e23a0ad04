import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  currencyLabel,
  divideRoundHalfUp,
  formatAmount,
  formatCents,
  formatCount,
  minorUnitDigits,
  moneyTextProblem,
  parseMoneyToCents,
  parseWholeUnitsToCents,
  percentageText,
  percentOf,
  percentToBasisPoints,
  progressPercent,
  splitByPercents,
} from "~/domain/money";

describe("moneyTextProblem", () => {
  it.each([
    ["12.34", null],
    [".5", null],
    ["", "empty"],
    ["   ", "empty"],
    [null, "empty"],
    ["2.555", "decimals"],
    [".123", "decimals"],
    ["99999999999999999999", "tooLarge"],
    ["1,500", "invalid"],
    ["-5", "invalid"],
    ["1e3", "invalid"],
    ["abc", "invalid"],
  ])("%j -> %j", (input, problem) => {
    expect(moneyTextProblem(input)).toBe(problem);
  });
});

describe("parseMoneyToCents", () => {
  it.each([
    ["12.34", 1234],
    ["12.3", 1230],
    ["12.", 1200],
    ["12", 1200],
    ["0", 0],
    ["0.00", 0],
    ["0.01", 1],
    [".5", 50],
    [".05", 5],
    ["007.10", 710],
    ["  9.99  ", 999],
    ["1000", 100000],
    ["90071992547409.91", 9007199254740991],
  ])("parses %j to %i", (input, cents) => {
    expect(parseMoneyToCents(input)).toBe(cents);
  });

  it.each([
    "-1",
    "-0.01",
    "+1",
    "1.234",
    "1.2.3",
    "abc",
    "12abc",
    "",
    "   ",
    ".",
    "1,000",
    "1e3",
    "0x10",
    "Infinity",
    "NaN",
    "12 34",
    "90071992547409.92",
  ])("rejects %j", (input) => {
    expect(parseMoneyToCents(input)).toBeNull();
  });

  it("accepts numbers through their decimal text and rejects other types", () => {
    expect(parseMoneyToCents(12.34)).toBe(1234);
    expect(parseMoneyToCents(0.1)).toBe(10);
    expect(parseMoneyToCents(3)).toBe(300);
    expect(parseMoneyToCents(-3)).toBeNull();
    expect(parseMoneyToCents(1.005)).toBeNull();
    expect(parseMoneyToCents(Number.NaN)).toBeNull();
    expect(parseMoneyToCents(Number.POSITIVE_INFINITY)).toBeNull();
    expect(parseMoneyToCents(null)).toBeNull();
    expect(parseMoneyToCents(undefined)).toBeNull();
    expect(parseMoneyToCents({})).toBeNull();
  });

  it("avoids float error: 0.1 + 0.2 style inputs are exact", () => {
    expect(parseMoneyToCents("0.29")).toBe(29);
    expect(parseMoneyToCents("1.15")).toBe(115);
    expect(parseMoneyToCents("4.35")).toBe(435);
  });
});

describe("parseWholeUnitsToCents", () => {
  it("accepts whole units only", () => {
    expect(parseWholeUnitsToCents("1000")).toBe(100000);
    expect(parseWholeUnitsToCents(5)).toBe(500);
    expect(parseWholeUnitsToCents("0")).toBe(0);
    expect(parseWholeUnitsToCents("10.5")).toBeNull();
    expect(parseWholeUnitsToCents("-1")).toBeNull();
    expect(parseWholeUnitsToCents("")).toBeNull();
    expect(parseWholeUnitsToCents(null)).toBeNull();
  });
});

describe("formatCents", () => {
  it.each([
    [1234, "USD", "USD 12.34"],
    [1234, "MYR", "RM 12.34"],
    [0, "USD", "USD 0.00"],
    [1, "USD", "USD 0.01"],
    [10, "USD", "USD 0.10"],
    [100, "MYR", "RM 1.00"],
    [100000, "MYR", "RM 1,000.00"],
    [123456789, "EUR", "EUR 1,234,567.89"],
    [-500, "USD", "-USD 5.00"],
    [-1, "MYR", "-RM 0.01"],
    [1500, "JPY", "JPY 1,500"],
    [7, "KRW", "KRW 7"],
    [1234, "usd", "USD 12.34"],
  ])("formats %i %s as %j", (cents, currency, text) => {
    expect(formatCents(cents, currency)).toBe(text);
  });

  it("rejects non-integer cents", () => {
    expect(() => formatCents(12.5, "USD")).toThrow(RangeError);
    expect(() => formatCents(Number.NaN, "USD")).toThrow(RangeError);
  });

  it("exposes the label and the decimals", () => {
    expect(currencyLabel("MYR")).toBe("RM");
    expect(currencyLabel("sgd")).toBe("SGD");
    expect(minorUnitDigits("JPY")).toBe(0);
    expect(minorUnitDigits("VND")).toBe(0);
    expect(minorUnitDigits("IDR")).toBe(2);
    expect(formatAmount(123456, "USD")).toBe("1,234.56");
    expect(formatAmount(99, "USD")).toBe("0.99");
  });
});

describe("percentToBasisPoints", () => {
  it("accepts up to two decimals", () => {
    expect(percentToBasisPoints(10)).toBe(1000);
    expect(percentToBasisPoints(3.5)).toBe(350);
    expect(percentToBasisPoints(12.25)).toBe(1225);
    expect(percentToBasisPoints(0.01)).toBe(1);
    expect(percentToBasisPoints(0)).toBe(0);
  });

  it("rejects finer or non-finite percents", () => {
    expect(() => percentToBasisPoints(0.001)).toThrow(RangeError);
    expect(() => percentToBasisPoints(1 / 3)).toThrow(RangeError);
    expect(() => percentToBasisPoints(Number.NaN)).toThrow(RangeError);
    expect(() => percentToBasisPoints(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("percentOf", () => {
  it.each([
    [1000, 10, 100],
    [1999, 10, 199],
    [9, 10, 0],
    [10, 10, 1],
    [0, 10, 0],
    [1, 100, 1],
    [12345, 100, 12345],
    [12345, 0, 0],
    [1000, 3.5, 35],
    [999, 3.5, 34],
    [101, 60, 60],
    [101, 25, 25],
    [101, 15, 15],
  ])("percentOf(%i, %d) = %i (rounded down)", (cents, percent, expected) => {
    expect(percentOf(cents, percent)).toBe(expected);
  });

  it("mirrors negatives exactly (rounds toward zero)", () => {
    expect(percentOf(-1999, 10)).toBe(-199);
    expect(percentOf(-9, 10)).toBe(0);
  });

  it("is exact beyond float precision", () => {
    expect(percentOf(Number.MAX_SAFE_INTEGER, 100)).toBe(Number.MAX_SAFE_INTEGER);
    expect(percentOf(9007199254740990, 50)).toBe(4503599627370495);
  });

  it("rejects non-integer cents", () => {
    expect(() => percentOf(10.5, 10)).toThrow(RangeError);
  });
});

describe("splitByPercents", () => {
  const sum = (parts: number[]) => parts.reduce((a, b) => a + b, 0);

  it("gives leftover cents to the largest dropped fractions", () => {
    expect(splitByPercents(1, [60, 25, 15])).toEqual([1, 0, 0]);
    expect(splitByPercents(2, [60, 25, 15])).toEqual([1, 1, 0]); // 1.2 / 0.5 / 0.3
    expect(splitByPercents(3, [60, 25, 15])).toEqual([2, 1, 0]); // 1.8 / 0.75 / 0.45
    expect(splitByPercents(101, [60, 25, 15])).toEqual([61, 25, 15]);
    expect(splitByPercents(100, [60, 25, 15])).toEqual([60, 25, 15]);
    expect(splitByPercents(0, [60, 25, 15])).toEqual([0, 0, 0]);
  });

  it("breaks ties by order", () => {
    expect(splitByPercents(1, [50, 50])).toEqual([1, 0]);
    expect(splitByPercents(5, [10, 90])).toEqual([1, 4]); // 0.5 / 4.5: tie, first wins
    expect(splitByPercents(2, [100 / 4, 25, 25, 25])).toEqual([1, 1, 0, 0]);
  });

  it("always sums to the whole", () => {
    const splits = [[60, 25, 15], [10, 90], [20, 30, 50], [33.33, 33.33, 33.34], [0, 100], [100], [3.5, 96.5]];
    for (const percents of splits) {
      for (let cents = 0; cents <= 1000; cents++) {
        const parts = splitByPercents(cents, percents);
        expect(sum(parts)).toBe(cents);
        parts.forEach((part, i) => {
          // each part is within one cent of its exact share
          const exact = (cents * (percents[i] ?? 0)) / 100;
          expect(Math.abs(part - exact)).toBeLessThan(1);
        });
      }
    }
  });

  it("splits negatives like their magnitude", () => {
    expect(splitByPercents(-101, [60, 25, 15])).toEqual([-61, -25, -15]);
  });

  it("rejects percents that do not add up to 100, negatives and empties", () => {
    expect(() => splitByPercents(100, [60, 25])).toThrow(RangeError);
    expect(() => splitByPercents(100, [60, 25, 16])).toThrow(RangeError);
    expect(() => splitByPercents(100, [110, -10])).toThrow(RangeError);
    expect(() => splitByPercents(100, [])).toThrow(RangeError);
    expect(() => splitByPercents(1.5, [100])).toThrow(RangeError);
  });
});

describe("divideRoundHalfUp", () => {
  it("rounds half away from zero", () => {
    expect(divideRoundHalfUp(5n, 2n)).toBe(3n);
    expect(divideRoundHalfUp(4n, 3n)).toBe(1n);
    expect(divideRoundHalfUp(5n, 3n)).toBe(2n);
    expect(divideRoundHalfUp(-5n, 2n)).toBe(-3n);
    expect(divideRoundHalfUp(0n, 7n)).toBe(0n);
    expect(() => divideRoundHalfUp(1n, 0n)).toThrow(RangeError);
  });
});

describe("percentageText", () => {
  it("shows one decimal, rounded half up", () => {
    expect(percentageText(1, 3)).toBe("33.3");
    expect(percentageText(2, 3)).toBe("66.7");
    expect(percentageText(1, 8)).toBe("12.5");
    expect(percentageText(1, 1)).toBe("100.0");
    expect(percentageText(0, 500)).toBe("0.0");
    expect(percentageText(0, 0)).toBe("0.0");
    expect(percentageText(1, 2000)).toBe("0.1"); // 0.05 rounds up
    expect(percentageText(1, 2001)).toBe("0.0");
    expect(percentageText(-1, 4)).toBe("-25.0");
  });
});

describe("progressPercent", () => {
  it.each([
    [0, 1000, 0],
    [990, 1000, 99],
    [994, 1000, 99],
    [995, 1000, 100],
    [1000, 1000, 100],
    [1010, 1000, 100],
    [5000, 1000, 100],
    [1, 3, 33],
    [2, 3, 67],
    [500, 0, 0],
    [500, -10, 0],
    [-5, 100, 0],
  ])("progressPercent(%i, %i) = %i", (amount, target, expected) => {
    expect(progressPercent(amount, target)).toBe(expected);
  });
});

describe("formatCount", () => {
  it("writes a count as en-US does: 0, 999, 1,000, 12,345,678, -1,234", () => {
    expect([0, 999, 1000, 12_345_678, -1234].map(formatCount)).toEqual(["0", "999", "1,000", "12,345,678", "-1,234"]);
  });

  it("agrees with toLocaleString('en-US') for every safe integer", () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => formatCount(n) === n.toLocaleString("en-US")));
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), (n) => formatCount(n) === n.toLocaleString("en-US")),
    );
  });

  it("refuses what is not a count", () => {
    expect(() => formatCount(1.5)).toThrow(RangeError);
    expect(() => formatCount(Number.NaN)).toThrow(RangeError);
  });
});
