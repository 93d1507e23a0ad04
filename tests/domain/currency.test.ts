import { describe, expect, it } from "vitest";
import {
  convertCents,
  COUNTRIES,
  countryByCode,
  currencyForCountry,
  CURRENCIES,
  DEFAULT_COUNTRY_CODE,
  DEFAULT_CURRENCY,
  displayCurrency,
  isCountryCode,
  isSupportedCurrency,
  resolveCurrency,
  type SupportedCurrency,
} from "~/domain/currency";

// The rate table (docs/product.md#currency), written out independently.
const SPEC_RATES: Record<string, string> = {
  MYR: "0.22",
  SGD: "0.74",
  IDR: "0.000065",
  THB: "0.028",
  PHP: "0.018",
  VND: "0.00004",
  JPY: "0.0067",
  KRW: "0.00075",
  CNY: "0.14",
  HKD: "0.13",
  TWD: "0.031",
  INR: "0.012",
  AUD: "0.66",
  NZD: "0.62",
  USD: "1",
  CAD: "0.74",
  BRL: "0.2",
  MXN: "0.059",
  ARS: "0.001",
  GBP: "1.27",
  EUR: "1.09",
  CHF: "1.11",
  SEK: "0.096",
  NOK: "0.094",
  DKK: "0.15",
  PLN: "0.25",
  CZK: "0.044",
  HUF: "0.0027",
  RON: "0.22",
  TRY: "0.034",
  RUB: "0.011",
  AED: "0.27",
  SAR: "0.27",
  ILS: "0.27",
  ZAR: "0.055",
  EGP: "0.02",
  NGN: "0.00065",
  KES: "0.0077",
};

describe("the currency table", () => {
  it("holds exactly the table's rates", () => {
    expect(Object.fromEntries(CURRENCIES.map((c) => [c.code, c.rateToUsd]))).toEqual(SPEC_RATES);
    expect(CURRENCIES).toHaveLength(38);
  });

  it("gives every currency a symbol and a name", () => {
    for (const currency of CURRENCIES) {
      expect(currency.symbol.length).toBeGreaterThan(0);
      expect(currency.name.length).toBeGreaterThan(0);
      expect(currency.rateToUsd).toMatch(/^\d+(\.\d+)?$/);
    }
  });

  it("resolves user input to a table currency, MYR when unknown", () => {
    expect(resolveCurrency("usd")).toBe("USD");
    expect(resolveCurrency(" JPY ")).toBe("JPY");
    expect(resolveCurrency("XYZ")).toBe("MYR");
    expect(resolveCurrency(undefined)).toBe("MYR");
    expect(resolveCurrency(42)).toBe("MYR");
    expect(DEFAULT_CURRENCY).toBe("MYR");
    expect(isSupportedCurrency("MYR")).toBe(true);
    expect(isSupportedCurrency("myr")).toBe(false);
    expect(isSupportedCurrency("BND")).toBe(false);
  });
});

describe("countries", () => {
  it("lists about 120 signup countries with unique ISO alpha-2 codes", () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(115);
    expect(COUNTRIES.length).toBeLessThanOrEqual(125);
    const codes = COUNTRIES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const country of COUNTRIES) {
      expect(country.code).toMatch(/^[A-Z]{2}$/);
      expect(country.name.length).toBeGreaterThan(0);
      expect(isSupportedCurrency(country.currency)).toBe(true);
    }
  });

  it("is sorted by name", () => {
    const names = COUNTRIES.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
  });

  it("uses every currency of the table somewhere", () => {
    const used = new Set(COUNTRIES.map((c) => c.currency));
    for (const currency of CURRENCIES) expect(used.has(currency.code)).toBe(true);
  });

  it.each([
    ["MY", "MYR"],
    ["SG", "SGD"],
    ["ID", "IDR"],
    ["JP", "JPY"],
    ["US", "USD"],
    ["GB", "GBP"],
    ["DE", "EUR"],
    ["FR", "EUR"],
    ["HR", "EUR"],
    ["CH", "CHF"],
    ["AE", "AED"],
    ["KE", "KES"],
    // own currency not in the table: USD
    ["BN", "USD"],
    ["CL", "USD"],
    ["IS", "USD"],
    ["NG", "NGN"],
    ["GH", "USD"],
  ])("%s uses %s", (code, currency) => {
    expect(currencyForCountry(code)).toBe(currency);
  });

  it("falls back to Malaysia / MYR for unknown codes", () => {
    expect(countryByCode("ZZ")).toEqual({ code: "MY", name: "Malaysia", currency: "MYR" });
    expect(countryByCode("")).toMatchObject({ code: "MY" });
    expect(countryByCode(null)).toMatchObject({ code: "MY" });
    expect(countryByCode(undefined)).toMatchObject({ code: "MY" });
    expect(countryByCode(7)).toMatchObject({ code: "MY" });
    expect(currencyForCountry("XX")).toBe("MYR");
    expect(currencyForCountry(undefined)).toBe("MYR");
    expect(DEFAULT_COUNTRY_CODE).toBe("MY");
  });

  it("reads codes case-insensitively", () => {
    expect(countryByCode("sg")).toMatchObject({ code: "SG", name: "Singapore" });
    expect(countryByCode(" gb ")).toMatchObject({ code: "GB" });
    expect(isCountryCode("SG")).toBe(true);
    expect(isCountryCode("sg")).toBe(false);
    expect(isCountryCode("ZZ")).toBe(false);
    expect(isCountryCode(null)).toBe(false);
  });
});

