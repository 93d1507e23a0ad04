// Money is integer minor units ("cents") with an explicit ISO 4217 currency. Nothing in this module multiplies
// money by a float: decimal text is parsed with string and integer math, percentages are applied in basis points
// (hundredths of a percent) with BigInt, and every split hands out its rounding remainder so the parts add up to
// the whole.

/** An ISO 4217 currency code such as "USD" or "MYR". */
export type CurrencyCode = string;

/** Currencies without minor units (ISO 4217 exponent 0) among those the product shows. Every other currency has 2. */
export const ZERO_DECIMAL_CURRENCIES: readonly CurrencyCode[] = ["JPY", "KRW", "VND"];

/** Display labels that differ from the ISO code. Malaysian ringgit shows as "RM" (docs/product.md#currency). */
export const CURRENCY_LABELS: Readonly<Record<CurrencyCode, string>> = { MYR: "RM" };

/** Number of decimal places of a currency's minor unit (0 for JPY, KRW, VND; 2 otherwise). */
export function minorUnitDigits(currency: CurrencyCode): 0 | 2 {
  return ZERO_DECIMAL_CURRENCIES.includes(currency.toUpperCase()) ? 0 : 2;
}

/** The label shown before an amount: "RM" for MYR, the ISO code otherwise. */
export function currencyLabel(currency: CurrencyCode): string {
  const code = currency.toUpperCase();
  return CURRENCY_LABELS[code] ?? code;
}

const MONEY_TEXT = /^(\d+)(?:\.(\d{0,2}))?$|^\.(\d{1,2})$/;

/**
 * Parses a non-negative decimal amount ("12", "12.3", "12.34", ".5") into minor units of a two-decimal currency
 * (`"12.34"` -> `1234`). Surrounding whitespace is ignored. Returns null for negatives, signs, exponents, thousands
 * separators, more than two decimals, empty input, anything that is not a plain decimal, and amounts beyond the
 * safe-integer range. Numbers are accepted through their shortest decimal text (`12.34` -> 1234).
 */
export function parseMoneyToCents(input: unknown): number | null {
  let text: string;
  if (typeof input === "string") text = input.trim();
  else if (typeof input === "number" && Number.isFinite(input)) text = String(input);
  else return null;
  const match = MONEY_TEXT.exec(text);
  if (!match) return null;
  const whole = match[1] ?? "0";
  const fraction = (match[2] ?? match[3] ?? "").padEnd(2, "0");
  const cents = BigInt(whole) * 100n + BigInt(fraction);
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(cents);
}

/**
 * Why `parseMoneyToCents` refuses an amount: nothing typed, more than two decimals (not whole cents), too large for
 * exact arithmetic, or not a plain amount (signs, letters, thousands separators).
 */
export type MoneyTextProblem = "empty" | "decimals" | "tooLarge" | "invalid";

/** What is wrong with an amount typed as text, so a form can say so; null when `parseMoneyToCents` accepts it. */
export function moneyTextProblem(input: unknown): MoneyTextProblem | null {
  if (parseMoneyToCents(input) !== null) return null;
  const text =
    typeof input === "string" ? input.trim() : typeof input === "number" && Number.isFinite(input) ? String(input) : "";
  if (text === "") return "empty";
  if (/^\d*\.\d{3,}$/.test(text)) return "decimals";
  if (MONEY_TEXT.test(text)) return "tooLarge";
  return "invalid";
}

/**
 * Parses a whole, non-negative number of currency units ("1000") into minor units of a two-decimal currency
 * (100000). Returns null for anything else, including decimals.
 */
export function parseWholeUnitsToCents(input: unknown): number | null {
  const text = typeof input === "number" ? String(input) : typeof input === "string" ? input.trim() : "";
  if (!/^\d+$/.test(text)) return null;
  return parseMoneyToCents(text);
}

function assertSafeInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A count with thousands separators, as en-US writes it: `formatCount(12345)` -> "12,345" (what
 * `toLocaleString("en-US")` gives for an integer, without building an ICU number format on every call).
 */
export function formatCount(n: number): string {
  assertSafeInteger(n, "count");
  return n < 0 ? `-${groupThousands(String(-n))}` : groupThousands(String(n));
}

/**
 * Plain amount text with thousands separators and the currency's decimals, without a label:
 * `formatAmount(123456, "USD")` -> "1,234.56"; `formatAmount(1500, "JPY")` -> "1,500"; negatives get a leading "-".
 */
export function formatAmount(cents: number, currency: CurrencyCode): string {
  assertSafeInteger(cents, "cents");
  const digits = minorUnitDigits(currency);
  const sign = cents < 0 ? "-" : "";
  const text = String(Math.abs(cents));
  if (digits === 0) return sign + groupThousands(text);
  const padded = text.padStart(3, "0");
  return `${sign}${groupThousands(padded.slice(0, -2))}.${padded.slice(-2)}`;
}

/**
 * Formats minor units with the currency label: "USD 12.34", "RM 12.34" (MYR), "USD 1,234.56", "JPY 1,500".
 * A negative amount puts the sign before the label: "-USD 5.00".
 */
export function formatCents(cents: number, currency: CurrencyCode): string {
  const amount = formatAmount(cents, currency);
  const label = currencyLabel(currency);
  return amount.startsWith("-") ? `-${label} ${amount.slice(1)}` : `${label} ${amount}`;
}

