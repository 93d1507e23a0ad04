import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { platformSettings } from "~/db/schema";
import { EXCLUDED_PLACES_SETTING_KEY } from "~/domain/eligibility";
import { POOL_CAP_SETTING_KEY } from "~/domain/pool-cap";
import { db, decodedHtml, get, makeSignedInUser, pageText } from "./helpers";

/** A page's visible text, with the space a tag left before punctuation removed ("Kingdom ." reads "Kingdom."). */
async function visibleText(res: Response): Promise<string> {
  return (await pageText(res)).replace(/ ([.,;:])/g, "$1");
}

// The official rules and the public Responsible play page (issue 29 item 8): every statement the issue asks for, in
// the words a visitor reads, with the operator's settings (excluded places, the cap, the postal address) and the
// support services as links.

const POSTAL = "Tribe Prize Draws, PO Box 4021, Bristol BS1 9XY, United Kingdom";

async function setSetting(key: string, value: unknown) {
  await db()
    .insert(platformSettings)
    .values({ settingKey: key, settingValue: value })
    .onConflictDoUpdate({ target: platformSettings.settingKey, set: { settingValue: value } });
}

afterEach(async () => {
  for (const key of [EXCLUDED_PLACES_SETTING_KEY, POOL_CAP_SETTING_KEY])
    await db().delete(platformSettings).where(eq(platformSettings.settingKey, key));
});

/** The statements both pages make (each exactly as shown). */
const SHARED = [
  // the free route and postal entries
  '"Enter for free" button',
  "confirmed adult account at least a day old may make one free entry per pool per day",
  `Send a postcard with your name, your account's e-mail address and the creator's name to ${POSTAL}.`,
  "Each postcard is one entry, with the same chance as a paid entry, in that creator's pool open on the day we receive it (a pool closes at its end or earlier when the target is reached).",
  // eligibility
  "Entries and paid guesses are not offered in: Malaysia (MY), Florida, United States (US-FL).",
  // odds and the cap
  '"your entries: N of M"',
  "No account may hold more than 10% of a pool's entries, counted when an entry is earned and rounded down, or 20 entries if that is more: in a pool of 1,000 entries that is 100.",
  // claiming and winners
  "within 30 days of the winner notice",
  "age and identity check",
  "redrawn once, from a new, recorded commitment",
  "Name withheld at the winner's request",
  // limits and self-exclusion
  "£250 a month",
  "6 months, 1 year or 5 years",
  "cannot be undone early",
  "survives deleting your account",
  // help
  "GamCare (UK)",
  "BeGambleAware (UK)",
  "National Council on Problem Gambling (US)",
];

const SUPPORT_LINKS = [
  'href="https://www.gamcare.org.uk/"',
  'href="https://www.begambleaware.org/"',
  'href="https://www.ncpgambling.org/"',
];

describe("/responsible-play", () => {
  it("states the free route, eligibility, odds, the cap, claiming, limits, self-exclusion and the log, with help", async () => {
    await setSetting(EXCLUDED_PLACES_SETTING_KEY, ["MY", "US-FL"]);
    const res = await get("/responsible-play");
    expect(res.status).toBe(200);
    const html = await decodedHtml(res.clone());
    const text = await visibleText(res);
    for (const statement of [
      ...SHARED,
      "You must be 18 or older.",
      "Lowering it takes effect at once; raising it takes effect after 24 hours",
      "including zero",
      "Credit-card payments that earn entries are capped at £250 a month.",
      "Past the cap a purchase still goes through and adds to the pool, but earns no entry",
    ]) {
      expect(text).toContain(statement);
    }
    for (const link of [
      ...SUPPORT_LINKS,
      'href="/transparency"',
      'href="/winners"',
      'href="/settings/responsible-play"',
      'href="/official-rules"',
    ]) {
      expect(html).toContain(link);
    }
    // Links only: nothing on the page is loaded from another site.
    expect(html).not.toMatch(/<(script|img|iframe|link)[^>]+(src|href)="https?:\/\//);
  });

  it("follows the platform owner's cap and an empty excluded-places list", async () => {
    await setSetting(POOL_CAP_SETTING_KEY, { percent: 5, floor: 30 });
    const text = await visibleText(await get("/responsible-play"));
    expect(text).toContain(
      "No account may hold more than 5% of a pool's entries, counted when an entry is earned and rounded down, or 30 entries if that is more: in a pool of 1,000 entries that is 50.",
    );
    expect(text).toContain(
      "Entries and paid guesses are currently offered in every country and region where such draws are lawful.",
    );
  });

  it("is linked from the footer, the official rules and the fan's settings", async () => {
    const rules = await decodedHtml(await get("/official-rules"));
    expect(rules).toMatch(/<nav aria-label="Footer">.*href="\/responsible-play"[^>]*>Responsible play</s);
    expect(rules).toMatch(/<article[\s\S]*href="\/responsible-play"[\s\S]*<\/article>/);
    const fan = await makeSignedInUser({ name: "Rules Reader" });
    const settings = await decodedHtml(await get("/settings/responsible-play", { cookie: fan.cookie }));
    expect(settings).toMatch(/href="\/responsible-play"[^>]*>Responsible play</);
  });
});

describe("/official-rules", () => {
  it("states every rule of issue 29 and keeps the draw's rules", async () => {
    await setSetting(EXCLUDED_PLACES_SETTING_KEY, ["MY", "US-FL"]);
    const res = await get("/official-rules");
    expect(res.status).toBe(200);
    const html = await decodedHtml(res.clone());
    const text = await visibleText(res);
    for (const statement of [
      ...SHARED,
      "You must be at least 18 years old",
      "No purchase or payment is necessary to enter any prize pool.",
      "A free entry is a row of the same entry list as a paid one and has exactly the same chance of winning.",
      "Platform staff may not enter any pool.",
      "A creator's mini prizes are fixed once anyone has entered the pool: from the first entry on they cannot be added, changed or removed.",
      "lower it at once and raise it after 24 hours",
      "Every commitment, void and redraw is appended to a public log",
      "BigInt(block hash) mod (number of valid entries)",
    ]) {
      expect(text).toContain(statement);
    }
    for (const link of [
      ...SUPPORT_LINKS,
      'href="/transparency"',
      'href="/winners"',
      'href="/settings/responsible-play"',
    ])
      expect(html).toContain(link);
  });
});
