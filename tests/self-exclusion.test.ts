import { env } from "cloudflare:test";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findUserByEmail } from "~/db/queries/accounts.server";
import { selfExclusions, users } from "~/db/schema";
import { ENTRY_ROUTES } from "~/domain/eligibility";
import { entryRefusal } from "~/lib/entry-eligibility.server";
import {
  ADULT_DATE_OF_BIRTH,
  db,
  decodedHtml,
  get,
  makeUser,
  PASSWORD,
  postForm,
  signIn,
  uniqueEmail,
  withoutNetwork,
} from "./helpers";
import { signupFields } from "./support/accounts";

// Self-exclusion (docs/product.md#self-exclusion): 6 months, 1 year or 5 years; every way of entering is refused;
// never shortened; it survives deleting the account, found again by the e-mail or by the name with the date of birth.

withoutNetwork();

const refusalOf = (userId: string, hostId: string, now = new Date()) =>
  Promise.all(ENTRY_ROUTES.map((route) => entryRefusal(env, { userId, hostId, route, now })));

async function fan(name: string, opts: { email?: string; dateOfBirth?: string | null } = {}) {
  const user = await makeUser({ name, ...opts });
  return { ...user, cookie: await signIn(user.email) };
}

function selfExclude(cookie: string, fields: Record<string, string>) {
  return postForm("/settings", { intent: "self-exclude", confirm: "on", ...fields }, { cookie });
}

const uniqueName = (first: string) => `${first} ${crypto.randomUUID().slice(0, 8).replace(/\d/g, "x")}`;

