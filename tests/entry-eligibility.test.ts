import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { saveExcludedPlaces } from "~/db/queries/eligibility.server";
import { adminAuditLog, platformSettings, userProfiles, users } from "~/db/schema";
import { EXCLUDED_PLACES_SETTING_KEY, MIN_ENTRY_AGE } from "~/domain/eligibility";
import { entryRefusal, listExcludedPlaces } from "~/lib/entry-eligibility.server";
import { countingSession, db, decodedHtml, get, makeUser, pageText, postForm, signIn, withoutNetwork } from "./helpers";

// Who may enter a prize pool (docs/product.md#eligibility): entryRefusal, the one check every entry route calls.

withoutNetwork();

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
      // Every page showing the refusal links to where the date of birth is added.
      link: { href: "/settings/responsible-play", label: "Add your date of birth" },
    });
    expect(await refusal(seventeen.id, host.id)).toEqual({
      code: "under_age",
      message: `You must be ${MIN_ENTRY_AGE} or over to enter prize draws.`,
    });
    expect(await refusal(eighteenToday.id, host.id)).toBeNull();
  });
});

describe("its cost", () => {
  it("reads D1 at most twice: the account with the excluded places in one batch, then the self-exclusion keys", async () => {
    const host = await makeUser();
    const fan = await makeUser();
    const { session, counter } = countingSession();
    const counted = { ...env, DB: session } as unknown as Env;
    expect(await entryRefusal(counted, { userId: fan.id, hostId: host.id, route: "paid_guess", now: NOW })).toBeNull();
    expect(counter.calls).toBe(2);
    // The pool's own host is refused before any read.
    counter.calls = 0;
    await entryRefusal(counted, { userId: host.id, hostId: host.id, route: "paid_guess", now: NOW });
    expect(counter.calls).toBe(0);
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

describe("Settings > Responsible play", () => {
  async function fanWithout(country = "MY") {
    const user = await makeUser({ dateOfBirth: null });
    await db().update(userProfiles).set({ country }).where(eq(userProfiles.userId, user.id));
    return { ...user, cookie: await signIn(user.email) };
  }
  const dobOf = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!.dateOfBirth;

  it("refuses a date of birth that is not a real past date with a clear message, and saves it once", async () => {
    const f = await fanWithout();
    const cases: [string, string][] = [
      ["", "Please enter your date of birth as a date (YYYY-MM-DD)."],
      ["15/01/1990", "Please enter your date of birth as a date (YYYY-MM-DD)."],
      ["1990-02-30", "This date does not exist. Please check the day and month."],
      ["2999-01-01", "Your date of birth cannot be in the future."],
      ["1850-06-01", "Please enter a date of birth from 1900 on."],
    ];
    for (const [dateOfBirth, message] of cases) {
      const res = await postForm("/settings", { intent: "date-of-birth", dateOfBirth }, { cookie: f.cookie });
      expect(res.status).toBe(400);
      expect(await decodedHtml(res)).toContain(message);
    }
    expect(await dobOf(f.id)).toBeNull();
    const before = await get("/settings/responsible-play", { cookie: f.cookie });
    const beforeHtml = await decodedHtml(before);
    expect(beforeHtml).toContain('name="dateOfBirth"');
    expect(beforeHtml).toContain(
      "Please add your date of birth in Settings > Responsible play before your first entry.",
    );

    const ok = await postForm(
      "/settings",
      { intent: "date-of-birth", dateOfBirth: "1992-07-09" },
      { cookie: f.cookie },
    );
    expect(ok.status).toBe(200);
    expect(await decodedHtml(ok)).toContain("Your date of birth is saved.");
    expect(await dobOf(f.id)).toBe("1992-07-09");
    expect(await pageText(await get("/settings/responsible-play", { cookie: f.cookie }))).toContain(
      "You can enter prize draws.",
    );

    // Set once: a minor cannot type an older date afterwards.
    const again = await postForm(
      "/settings",
      { intent: "date-of-birth", dateOfBirth: "1980-01-01" },
      { cookie: f.cookie },
    );
    expect(again.status).toBe(409);
    expect(await decodedHtml(again)).toContain("Your date of birth is already set and cannot be changed here.");
    expect(await dobOf(f.id)).toBe("1992-07-09");
  });

  it("an account under 18 is refused entry once its date of birth is given", async () => {
    const host = await makeUser();
    const f = await fanWithout();
    const sixteen = `${NOW.getUTCFullYear() - 16}-01-01`;
    await postForm("/settings", { intent: "date-of-birth", dateOfBirth: sixteen }, { cookie: f.cookie });
    expect(
      await entryRefusal(env, { userId: f.id, hostId: host.id, route: "free_entry", now: new Date() }),
    ).toMatchObject({ code: "under_age" });
  });

  it("saves a region of the profile's country only", async () => {
    const american = await fanWithout("US");
    const regionOf = async (id: string) =>
      (await db().select().from(userProfiles).where(eq(userProfiles.userId, id)))[0]!.region;
    const page = await pageText(await get("/settings/responsible-play", { cookie: american.cookie }));
    expect(page).toContain("New York");
    const ny = await postForm("/settings", { intent: "region", region: "US-NY" }, { cookie: american.cookie });
    expect(ny.status).toBe(200);
    expect(await regionOf(american.id)).toBe("US-NY");
    for (const region of ["MY-10", "US-XX", "<script>"]) {
      const res = await postForm("/settings", { intent: "region", region }, { cookie: american.cookie });
      expect(res.status).toBe(400);
      expect(await decodedHtml(res)).toContain("Please choose a region of United States from the list.");
    }
    expect(await regionOf(american.id)).toBe("US-NY");
    await postForm("/settings", { intent: "region", region: "" }, { cookie: american.cookie });
    expect(await regionOf(american.id)).toBeNull();

    const singaporean = await fanWithout("SG");
    const res = await postForm("/settings", { intent: "region", region: "US-NY" }, { cookie: singaporean.cookie });
    expect(res.status).toBe(400);
    expect(await pageText(await get("/settings/responsible-play", { cookie: singaporean.cookie }))).toContain(
      "No region is needed for Singapore.",
    );
  });
});

describe("/admin: excluded places", () => {
  it("lists the places needing a legal decision without excluding them, and audit-logs each change", async () => {
    const admin = await makeUser({ role: "admin", name: "Platform Owner" });
    const cookie = await signIn(admin.email);
    const host = await makeUser();
    const floridian = await makeUser();
    await db()
      .update(userProfiles)
      .set({ country: "US", region: "US-FL" })
      .where(eq(userProfiles.userId, floridian.id));

    const page = await pageText(await get("/admin", { cookie }));
    expect(page).toContain("Needs the operator's legal decision");
    for (const name of ["Malaysia (MY)", "New York, United States (US-NY)", "Florida, United States (US-FL)"])
      expect(page).toContain(name);
    expect(page).toContain("No place is excluded: entries are offered everywhere.");
    expect(await listExcludedPlaces(env)).toEqual([]);
    expect(await refusal(floridian.id, host.id)).toBeNull();

    try {
      const added = await postForm("/admin", { intent: "excluded-place", change: "add", code: "us-fl" }, { cookie });
      expect(added.status).toBe(200);
      expect(await decodedHtml(added)).toContain("Entries are no longer offered in Florida, United States.");
      expect(await refusal(floridian.id, host.id)).toMatchObject({ code: "excluded_place" });
      expect(await listExcludedPlaces(env)).toEqual([{ code: "US-FL", name: "Florida, United States" }]);

      const twice = await postForm("/admin", { intent: "excluded-place", change: "add", code: "US-FL" }, { cookie });
      expect(twice.status).toBe(409);
      expect(await decodedHtml(twice)).toContain("Florida, United States is already excluded.");

      const audit = await db()
        .select()
        .from(adminAuditLog)
        .where(and(eq(adminAuditLog.adminId, admin.id), eq(adminAuditLog.action, "excluded_places_updated")));
      expect(audit).toHaveLength(1);
      expect(audit[0]!.detail).toMatchObject({ change: "add", code: "US-FL", from: [], to: ["US-FL"] });
      expect(await pageText(await get("/admin", { cookie }))).toContain("Excluded: Florida, United States (US-FL)");

      for (const code of ["XX", "US-ZZ", "", "MY;DROP"]) {
        const bad = await postForm("/admin", { intent: "excluded-place", change: "add", code }, { cookie });
        expect(bad.status).toBe(400);
        expect(await decodedHtml(bad)).toContain("Please enter a country code (ISO 3166-1, e.g. MY)");
      }

      const removed = await postForm(
        "/admin",
        { intent: "excluded-place", change: "remove", code: "US-FL" },
        { cookie },
      );
      expect(removed.status).toBe(200);
      expect(await decodedHtml(removed)).toContain("Entries are offered again in Florida, United States.");
      expect(await refusal(floridian.id, host.id)).toBeNull();
      const after = await db()
        .select()
        .from(adminAuditLog)
        .where(and(eq(adminAuditLog.adminId, admin.id), eq(adminAuditLog.action, "excluded_places_updated")));
      expect(after).toHaveLength(2);
    } finally {
      await setExcludedPlaces([]);
    }
  });

  it("a change made from a list that changed meanwhile applies nothing and logs nothing", async () => {
    const admin = await makeUser({ role: "admin" });
    try {
      await setExcludedPlaces(["GB"]);
      // Another admin's change was based on the empty list: it must not overwrite GB.
      const applied = await saveExcludedPlaces(db(), {
        adminId: admin.id,
        previous: [],
        next: ["MY"],
        detail: { change: "add", code: "MY" },
      });
      expect(applied).toBe(false);
      expect(await listExcludedPlaces(env)).toEqual([{ code: "GB", name: "United Kingdom" }]);
      expect(await db().select().from(adminAuditLog).where(eq(adminAuditLog.adminId, admin.id))).toHaveLength(0);
    } finally {
      await setExcludedPlaces([]);
    }
  });

  it("refuses the change to anyone but the platform owner, and changes nothing", async () => {
    const fan = await makeUser();
    const cookie = await signIn(fan.email);
    const res = await postForm("/admin", { intent: "excluded-place", change: "add", code: "GB" }, { cookie });
    expect(res.status).toBe(403);
    const visitor = await postForm("/admin", { intent: "excluded-place", change: "add", code: "GB" });
    expect(visitor.status).toBe(302);
    expect(await listExcludedPlaces(env)).toEqual([]);
    const audit = await db().select().from(adminAuditLog).where(eq(adminAuditLog.action, "excluded_places_updated"));
    expect(audit.filter((row) => (row.detail as { code?: string }).code === "GB")).toHaveLength(0);
  });
});
