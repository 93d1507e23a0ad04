// Display currencies, signup/shipping countries and conversion. Rates are the product's fixed table
// (docs/product.md#currency), written as exact decimal strings and applied with BigInt rational math, rounded
// half up once.

import { divideRoundHalfUp, formatCents, minorUnitDigits } from "./money";

export interface CurrencyInfo {
  code: string;
  symbol: string;
  name: string;
  /** Value of one unit of this currency in USD, as an exact decimal string ("0.22" means 1 MYR = 0.22 USD). */
  rateToUsd: string;
}

/** The currency rate table (rate to USD, docs/product.md#currency), with a symbol and a name for each code. */
export const CURRENCIES = [
  { code: "MYR", symbol: "RM", name: "Malaysian Ringgit", rateToUsd: "0.22" },
  { code: "SGD", symbol: "S$", name: "Singapore Dollar", rateToUsd: "0.74" },
  { code: "IDR", symbol: "Rp", name: "Indonesian Rupiah", rateToUsd: "0.000065" },
  { code: "THB", symbol: "฿", name: "Thai Baht", rateToUsd: "0.028" },
  { code: "PHP", symbol: "₱", name: "Philippine Peso", rateToUsd: "0.018" },
  { code: "VND", symbol: "₫", name: "Vietnamese Dong", rateToUsd: "0.00004" },
  { code: "JPY", symbol: "¥", name: "Japanese Yen", rateToUsd: "0.0067" },
  { code: "KRW", symbol: "₩", name: "South Korean Won", rateToUsd: "0.00075" },
  { code: "CNY", symbol: "CN¥", name: "Chinese Yuan", rateToUsd: "0.14" },
  { code: "HKD", symbol: "HK$", name: "Hong Kong Dollar", rateToUsd: "0.13" },
  { code: "TWD", symbol: "NT$", name: "New Taiwan Dollar", rateToUsd: "0.031" },
  { code: "INR", symbol: "₹", name: "Indian Rupee", rateToUsd: "0.012" },
  { code: "AUD", symbol: "A$", name: "Australian Dollar", rateToUsd: "0.66" },
  { code: "NZD", symbol: "NZ$", name: "New Zealand Dollar", rateToUsd: "0.62" },
  { code: "USD", symbol: "$", name: "US Dollar", rateToUsd: "1" },
  { code: "CAD", symbol: "C$", name: "Canadian Dollar", rateToUsd: "0.74" },
  { code: "BRL", symbol: "R$", name: "Brazilian Real", rateToUsd: "0.2" },
  { code: "MXN", symbol: "MX$", name: "Mexican Peso", rateToUsd: "0.059" },
  { code: "ARS", symbol: "AR$", name: "Argentine Peso", rateToUsd: "0.001" },
  { code: "GBP", symbol: "£", name: "British Pound", rateToUsd: "1.27" },
  { code: "EUR", symbol: "€", name: "Euro", rateToUsd: "1.09" },
  { code: "CHF", symbol: "CHF", name: "Swiss Franc", rateToUsd: "1.11" },
  { code: "SEK", symbol: "kr", name: "Swedish Krona", rateToUsd: "0.096" },
  { code: "NOK", symbol: "kr", name: "Norwegian Krone", rateToUsd: "0.094" },
  { code: "DKK", symbol: "kr", name: "Danish Krone", rateToUsd: "0.15" },
  { code: "PLN", symbol: "zł", name: "Polish Zloty", rateToUsd: "0.25" },
  { code: "CZK", symbol: "Kč", name: "Czech Koruna", rateToUsd: "0.044" },
  { code: "HUF", symbol: "Ft", name: "Hungarian Forint", rateToUsd: "0.0027" },
  { code: "RON", symbol: "lei", name: "Romanian Leu", rateToUsd: "0.22" },
  { code: "TRY", symbol: "₺", name: "Turkish Lira", rateToUsd: "0.034" },
  { code: "RUB", symbol: "₽", name: "Russian Ruble", rateToUsd: "0.011" },
  { code: "AED", symbol: "AED", name: "UAE Dirham", rateToUsd: "0.27" },
  { code: "SAR", symbol: "SAR", name: "Saudi Riyal", rateToUsd: "0.27" },
  { code: "ILS", symbol: "₪", name: "Israeli New Shekel", rateToUsd: "0.27" },
  { code: "ZAR", symbol: "R", name: "South African Rand", rateToUsd: "0.055" },
  { code: "EGP", symbol: "E£", name: "Egyptian Pound", rateToUsd: "0.02" },
  { code: "NGN", symbol: "₦", name: "Nigerian Naira", rateToUsd: "0.00065" },
  { code: "KES", symbol: "KSh", name: "Kenyan Shilling", rateToUsd: "0.0077" },
] as const satisfies readonly CurrencyInfo[];

