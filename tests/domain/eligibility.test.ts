import { describe, expect, it } from "vitest";
import {
  ageOn,
  dateOfBirthSchema,
  hasExcludedRegionIn,
  isExcludedPlace,
  isOfEntryAge,
  resolveExcludedPlaces,
} from "~/domain/eligibility";
import { isRegionOf, placeName, regionsOf } from "~/domain/regions";
import { normaliseEmail, normaliseFullName, selfExclusionEnd } from "~/domain/self-exclusion";

describe("age", () => {
  it("counts whole years in UTC; 18 on the birthday, not the day before", () => {
    const now = new Date("2026-11-26T23:30:00Z");
    expect(ageOn("2008-11-26", now)).toBe(18);
    expect(ageOn("2008-11-27", now)).toBe(17);
    expect(isOfEntryAge("2008-11-26", now)).toBe(true);
    expect(isOfEntryAge("2008-11-27", now)).toBe(false);
  });

  it("someone born on 29 February turns a year older on 1 March in other years", () => {
    expect(ageOn("2008-02-29", new Date("2026-02-28T12:00:00Z"))).toBe(17);
    expect(ageOn("2008-02-29", new Date("2026-03-01T00:00:00Z"))).toBe(18);
  });
});

describe("date of birth", () => {
  const schema = dateOfBirthSchema(new Date("2026-11-26T12:00:00Z"));
  it("takes a real day from 1900 to today", () => {
    expect(schema.safeParse("2026-11-26").success).toBe(true);
    expect(schema.safeParse(" 1900-01-01 ").data).toBe("1900-01-01");
    expect(schema.safeParse("2024-02-29").success).toBe(true);
  });
  it("refuses anything else with its message", () => {
    const message = (v: unknown) => schema.safeParse(v).error?.issues[0]?.message;
    expect(message("2026-11-27")).toBe("Your date of birth cannot be in the future.");
    expect(message("2023-02-29")).toBe("This date does not exist. Please check the day and month.");
    expect(message("1899-12-31")).toBe("Please enter a date of birth from 1900 on.");
    expect(message("26/11/2000")).toBe("Please enter your date of birth as a date (YYYY-MM-DD).");
    expect(message(undefined)).toBe("Please enter your date of birth as a date (YYYY-MM-DD).");
  });
});

describe("excluded places", () => {
  it("keeps only known codes, once, sorted", () => {
    expect(resolveExcludedPlaces(["US-NY", "MY", "MY", "XX", 7, "us-fl", "US-FL"])).toEqual(["MY", "US-FL", "US-NY"]);
    expect(resolveExcludedPlaces({ MY: true })).toEqual([]);
    expect(resolveExcludedPlaces(null)).toEqual([]);
  });
  it("matches a fan by country or region", () => {
    expect(isExcludedPlace(["US-NY"], "US", "US-NY")).toBe(true);
    expect(isExcludedPlace(["US-NY"], "US", "US-TX")).toBe(false);
    expect(isExcludedPlace(["MY"], "MY", null)).toBe(true);
    expect(hasExcludedRegionIn(["US-NY"], "US")).toBe(true);
    expect(hasExcludedRegionIn(["US-NY"], "MY")).toBe(false);
  });
  it("knows every US state and names places for people", () => {
    expect(
      regionsOf("US").filter((r) => !["US-DC", "US-AS", "US-GU", "US-MP", "US-PR", "US-VI"].includes(r.code)),
    ).toHaveLength(50);
    expect(isRegionOf("US-NY", "US")).toBe(true);
    expect(isRegionOf("MY-10", "US")).toBe(false);
    expect(placeName("US-NY")).toBe("New York, United States");
    expect(placeName("MY")).toBe("Malaysia");
  });
});

describe("self-exclusion", () => {
  it("ends the period's months later, on a shorter month's last day", () => {
    const t = new Date("2026-08-31T10:00:00Z");
    expect(selfExclusionEnd(t, "6_months").toISOString()).toBe("2027-02-28T10:00:00.000Z");
    expect(selfExclusionEnd(t, "1_year").toISOString()).toBe("2027-08-31T10:00:00.000Z");
    expect(selfExclusionEnd(new Date("2028-02-29T00:00:00Z"), "5_years").toISOString()).toBe(
      "2033-02-28T00:00:00.000Z",
    );
  });
  it("writes an e-mail and a name the same way however they are typed", () => {
    expect(normaliseEmail("  Ana.Lee+draws@Example.COM ")).toBe("ana.lee@example.com");
    expect(normaliseEmail("ana.lee@example.com")).toBe("ana.lee@example.com");
    expect(normaliseFullName("  José  O'Brien-Tan ")).toBe("jose o brien tan");
    expect(normaliseFullName("JOSE O BRIEN TAN")).toBe("jose o brien tan");
  });
});
