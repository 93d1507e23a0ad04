import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WINNER_PUBLICITY_TEXT } from "~/domain/prize-claims";
import { entrySpend, guessWinParticipants, prizeEntries } from "~/db/schema";
import { monthEntrySpend } from "~/db/queries/spend-limits.server";
import { changeSpendLimit, effectiveSpendLimit, NO_SPEND_LIMIT, spendMonth } from "~/domain/spend-limits";
import { decideEntry, entryOutlook, setSpendLimit } from "~/lib/entry-gate.server";
import { createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { contributionKey } from "~/lib/payments/shared/payment-records";
import { db, get, ORIGIN, pageText, postForm } from "./helpers";
import {
  buy,
  checkoutRow,
  newFan,
  newGame,
  newHost,
  orderOf,
  spendRows,
  startGuess,
  startPurchase,
} from "./support/entry-gate";
import { checkoutSessionEvent, deliverWebhook } from "./support/webhooks";

// A fan's monthly limit on spend that earns entries (docs/product.md#spend-limits, decision 520): past it a paid
// guess is refused and a purchase still goes through with no entry, said before paying; lowered at once, raised
// after 24 hours; counted per UTC month, once per payment.

let offline: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  offline = vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("network disabled in tests"));
});
afterEach(() => offline.mockRestore());

const HOUR = 60 * 60 * 1000;

describe("a fan over their monthly limit", () => {
  /** A fan with a USD 30 limit who has spent USD 20 of it on a purchase that earned its entry. */
  async function fanNearTheLimit() {
    const fan = await newFan();
    const { host, productId } = await newHost(2_000);
    await setSpendLimit(env, fan.id, 3_000, new Date());
    const first = await buy(fan, productId);
    expect(first.order.entryNumber).not.toBeNull();
    expect(await monthEntrySpend(db(), fan.id, spendMonth(new Date()))).toEqual({ total: 2_000, credit: 0 });
    return { fan, host, productId };
  }

  it("is told before paying that a purchase earns no entry (/payment, and /buy-now stops once)", async () => {
    const { fan, productId } = await fanNearTheLimit();
    const review = await pageText(
      await get(`/payment?product=${productId}&size=One+Size&qty=1`, { cookie: fan.cookie }),
    );
    expect(review).toContain("This payment would take you past your monthly spending limit on entries.");
    expect(review).toContain("this purchase will earn no entry in the prize pool");

    const stopped = await postForm(
      `/buy-now/${productId}`,
      { size: "One Size", quantity: "1" },
      { cookie: fan.cookie },
    );
    expect(stopped.status).toBe(409);
    const stoppedText = await pageText(stopped);
    expect(stoppedText).toContain("past your monthly spending limit");
    expect(stoppedText).toContain("Press Buy Now again to buy it without an entry.");
    const consented = await postForm(
      `/buy-now/${productId}`,
      { size: "One Size", quantity: "1", noEntryConsent: "1" },
      { cookie: fan.cookie },
    );
    expect([302, 303]).toContain(consented.status);
  }, 60_000);

  it("has a purchase past the limit delivered with no entry, and not counted", async () => {
    const { fan, productId } = await fanNearTheLimit();
    const second = await buy(fan, productId);
    expect(second.order.status).toBe("paid");
    expect(second.order.entryNumber).toBeNull();
    const entries = await db()
      .select()
      .from(prizeEntries)
      .where(eq(prizeEntries.sourceKey, contributionKey(second.row.id)));
    expect(entries).toHaveLength(0);
    expect((await spendRows(second.row.id))[0]).toMatchObject({ earnsEntry: false, refusal: "spend_limit" });
    expect((await monthEntrySpend(db(), fan.id, spendMonth(new Date()))).total).toBe(2_000);
    const success = await pageText(await get(`/payment/success?session_id=${second.row.id}`, { cookie: fan.cookie }));
    expect(success).toContain("This payment earned no entry in the prize pool.");
  }, 60_000);

  it("is refused a paid guess at checkout, with the reason", async () => {
    const { fan, host } = await fanNearTheLimit();
    const game = await newGame(host.id, 1_500);
    const guessPage = await pageText(await get(`/payment?game=${game.id}&answer=Blue`, { cookie: fan.cookie }));
    expect(guessPage).toContain("You cannot pay for a guess now.");
    const guess = await startGuess(fan, game.id);
    expect(guess).toMatchObject({ ok: false, status: 403 });
    expect(guess.ok ? "" : guess.message).toBe(
      "This payment would take you past your monthly spending limit on entries.",
    );
  }, 60_000);

  it("has a paid guess that slipped past checkout refunded at fulfilment, once", async () => {
    const fan = await newFan();
    const { host, productId } = await newHost(2_000);
    const game = await newGame(host.id, 1_500);
    await setSpendLimit(env, fan.id, 3_000, new Date());
    const started = await startGuess(fan, game.id);
    if (!started.ok) throw new Error(started.message);
    // Meanwhile a purchase takes most of the month's limit.
    await buy(fan, productId);
    const row = await checkoutRow(started.sessionId);
    const event = checkoutSessionEvent(row);
    expect((await deliverWebhook(event)).status).toBe(200);
    expect((await deliverWebhook(checkoutSessionEvent(row))).status).toBe(200);
    const guesses = await db().select().from(guessWinParticipants).where(eq(guessWinParticipants.paymentKey, row.id));
    expect(guesses).toHaveLength(0);
    const after = await checkoutRow(row.id);
    expect(after.refundedCents).toBe(1_500);
    const page = await pageText(await get(`/payment/success?session_id=${row.id}`, { cookie: fan.cookie }));
    expect(page).toContain(
      "This payment would take you past your monthly spending limit on entries. Your guess could not count, so your entry fee has been refunded in full.",
    );
  });
});