/** A currency of the rate table. */
export type SupportedCurrency = (typeof CURRENCIES)[number]["code"];

export const DEFAULT_CURRENCY: SupportedCurrency = "MYR";

const CURRENCY_BY_CODE: ReadonlyMap<string, CurrencyInfo> = new Map(CURRENCIES.map((c) => [c.code, c]));

export function isSupportedCurrency(code: unknown): code is SupportedCurrency {
  return typeof code === "string" && CURRENCY_BY_CODE.has(code);
}

/** A currency chosen by a user (query parameter, form field): its table code, or MYR when unknown. */
export function resolveCurrency(code: unknown): SupportedCurrency {
  const upper = typeof code === "string" ? code.trim().toUpperCase() : "";
  return isSupportedCurrency(upper) ? upper : DEFAULT_CURRENCY;
}

/**
 * The currency a page shows amounts in (prices, pool figures), one rule on every page (decision 620): a currency
 * named by the address (`?currency=`), else the one the viewer chose and the site remembers (a fan's profile, a
 * visitor's cookie), else the signed-in viewer's local currency (their profile country's), else the default (MYR).
 * `chosen` is the raw address choice (an unknown code is MYR, as `resolveCurrency`); empty or missing means none. A
 * remembered value outside the table counts as none.
 */
export function displayCurrency(viewer: {
  chosen?: string | null;
  remembered?: string | null;
  country?: string | null;
}): SupportedCurrency {
  if (viewer.chosen) return resolveCurrency(viewer.chosen);
  if (isSupportedCurrency(viewer.remembered)) return viewer.remembered;
  return viewer.country ? currencyForCountry(viewer.country) : DEFAULT_CURRENCY;
}

export interface Country {
  /** ISO 3166-1 alpha-2 code. */
  code: string;
  name: string;
  currency: SupportedCurrency;
}