describe("self-exclusion", () => {
  it("refuses every way of entering for the period, says until when, and ends on its date", async () => {
    const host = await makeUser();
    const f = await fan(uniqueName("Aisha"));
    expect(await refusalOf(f.id, host.id)).toEqual([null, null, null, null]);

    const res = await selfExclude(f.cookie, { period: "6_months", fullName: "Aisha Rahman" });
    expect(res.status).toBe(200);
    const html = await decodedHtml(res);
    expect(html).toMatch(/You are excluded from prize draws until [A-Z][a-z]{2} \d{1,2}, \d{4}\./);

    for (const refusal of await refusalOf(f.id, host.id)) {
      expect(refusal).toEqual({
        code: "self_excluded",
        message: "You have excluded yourself from prize draws. You cannot enter until your self-exclusion ends.",
        link: { href: "/settings/responsible-play", label: "Responsible play" },
      });
    }
    // Settings shows it.
    const page = await decodedHtml(await get("/settings/responsible-play", { cookie: f.cookie }));
    expect(page).toContain("You are excluded from prize draws until");
    // Six months and a day later the fan may enter again.
    expect(await refusalOf(f.id, host.id, new Date(Date.now() + 186 * 86_400_000))).toEqual([null, null, null, null]);
    expect((await refusalOf(f.id, host.id, new Date(Date.now() + 150 * 86_400_000)))[0]).toMatchObject({
      code: "self_excluded",
    });
  });

  it("cannot be shortened: a shorter second request is refused and the end stays; a longer one extends it", async () => {
    const host = await makeUser();
    const f = await fan(uniqueName("Ben"));
    const until = async (res: Response) => /until ([A-Z][a-z]{2} \d{1,2}, \d{4})/.exec(await decodedHtml(res))?.[1];
    const first = await selfExclude(f.cookie, { period: "1_year", fullName: "Ben Ong" });
    expect(first.status).toBe(200);
    const yearEnd = await until(first);
    expect(yearEnd).toMatch(/\d{4}$/);

    const shorter = await selfExclude(f.cookie, { period: "6_months", fullName: "Ben Ong" });
    expect(shorter.status).toBe(409);
    const shorterText = await decodedHtml(shorter);
    expect(shorterText).toContain(`You are already excluded until ${yearEnd}.`);
    expect(shorterText).toContain("A self-exclusion can be extended but never shortened.");
    expect(await until(await get("/settings/responsible-play", { cookie: f.cookie }))).toBe(yearEnd);
    expect(await refusalOf(f.id, host.id, new Date(Date.now() + 300 * 86_400_000))).not.toContain(null);

    const longer = await selfExclude(f.cookie, { period: "5_years", fullName: "Ben Ong" });
    expect(longer.status).toBe(200);
    const fiveYearEnd = await until(longer);
    expect(Number(fiveYearEnd?.slice(-4))).toBe(Number(yearEnd?.slice(-4)) + 4);
    expect(await refusalOf(f.id, host.id, new Date(Date.now() + 4 * 365 * 86_400_000))).not.toContain(null);
  });

  it("survives deleting the account: a new account with the same e-mail is refused", async () => {
    const host = await makeUser();
    const email = uniqueEmail("carla");
    const f = await fan(uniqueName("Carla"), { email });
    expect((await selfExclude(f.cookie, { period: "1_year", fullName: "Carla Diaz" })).status).toBe(200);
    const [{ n: rowsBefore }] = await db().select({ n: count() }).from(selfExclusions);

    const deleted = await postForm(
      "/settings",
      { intent: "delete", confirmation: "DELETE", currentPassword: PASSWORD },
      { cookie: f.cookie },
    );
    expect(deleted.status).toBe(302);
    const [{ n: rowsAfter }] = await db().select({ n: count() }).from(selfExclusions);
    expect(rowsAfter).toBe(rowsBefore);
    // The deleted account keeps no date of birth.
    const [old] = await db().select().from(users).where(eq(users.id, f.id));
    expect(old!.dateOfBirth).toBeNull();

    // Signing up again with the same address (a "+tag" or capitals make no difference).
    const again = await postForm(
      "/signup",
      signupFields({ email: email.replace("@", "+draws@").toUpperCase(), name: "C. D." }),
    );
    expect(again.status).toBe(302);
    const reborn = await findUserByEmail(db(), email.replace("@", "+draws@"));
    expect(reborn).not.toBeNull();
    for (const refusal of await refusalOf(reborn!.id, host.id))
      expect(refusal).toMatchObject({ code: "self_excluded" });
  });

  it("finds the person again by name and date of birth under another e-mail, whatever the accents and spacing", async () => {
    const host = await makeUser();
    const surname = crypto.randomUUID().slice(0, 6).replace(/\d/g, "q");
    const f = await fan(`Jose ${surname}`, { dateOfBirth: "1988-03-04" });
    expect((await selfExclude(f.cookie, { period: "5_years", fullName: `José  O'Brien-${surname}` })).status).toBe(200);
    await postForm(
      "/settings",
      { intent: "delete", confirmation: "DELETE", currentPassword: PASSWORD },
      { cookie: f.cookie },
    );

    // The account's own name with the date of birth, and the full name typed in the form, both find the person.
    const byAccountName = await makeUser({ name: `JOSE ${surname.toUpperCase()}`, dateOfBirth: "1988-03-04" });
    const byTypedName = await makeUser({ name: `jose o brien ${surname}`, dateOfBirth: "1988-03-04" });
    const otherBirthday = await makeUser({ name: `Jose ${surname}`, dateOfBirth: "1988-03-05" });
    expect((await refusalOf(byAccountName.id, host.id))[1]).toMatchObject({ code: "self_excluded" });
    expect((await refusalOf(byTypedName.id, host.id))[2]).toMatchObject({ code: "self_excluded" });
    expect(await refusalOf(otherBirthday.id, host.id)).toEqual([null, null, null, null]);

    // A re-registered account without a date of birth is asked for one, and once it is given, is excluded.
    const later = await fan(`Jose ${surname}`, { dateOfBirth: null });
    expect((await refusalOf(later.id, host.id))[0]).toMatchObject({ code: "dob_required" });
    const dob = await postForm(
      "/settings",
      { intent: "date-of-birth", dateOfBirth: "1988-03-04" },
      { cookie: later.cookie },
    );
    expect(dob.status).toBe(200);
    expect((await refusalOf(later.id, host.id))[0]).toMatchObject({ code: "self_excluded" });
  });

  it("keeps nothing that names the person: only keyed hashes and the end", async () => {
    const f = await fan(uniqueName("Dana"), { dateOfBirth: ADULT_DATE_OF_BIRTH });
    await selfExclude(f.cookie, { period: "6_months", fullName: "Dana Lim" });
    const rows = await db().select().from(selfExclusions);
    for (const row of rows) {
      expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(f.email);
      expect(JSON.stringify(row)).not.toContain(f.id);
    }
  });

  it("refuses a bad form with its message and excludes nobody; asks for a date of birth first", async () => {
    const host = await makeUser();
    const f = await fan(uniqueName("Eli"));
    const cases: [Record<string, string>, string][] = [
      [{ period: "2_weeks", fullName: "Eli Tan" }, "Please choose how long: 6 months, 1 year or 5 years."],
      [{ period: "1_year", fullName: "  " }, "Please enter your full name."],
    ];
    for (const [fields, message] of cases) {
      const res = await selfExclude(f.cookie, fields);
      expect(res.status).toBe(400);
      expect(await decodedHtml(res)).toContain(message);
    }
    const unconfirmed = await postForm(
      "/settings",
      { intent: "self-exclude", period: "1_year", fullName: "Eli Tan" },
      { cookie: f.cookie },
    );
    expect(unconfirmed.status).toBe(400);
    expect(await decodedHtml(unconfirmed)).toContain("Please tick the box to confirm that you cannot undo this early.");
    expect(await refusalOf(f.id, host.id)).toEqual([null, null, null, null]);

    const noDob = await fan(uniqueName("Fay"), { dateOfBirth: null });
    const res = await selfExclude(noDob.cookie, { period: "1_year", fullName: "Fay Goh" });
    expect(res.status).toBe(409);
    expect(await decodedHtml(res)).toContain("Please add your date of birth first");
  });
});
