import { eq } from "drizzle-orm";
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { guessWinParticipants, platformSettings, userProfiles } from "~/db/schema";
import { EXCLUDED_PLACES_SETTING_KEY, ENTRY_REFUSAL_MESSAGES } from "~/domain/eligibility";
import { excludeSelf } from "~/lib/self-exclusion.server";
import { ADULT_DATE_OF_BIRTH, db, get, makeSignedInUser, pageText, sessionUserOf } from "./helpers";
import { buy, checkoutRow, newGame, newHost, spendRows, startGuess } from "./support/entry-gate";
import { checkoutSessionEvent, deliverWebhook } from "./support/webhooks";

// Eligibility on the payment path (decision 520): an under-18 account, a fan in an excluded place and a
// self-excluded fan are refused a paid guess at checkout, and their purchases go through with no entry.

let offline: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  offline = vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("network disabled in tests"));
});
afterEach(() => offline.mockRestore());

async function fanOf(opts: { dateOfBirth?: string } = {}) {
  const name = "Gate Fan";
  const user = await makeSignedInUser({ name, ...(opts.dateOfBirth ? { dateOfBirth: opts.dateOfBirth } : {}) });
  return { ...user, session: sessionUserOf(user, name) };
}

async function setExcludedPlaces(codes: string[]) {
  await db()
    .insert(platformSettings)
    .values({ settingKey: EXCLUDED_PLACES_SETTING_KEY, settingValue: codes })
    .onConflictDoUpdate({ target: platformSettings.settingKey, set: { settingValue: codes } });
}

/** The fan is refused a paid guess (page and checkout), and a purchase is delivered with no entry. */
async function expectRefusedOnThePaymentPath(fan: Awaited<ReturnType<typeof fanOf>>, code: string, message: string) {
  const { host, productId } = await newHost(2_000);
  const game = await newGame(host.id, 500);
  const page = await pageText(await get(`/payment?game=${game.id}&answer=Blue`, { cookie: fan.cookie }));
  expect(page).toContain(message);
  expect(page).toContain("You cannot pay for a guess now.");
  expect(await startGuess(fan, game.id)).toEqual({ ok: false, status: 403, message });

  const review = await pageText(await get(`/payment?product=${productId}&size=One+Size&qty=1`, { cookie: fan.cookie }));
  expect(review).toContain("this purchase will earn no entry in the prize pool");
  const { row, order } = await buy(fan, productId);
  expect(order.status).toBe("paid");
  expect(order.entryNumber).toBeNull();
  expect((await spendRows(row.id))[0]).toMatchObject({ earnsEntry: false, refusal: code });
}

describe("on the payment path", () => {
  it("an under-18 account is refused a paid guess and earns no entry from a purchase", async () => {
    const fan = await fanOf({ dateOfBirth: "2012-05-01" });
    await expectRefusedOnThePaymentPath(fan, "under_age", ENTRY_REFUSAL_MESSAGES.under_age);
  }, 60_000);

  it("a fan in an excluded region is refused a paid guess and earns no entry from a purchase", async () => {
    const fan = await fanOf();
    await db().update(userProfiles).set({ country: "US", region: "US-NY" }).where(eq(userProfiles.userId, fan.id));
    try {
      await setExcludedPlaces(["US-NY"]);
      await expectRefusedOnThePaymentPath(fan, "excluded_place", ENTRY_REFUSAL_MESSAGES.excluded_place);
    } finally {
      await setExcludedPlaces([]);
    }
  }, 60_000);

  it("a self-excluded fan is refused a paid guess and earns no entry; a guess paid after excluding is refunded", async () => {
    const fan = await fanOf();
    const { host } = await newHost();
    const game = await newGame(host.id, 500);
    // A guess checkout started before the exclusion, paid after it.
    const started = await startGuess(fan, game.id);
    if (!started.ok) throw new Error(started.message);
    await excludeSelf(
      env,
      { userId: fan.id, email: fan.email, names: ["Gate Fan"], dateOfBirth: ADULT_DATE_OF_BIRTH },
      "6_months",
      new Date(),
    );
    await expectRefusedOnThePaymentPath(fan, "self_excluded", ENTRY_REFUSAL_MESSAGES.self_excluded);

    const row = await checkoutRow(started.sessionId);
    expect((await deliverWebhook(checkoutSessionEvent(row))).status).toBe(200);
    const guesses = await db().select().from(guessWinParticipants).where(eq(guessWinParticipants.paymentKey, row.id));
    expect(guesses).toHaveLength(0);
    expect((await checkoutRow(row.id)).refundedCents).toBe(500);
  }, 60_000);
});