// Each country's own currency when it is in the rate table, EUR for countries that use the euro, USD otherwise.
const COUNTRY_ROWS: readonly Country[] = [
  // Asia and Pacific
  { code: "MY", name: "Malaysia", currency: "MYR" },
  { code: "SG", name: "Singapore", currency: "SGD" },
  { code: "ID", name: "Indonesia", currency: "IDR" },
  { code: "TH", name: "Thailand", currency: "THB" },
  { code: "PH", name: "Philippines", currency: "PHP" },
  { code: "VN", name: "Vietnam", currency: "VND" },
  { code: "JP", name: "Japan", currency: "JPY" },
  { code: "KR", name: "South Korea", currency: "KRW" },
  { code: "CN", name: "China", currency: "CNY" },
  { code: "HK", name: "Hong Kong", currency: "HKD" },
  { code: "TW", name: "Taiwan", currency: "TWD" },
  { code: "IN", name: "India", currency: "INR" },
  { code: "AU", name: "Australia", currency: "AUD" },
  { code: "NZ", name: "New Zealand", currency: "NZD" },
  { code: "BN", name: "Brunei", currency: "USD" },
  { code: "KH", name: "Cambodia", currency: "USD" },
  { code: "LA", name: "Laos", currency: "USD" },
  { code: "MM", name: "Myanmar", currency: "USD" },
  { code: "MO", name: "Macao", currency: "USD" },
  { code: "BD", name: "Bangladesh", currency: "USD" },
  { code: "PK", name: "Pakistan", currency: "USD" },
  { code: "LK", name: "Sri Lanka", currency: "USD" },
  { code: "NP", name: "Nepal", currency: "USD" },
  { code: "KZ", name: "Kazakhstan", currency: "USD" },
  // Americas
  { code: "US", name: "United States", currency: "USD" },
  { code: "CA", name: "Canada", currency: "CAD" },
  { code: "MX", name: "Mexico", currency: "MXN" },
  { code: "BR", name: "Brazil", currency: "BRL" },
  { code: "AR", name: "Argentina", currency: "ARS" },
  { code: "CL", name: "Chile", currency: "USD" },
  { code: "CO", name: "Colombia", currency: "USD" },
  { code: "PE", name: "Peru", currency: "USD" },
  { code: "VE", name: "Venezuela", currency: "USD" },
  { code: "EC", name: "Ecuador", currency: "USD" },
  { code: "UY", name: "Uruguay", currency: "USD" },
  { code: "PY", name: "Paraguay", currency: "USD" },
  { code: "BO", name: "Bolivia", currency: "USD" },
  { code: "CR", name: "Costa Rica", currency: "USD" },
  { code: "PA", name: "Panama", currency: "USD" },
  { code: "GT", name: "Guatemala", currency: "USD" },
  { code: "HN", name: "Honduras", currency: "USD" },
  { code: "SV", name: "El Salvador", currency: "USD" },
  { code: "NI", name: "Nicaragua", currency: "USD" },
  { code: "DO", name: "Dominican Republic", currency: "USD" },
  { code: "JM", name: "Jamaica", currency: "USD" },
  { code: "PR", name: "Puerto Rico", currency: "USD" },
  // Europe
  { code: "GB", name: "United Kingdom", currency: "GBP" },
  { code: "IE", name: "Ireland", currency: "EUR" },
  { code: "FR", name: "France", currency: "EUR" },
  { code: "DE", name: "Germany", currency: "EUR" },
  { code: "IT", name: "Italy", currency: "EUR" },
  { code: "ES", name: "Spain", currency: "EUR" },
  { code: "PT", name: "Portugal", currency: "EUR" },
  { code: "NL", name: "Netherlands", currency: "EUR" },
  { code: "BE", name: "Belgium", currency: "EUR" },
  { code: "LU", name: "Luxembourg", currency: "EUR" },
  { code: "AT", name: "Austria", currency: "EUR" },
  { code: "FI", name: "Finland", currency: "EUR" },
  { code: "GR", name: "Greece", currency: "EUR" },
  { code: "CY", name: "Cyprus", currency: "EUR" },
  { code: "MT", name: "Malta", currency: "EUR" },
  { code: "SI", name: "Slovenia", currency: "EUR" },
  { code: "SK", name: "Slovakia", currency: "EUR" },
  { code: "HR", name: "Croatia", currency: "EUR" },
  { code: "EE", name: "Estonia", currency: "EUR" },
  { code: "LV", name: "Latvia", currency: "EUR" },
  { code: "LT", name: "Lithuania", currency: "EUR" },
  { code: "BG", name: "Bulgaria", currency: "EUR" },
  { code: "ME", name: "Montenegro", currency: "EUR" },
  { code: "CH", name: "Switzerland", currency: "CHF" },
  { code: "SE", name: "Sweden", currency: "SEK" },
  { code: "NO", name: "Norway", currency: "NOK" },
  { code: "DK", name: "Denmark", currency: "DKK" },
  { code: "IS", name: "Iceland", currency: "USD" },
  { code: "PL", name: "Poland", currency: "PLN" },
  { code: "CZ", name: "Czechia", currency: "CZK" },
  { code: "HU", name: "Hungary", currency: "HUF" },
  { code: "RO", name: "Romania", currency: "RON" },
  { code: "RS", name: "Serbia", currency: "USD" },
  { code: "BA", name: "Bosnia and Herzegovina", currency: "USD" },
  { code: "AL", name: "Albania", currency: "USD" },
  { code: "MK", name: "North Macedonia", currency: "USD" },
  { code: "MD", name: "Moldova", currency: "USD" },
  { code: "UA", name: "Ukraine", currency: "USD" },
  { code: "GE", name: "Georgia", currency: "USD" },
  { code: "AM", name: "Armenia", currency: "USD" },
  { code: "AZ", name: "Azerbaijan", currency: "USD" },
  { code: "TR", name: "Turkey", currency: "TRY" },
  { code: "RU", name: "Russia", currency: "RUB" },
  // Middle East
  { code: "AE", name: "United Arab Emirates", currency: "AED" },
  { code: "SA", name: "Saudi Arabia", currency: "SAR" },
  { code: "IL", name: "Israel", currency: "ILS" },
  { code: "QA", name: "Qatar", currency: "USD" },
  { code: "KW", name: "Kuwait", currency: "USD" },
  { code: "BH", name: "Bahrain", currency: "USD" },
  { code: "OM", name: "Oman", currency: "USD" },
  { code: "JO", name: "Jordan", currency: "USD" },
  { code: "LB", name: "Lebanon", currency: "USD" },
  { code: "IQ", name: "Iraq", currency: "USD" },
  // Africa
  { code: "ZA", name: "South Africa", currency: "ZAR" },
  { code: "EG", name: "Egypt", currency: "EGP" },
  { code: "NG", name: "Nigeria", currency: "NGN" },
  { code: "KE", name: "Kenya", currency: "KES" },
  { code: "GH", name: "Ghana", currency: "USD" },
  { code: "MA", name: "Morocco", currency: "USD" },
  { code: "TN", name: "Tunisia", currency: "USD" },
  { code: "DZ", name: "Algeria", currency: "USD" },
  { code: "ET", name: "Ethiopia", currency: "USD" },
  { code: "TZ", name: "Tanzania", currency: "USD" },
  { code: "UG", name: "Uganda", currency: "USD" },
  { code: "RW", name: "Rwanda", currency: "USD" },
  { code: "SN", name: "Senegal", currency: "USD" },
  { code: "CI", name: "Côte d'Ivoire", currency: "USD" },
  { code: "CM", name: "Cameroon", currency: "USD" },
  { code: "ZM", name: "Zambia", currency: "USD" },
  { code: "ZW", name: "Zimbabwe", currency: "USD" },
  { code: "BW", name: "Botswana", currency: "USD" },
  { code: "NA", name: "Namibia", currency: "USD" },
  { code: "MU", name: "Mauritius", currency: "USD" },
  { code: "MZ", name: "Mozambique", currency: "USD" },
];