describe("a limit of zero", () => {
  it("lets nothing earn an entry: purchases go through with none, guesses are refused", async () => {
    const fan = await newFan();
    const { host, productId } = await newHost(2_000);
    const saved = await postForm("/spending-limit", { limit: "0" }, { cookie: fan.cookie });
    expect(saved.status).toBe(200);
    expect(await pageText(saved)).toContain("Your monthly spending limit is saved and applies now.");
    const page = await pageText(await get("/spending-limit", { cookie: fan.cookie }));
    expect(page).toContain("USD 0.00 a month");
    const { order } = await buy(fan, productId);
    expect(order.entryNumber).toBeNull();
    const guess = await startGuess(fan, (await newGame(host.id)).id);
    expect(guess).toMatchObject({ ok: false, status: 403 });
  });
});

describe("the cart", () => {
  it("says per host, before paying, which part earns no entry", async () => {
    const fan = await newFan();
    const { productId } = await newHost(2_000);
    const added = await postForm(
      "/cart",
      { intent: "add", productId, size: "One Size", quantity: "1" },
      { cookie: fan.cookie },
    );
    expect(added.status).toBeLessThan(400);
    const before = await pageText(await get("/cart", { cookie: fan.cookie }));
    expect(before).toContain("This purchase earns an entry in the prize pool.");
    // Said before entry: a winner's surname and region are published unless they object (decision 540).
    expect(before).toContain(WINNER_PUBLICITY_TEXT);
    await setSpendLimit(env, fan.id, 1_000, new Date());
    const after = await pageText(await get("/cart", { cookie: fan.cookie }));
    expect(after).toContain(
      "This payment would take you past your monthly spending limit on entries. You can still buy it, but this purchase will earn no entry in the prize pool.",
    );
  }, 60_000);
});

describe("changing the limit", () => {
  it("lowers at once, and a raise waits 24 hours (shown while it waits)", async () => {
    const fan = await newFan();
    const { host } = await newHost();
    const now = new Date();
    const outlook = (at: Date) =>
      entryOutlook(env, { userId: fan.id, hostId: host.id, route: "entry_purchase", amountUsdCents: 5_000, now: at });

    await setSpendLimit(env, fan.id, 10_000, now);
    expect(await outlook(now)).toEqual({ expected: true });
    expect((await setSpendLimit(env, fan.id, 1_000, now)).change).toBe("lowered");
    expect(await outlook(now)).toMatchObject({ expected: false, code: "spend_limit" });

    expect((await setSpendLimit(env, fan.id, 10_000, now)).change).toBe("raised");
    expect(await outlook(now)).toMatchObject({ expected: false, code: "spend_limit" });
    expect(await outlook(new Date(now.getTime() + 23 * HOUR))).toMatchObject({ expected: false });
    expect(await outlook(new Date(now.getTime() + 24 * HOUR))).toEqual({ expected: true });

    const page = await pageText(await get("/spending-limit", { cookie: fan.cookie }));
    expect(page).toContain("Waiting to apply");
    expect(page).toContain("USD 100.00 a month");

    // Asking through the page: a raise is told it waits.
    const raised = await postForm("/spending-limit", { limit: "200" }, { cookie: fan.cookie });
    expect(await pageText(raised)).toContain("Your higher limit takes effect in 24 hours.");
    // Bad input changes nothing.
    const bad = await postForm("/spending-limit", { limit: "-5" }, { cookie: fan.cookie });
    expect(bad.status).toBe(400);
    expect(await outlook(now)).toMatchObject({ expected: false, code: "spend_limit" });
  });

  it("follows the rule: a first limit and a lowering apply now, removing one waits like a raise", () => {
    const now = new Date("2026-11-26T10:00:00Z");
    const first = changeSpendLimit(NO_SPEND_LIMIT, 5_000, now);
    expect(effectiveSpendLimit(first, now)).toBe(5_000);
    const removed = changeSpendLimit(first, null, now);
    expect(effectiveSpendLimit(removed, now)).toBe(5_000);
    expect(effectiveSpendLimit(removed, new Date(now.getTime() + 24 * HOUR))).toBeNull();
    const lowered = changeSpendLimit(removed, 2_000, now);
    expect(lowered).toEqual({ monthlyUsdCents: 2_000, pendingUsdCents: null, pendingFrom: null });
  });

  it("is asked at sign-up", async () => {
    const page = await pageText(await get("/signup"));
    expect(page).toContain("Monthly spending limit on entries, USD (optional)");
  });
});