describe("convertCents from USD", () => {
  it.each<[number, SupportedCurrency, number]>([
    [1000, "MYR", 4545], // 10 / 0.22 = 45.4545...
    [100, "MYR", 455], // 4.5454...
    [100, "USD", 100],
    [100, "EUR", 92], // 0.9174...
    [100, "GBP", 79], // 0.7874...
    [100, "SGD", 135], // 1.3513...
    [100, "BRL", 500],
    [100, "ARS", 100000],
    [100, "JPY", 149], // 149.25 yen, no minor unit
    [100, "KRW", 1333], // 1333.33 won
    [100, "VND", 25000],
    [100, "IDR", 1538462], // 15384.615 rupiah in sen, rounded half up
    [0, "MYR", 0],
    [1, "MYR", 5], // 0.0454 MYR = 4.545 sen
  ])("%i USD cents in %s is %i", (usdCents, currency, expected) => {
    expect(convertCents(usdCents, "USD", currency)).toBe(expected);
  });

  it("rounds exact halves up (and away from zero for negatives)", () => {
    // 6 cents / 0.096 = 62.5 öre
    expect(convertCents(6, "USD", "SEK")).toBe(63);
    expect(convertCents(-6, "USD", "SEK")).toBe(-63);
  });

  it("is exact for large amounts", () => {
    // USD 1,000,000,000.00 / 0.22
    expect(convertCents(100_000_000_000, "USD", "MYR")).toBe(454_545_454_545);
  });

  it("rejects unknown currencies and non-integer cents", () => {
    expect(() => convertCents(100, "USD", "XYZ" as SupportedCurrency)).toThrow(RangeError);
    expect(() => convertCents(1.5, "USD", "MYR")).toThrow(RangeError);
  });
});

describe("convertCents", () => {
  it("goes between any two table currencies through USD", () => {
    expect(convertCents(4545, "MYR", "USD")).toBe(1000); // 45.45 * 0.22 = 9.999
    expect(convertCents(1000, "EUR", "GBP")).toBe(858); // 10.90 USD / 1.27
    expect(convertCents(149, "JPY", "USD")).toBe(100); // 0.9983 USD
    expect(convertCents(12345, "USD", "USD")).toBe(12345);
  });
});

describe("displayCurrency: the one rule for the currency a page shows", () => {
  it("takes a currency named by the address first, whatever the viewer remembers or their country", () => {
    expect(displayCurrency({ chosen: "USD", remembered: "JPY", country: "MY" })).toBe("USD");
    expect(displayCurrency({ chosen: "jpy", country: "SG" })).toBe("JPY");
    expect(displayCurrency({ chosen: "SGD" })).toBe("SGD");
    // A choice outside the table is MYR, as resolveCurrency reads it, not the viewer's currency.
    expect(displayCurrency({ chosen: "XYZ", country: "SG" })).toBe("MYR");
  });

  it("else the remembered choice (a fan's profile, a visitor's cookie), when it is a code of the table", () => {
    expect(displayCurrency({ remembered: "USD", country: "MY" })).toBe("USD");
    expect(displayCurrency({ chosen: "", remembered: "EUR" })).toBe("EUR");
    expect(displayCurrency({ remembered: "usd", country: "SG" })).toBe("SGD");
    expect(displayCurrency({ remembered: "XYZ" })).toBe("MYR");
  });

  it("else the signed-in viewer's local currency", () => {
    expect(displayCurrency({ chosen: null, country: "MY" })).toBe("MYR");
    expect(displayCurrency({ remembered: null, country: "SG" })).toBe("SGD");
    expect(displayCurrency({ chosen: "", country: "GB" })).toBe("GBP");
    expect(displayCurrency({ country: "BN" })).toBe("USD");
    expect(displayCurrency({ country: "ZZ" })).toBe("MYR");
  });

  it("else MYR, the default (a visitor without a choice has no country)", () => {
    expect(displayCurrency({})).toBe(DEFAULT_CURRENCY);
    expect(displayCurrency({ chosen: "", remembered: null, country: null })).toBe("MYR");
  });
});