/**
 * The countries of signup, of the /shop 'Ship to' select and of the host's shipping settings (about 120), sorted by
 * name, each with the currency used for that host's products. One list for all three (the original app gave "about
 * 115" for shipping and "about 120" at signup without naming them; one list keeps a host's own country shippable).
 * The shop's select adds its own "All Countries" option.
 */
export const COUNTRIES: readonly Country[] = [...COUNTRY_ROWS].sort((a, b) => a.name.localeCompare(b.name, "en"));

export const DEFAULT_COUNTRY_CODE = "MY";

const COUNTRY_BY_CODE: ReadonlyMap<string, Country> = new Map(COUNTRY_ROWS.map((c) => [c.code, c]));

export function isCountryCode(code: unknown): boolean {
  return typeof code === "string" && COUNTRY_BY_CODE.has(code);
}

/** The country for a code (case-insensitive); unknown, missing or malformed codes fall back to Malaysia. */
export function countryByCode(code: unknown): Country {
  const upper = typeof code === "string" ? code.trim().toUpperCase() : "";
  return COUNTRY_BY_CODE.get(upper) ?? (COUNTRY_BY_CODE.get(DEFAULT_COUNTRY_CODE) as Country);
}

/** The currency of a country's hosts; unknown countries fall back to MYR (via Malaysia). */
export function currencyForCountry(code: unknown): SupportedCurrency {
  return countryByCode(code).currency;
}

