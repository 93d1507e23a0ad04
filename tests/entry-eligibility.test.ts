import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { platformSettings, userProfiles } from "~/db/schema";
import { EXCLUDED_PLACES_SETTING_KEY, MIN_ENTRY_AGE } from "~/domain/eligibility";
import { entryRefusal, listExcludedPlaces } from "~/lib/entry-eligibility.server";
import { db, makeUser } from "./helpers";

// Who may enter a prize pool (docs/product.md#eligibility): entryRefusal, the one check every entry route calls.

const NOW = new Date("2026-11-26T12:00:00Z");

async function refusal(userId: string, hostId: string, route: "paid_guess" | "free_entry" = "paid_guess") {
  return entryRefusal(env, { userId, hostId, route, now: NOW });
}

async function setExcludedPlaces(codes: string[]) {
  await db()
    .insert(platformSettings)
    .values({ settingKey: EXCLUDED_PLACES_SETTING_KEY, settingValue: codes })
    .onConflictDoUpdate({ target: platformSettings.settingKey, set: { settingValue: codes } });
}

describe("entryRefusal", () => {
  it("lets an adult fan enter another host's pool, and refuses the host and staff", async () => {
    const host = await makeUser({ name: "Host" });
    const fan = await makeUser({ name: "Fan" });
    const admin = await makeUser({ name: "Staff", role: "admin" });
    expect(await refusal(fan.id, host.id)).toBeNull();
    expect(await refusal(host.id, host.id)).toMatchObject({ code: "own_pool" });
    expect(await refusal(admin.id, host.id)).toMatchObject({ code: "staff" });
  });

  it("asks for a date of birth before a first entry, and refuses anyone under 18", async () => {
    const host = await makeUser();
    const noDob = await makeUser({ dateOfBirth: null });
    const seventeen = await makeUser({ dateOfBirth: "2008-11-27" });
    const eighteenToday = await makeUser({ dateOfBirth: "2008-11-26" });
    expect(await refusal(noDob.id, host.id, "free_entry")).toEqual({
      code: "dob_required",
      message: "Please add your date of birth in Settings > Responsible play before your first entry.",
    });
    expect(await refusal(seventeen.id, host.id)).toEqual({
      code: "under_age",
      message: `You must be ${MIN_ENTRY_AGE} or over to enter prize draws.`,
    });
    expect(await refusal(eighteenToday.id, host.id)).toBeNull();
  });
});

describe("excluded places", () => {
  it("refuses fans of an excluded country or US state, asks US fans for their state, and lists the places", async () => {
    const host = await makeUser();
    const malaysian = await makeUser();
    const newYorker = await makeUser();
    const texan = await makeUser();
    const americanWithoutState = await makeUser();
    const set = (id: string, country: string, region: string | null) =>
      db().update(userProfiles).set({ country, region }).where(eq(userProfiles.userId, id));
    await set(malaysian.id, "MY", null);
    await set(newYorker.id, "US", "US-NY");
    await set(texan.id, "US", "US-TX");
    await set(americanWithoutState.id, "US", null);
    try {
      await setExcludedPlaces(["MY", "US-NY"]);
      expect(await refusal(malaysian.id, host.id)).toMatchObject({
        code: "excluded_place",
        message: "Prize draws are not offered where you live, so you cannot enter.",
      });
      expect(await refusal(newYorker.id, host.id, "free_entry")).toMatchObject({ code: "excluded_place" });
      expect(await refusal(texan.id, host.id)).toBeNull();
      expect(await refusal(americanWithoutState.id, host.id)).toMatchObject({ code: "region_required" });
      expect(await listExcludedPlaces(env)).toEqual([
        { code: "MY", name: "Malaysia" },
        { code: "US-NY", name: "New York, United States" },
      ]);
    } finally {
      await setExcludedPlaces([]);
    }
    expect(await refusal(malaysian.id, host.id)).toBeNull();
    expect(await refusal(americanWithoutState.id, host.id)).toBeNull();
  });
});