describe("the month", () => {
  it("is the calendar month in UTC", async () => {
    expect(spendMonth(new Date("2026-12-01T00:30:00+01:00"))).toBe("2026-11");
    expect(spendMonth(new Date("2026-11-30T23:59:59Z"))).toBe("2026-11");
    expect(spendMonth(new Date("2026-12-01T00:00:00Z"))).toBe("2026-12");

    const fan = await newFan();
    const { host } = await newHost();
    await setSpendLimit(env, fan.id, 3_000, new Date("2026-11-01T00:00:00Z"));
    const decide = (checkoutId: string, at: string) =>
      decideEntry(env, {
        checkoutId,
        userId: fan.id,
        hostId: host.id,
        route: "entry_purchase",
        amountUsdCents: 2_000,
        funding: async () => "debit",
        now: new Date(at),
      });
    const tag = crypto.randomUUID().slice(0, 8);
    expect((await decide(`m1-${tag}`, "2026-11-30T23:30:00Z")).earnsEntry).toBe(true);
    expect((await decide(`m2-${tag}`, "2026-11-30T23:59:00Z")).earnsEntry).toBe(false);
    // One hour later in UTC is December: the limit starts again.
    expect((await decide(`m3-${tag}`, "2026-12-01T00:10:00Z")).earnsEntry).toBe(true);
  });
});

describe("spend counted once", () => {
  it("when the webhook arrives twice and races the success page", async () => {
    const fan = await newFan();
    const { productId } = await newHost(2_000);
    await setSpendLimit(env, fan.id, 3_000, new Date());
    const row = await startPurchase(fan, productId);
    const responses = await Promise.all([
      deliverWebhook(checkoutSessionEvent(row)),
      deliverWebhook(checkoutSessionEvent(row)),
      get(`/payment/success?session_id=${row.id}`, { cookie: fan.cookie }),
    ]);
    for (const res of responses) expect(res.status).toBe(200);
    expect(await spendRows(row.id)).toHaveLength(1);
    expect((await orderOf(row.id)).entryNumber).not.toBeNull();
    expect((await monthEntrySpend(db(), fan.id, spendMonth(new Date()))).total).toBe(2_000);
    // A second purchase of the same amount would pass the limit: it earns no entry.
    const next = await buy(fan, productId);
    expect(next.order.entryNumber).toBeNull();
  });

  it("across two payments racing for the last of the limit: only one earns", async () => {
    const fan = await newFan();
    const { productId } = await newHost(2_000);
    await setSpendLimit(env, fan.id, 3_000, new Date());
    const [a, b] = [await startPurchase(fan, productId), await startPurchase(fan, productId)];
    await Promise.all([deliverWebhook(checkoutSessionEvent(a)), deliverWebhook(checkoutSessionEvent(b))]);
    const earned = [await orderOf(a.id), await orderOf(b.id)].filter((o) => o.entryNumber !== null);
    expect(earned).toHaveLength(1);
    const rows = await db().select().from(entrySpend).where(eq(entrySpend.userId, fan.id));
    expect(rows.filter((r) => r.earnsEntry)).toHaveLength(1);
  });
});

describe("checkout session creation", () => {
  it("marks a purchase that earns no entry on the provider's page too", async () => {
    const fan = await newFan();
    const { productId } = await newHost(2_000);
    await setSpendLimit(env, fan.id, 0, new Date());
    const refused = await createProductCheckout(env, {
      user: fan.session,
      productId,
      sizeName: "One Size",
      quantity: 1,
      origin: ORIGIN,
      noEntryConsent: false,
    });
    expect(refused).toMatchObject({ ok: false, status: 409 });
    const row = await startPurchase(fan, productId);
    expect(row.metadata.no_entry_hosts).toBeTruthy();
  });
});