// --- conversion -----------------------------------------------------------------------------------------------

export interface ExactRate {
  numerator: bigint;
  denominator: bigint;
}

/** Each table rate as an exact fraction, read from its decimal text once (a page converts every price it shows). */
const EXACT_RATES: ReadonlyMap<string, ExactRate> = new Map(
  CURRENCIES.map((c) => {
    const [whole = "0", fraction = ""] = c.rateToUsd.split(".");
    return [c.code, { numerator: BigInt(whole + fraction), denominator: 10n ** BigInt(fraction.length) }];
  }),
);

function exactRate(code: string): ExactRate {
  const rate = EXACT_RATES.get(code.trim().toUpperCase());
  if (!rate) throw new RangeError(`Unknown currency: ${code}`);
  return rate;
}

function assertCents(value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`cents must be a safe integer, got ${value}`);
}

/**
 * Converts minor units of one table currency into minor units of another through the USD rates, rounded half up
 * (half away from zero for negatives) exactly once: `convertCents(1000, "USD", "MYR")` -> 4545 (10 / 0.22 = 45.4545).
 * Throws RangeError for a currency outside the table.
 */
export function convertCents(cents: number, from: SupportedCurrency, to: SupportedCurrency): number {
  assertCents(cents);
  if (from === to && isSupportedCurrency(from)) return cents;
  const factor = conversionFactor(from, to);
  return Number(divideRoundHalfUp(BigInt(cents) * factor.numerator, factor.denominator));
}

/**
 * The exact factor convertCents multiplies minor units of `from` by to get minor units of `to` (before its one
 * half-up rounding). A page sent without hydration converts a total in the browser with it (/page.js).
 */
export function conversionFactor(from: SupportedCurrency, to: SupportedCurrency): ExactRate {
  if (from === to) return UNIT_FACTOR;
  const key = `${from}>${to}`;
  let factor = FACTORS.get(key);
  if (!factor) {
    const fromRate = exactRate(from);
    const toRate = exactRate(to);
    // amount in USD = cents / 10^expFrom * fromRate; target units = USD / toRate; target minor = units * 10^expTo
    factor = Object.freeze({
      numerator: fromRate.numerator * toRate.denominator * 10n ** BigInt(minorUnitDigits(to)),
      denominator: 10n ** BigInt(minorUnitDigits(from)) * fromRate.denominator * toRate.numerator,
    });
    FACTORS.set(key, factor);
  }
  return factor;
}

const UNIT_FACTOR: ExactRate = Object.freeze({ numerator: 1n, denominator: 1n });
/** Each pair's factor, worked out once per isolate (a page converts every price it shows; the table is fixed). */
const FACTORS = new Map<string, ExactRate>();

/** An amount of one currency in minor units of the display currency (an amount outside the table stays as it is). */
export function displayCents(cents: number, from: string, to: SupportedCurrency): number {
  return isSupportedCurrency(from) ? convertCents(cents, from, to) : cents;
}

/** An amount shown in the display currency: `formatIn(1000, "USD", "MYR")` -> "RM 45.45". */
export function formatIn(cents: number, from: string, to: SupportedCurrency): string {
  return isSupportedCurrency(from) ? formatCents(convertCents(cents, from, to), to) : formatCents(cents, from);
}