/**
 * Converts a percentage with at most two decimals (10, 3.5, 12.25) into basis points (1000, 350, 1225).
 * Throws RangeError for anything finer or non-finite: percentages are exact inputs, never computed floats.
 */
export function percentToBasisPoints(percent: number): number {
  if (!Number.isFinite(percent)) throw new RangeError(`percent must be finite, got ${percent}`);
  const basisPoints = Math.round(percent * 100);
  if (Math.abs(basisPoints - percent * 100) > 1e-6) {
    throw new RangeError(`percent may have at most two decimals, got ${percent}`);
  }
  return basisPoints;
}

/**
 * Integer division of two BigInts rounded half away from zero (half-up for the non-negative amounts money
 * normally is). `den` must be positive.
 */
export function divideRoundHalfUp(num: bigint, den: bigint): bigint {
  if (den <= 0n) throw new RangeError("denominator must be positive");
  const negative = num < 0n;
  const magnitude = negative ? -num : num;
  const rounded = (2n * magnitude + den) / (2n * den);
  return negative ? -rounded : rounded;
}

/**
 * `percent` % of an amount in minor units, rounded down (toward zero, so a reversal of a negative amount mirrors
 * the original exactly): `percentOf(1999, 10)` -> 199; `percentOf(1000, 3.5)` -> 35.
 */
export function percentOf(cents: number, percent: number): number {
  assertSafeInteger(cents, "cents");
  const basisPoints = BigInt(percentToBasisPoints(percent));
  return Number((BigInt(cents) * basisPoints) / 10000n);
}

/**
 * Splits an amount by percentages that add up to 100, so the parts always add up to the amount exactly (the percents
 * as basis points are the weights of `splitByWeights`).
 *
 * Rounding rule (largest remainder): each part first gets its share rounded toward zero; the cents left over are
 * then handed out one each to the parts with the largest dropped fractions, earlier parts first on a tie. A
 * negative amount is split like its magnitude and every part negated.
 *
 * `splitByPercents(101, [60, 25, 15])` -> [61, 25, 15]; `splitByPercents(1, [60, 25, 15])` -> [1, 0, 0].
 */
export function splitByPercents(cents: number, percents: readonly number[]): number[] {
  assertSafeInteger(cents, "cents");
  if (percents.length === 0) throw new RangeError("percents must not be empty");
  const basisPoints = percents.map((percent) => {
    const bp = percentToBasisPoints(percent);
    if (bp < 0) throw new RangeError(`percents must not be negative, got ${percent}`);
    return bp;
  });
  const totalBasisPoints = basisPoints.reduce((sum, bp) => sum + bp, 0);
  if (totalBasisPoints !== 10000) throw new RangeError(`percents must add up to 100, got ${percents.join(" + ")}`);
  return splitByWeights(cents, basisPoints);
}

/**
 * Splits an amount in proportion to non-negative integer weights (largest remainder, like `splitByPercents`: shares
 * rounded toward zero, the cents left over one each to the largest dropped fractions, earlier parts first on a tie),
 * so the parts add up to the amount exactly and none passes its exact share rounded up. All weights 0 splits nothing.
 *
 * `splitByWeights(100, [1, 1, 1])` -> [34, 33, 33]; `splitByWeights(7, [3000, 4000])` -> [3, 4].
 */
export function splitByWeights(cents: number, weights: readonly number[]): number[] {
  assertSafeInteger(cents, "cents");
  for (const weight of weights) {
    assertSafeInteger(weight, "weight");
    if (weight < 0) throw new RangeError(`weights must not be negative, got ${weight}`);
  }
  const total = weights.reduce((sum, weight) => sum + BigInt(weight), 0n);
  if (total === 0n) return weights.map(() => 0);
  const sign = cents < 0 ? -1 : 1;
  const magnitude = BigInt(Math.abs(cents));
  const exact = weights.map((weight) => magnitude * BigInt(weight));
  const parts = exact.map((value) => value / total);
  let leftover = magnitude - parts.reduce((sum, part) => sum + part, 0n);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value % total }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of byRemainder) {
    if (leftover === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    leftover -= 1n;
  }
  return parts.map((part) => sign * Number(part));
}

/**
 * A share as percentage text with one decimal, rounded half up: `percentageText(1, 3)` -> "33.3",
 * `percentageText(0, 0)` -> "0.0". Used for contribution breakdowns ("percentage with one decimal").
 */
export function percentageText(part: number, whole: number): string {
  assertSafeInteger(part, "part");
  assertSafeInteger(whole, "whole");
  if (whole === 0) return "0.0";
  const tenths = divideRoundHalfUp(BigInt(Math.abs(part)) * 1000n, BigInt(Math.abs(whole)));
  const sign = tenths !== 0n && part < 0 !== whole < 0 ? "-" : "";
  return `${sign}${tenths / 10n}.${tenths % 10n}`;
}

/**
 * Progress toward a target as a whole percent, rounded half up and capped at 100; 0 when the target is not
 * positive or the amount is not: `progressPercent(995, 1000)` -> 100 (99.5 rounds up), `progressPercent(994, 1000)` -> 99.
 */
export function progressPercent(amountCents: number, targetCents: number): number {
  assertSafeInteger(amountCents, "amountCents");
  assertSafeInteger(targetCents, "targetCents");
  if (targetCents <= 0 || amountCents <= 0) return 0;
  const percent = divideRoundHalfUp(BigInt(amountCents) * 100n, BigInt(targetCents));
  return percent >= 100n ? 100 : Number(percent);
}
