import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { guessWinParticipants } from "~/db/schema";
import { monthEntrySpend } from "~/db/queries/spend-limits.server";
import { creditCardCapUsdCents, spendMonth } from "~/domain/spend-limits";
import { convertCents } from "~/domain/currency";
import { db, get, ORIGIN, pageText } from "./helpers";
import {
  buy,
  checkoutRow,
  newFan,
  newGame,
  newHost,
  orderOf,
  payOnLocalPage,
  spendRows,
  startGuess,
  startPurchase,
} from "./support/entry-gate";

// Card payments that earn entries are capped at £250 a month for credit cards (decision 520): the card's funding
// type is read from the charge (the local checkout page lets the buyer choose it; a Stripe event carries it when
// its payment intent is expanded). Past the cap a purchase earns no entry and a paid guess is refunded.

let offline: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  offline = vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("network disabled in tests"));
});
afterEach(() => offline.mockRestore());

/** A Stripe checkout session's payment intent, expanded with its latest charge, as Stripe sends it when asked. */
function expandedIntent(funding: string, type = "card") {
  const id = `pi_test_${crypto.randomUUID().replace(/-/g, "")}`;
  return {
    id,
    object: "payment_intent",
    latest_charge: {
      id: `ch_test_${crypto.randomUUID().replace(/-/g, "")}`,
      object: "charge",
      payment_method_details: { type, ...(type === "card" ? { card: { brand: "visa", funding } } : {}) },
    },
  };
}

describe("the credit-card cap", () => {
  it("is £250 converted with the rate table", () => {
    expect(creditCardCapUsdCents()).toBe(convertCents(25_000, "GBP", "USD"));
    expect(creditCardCapUsdCents()).toBe(31_750);
  });

  it("past it a credit card earns no entry, while a debit card does not hit it", async () => {
    const fan = await newFan();
    const { productId } = await newHost(20_000);

    // The local checkout page offers the card type.
    const first = await startPurchase(fan, productId);
    const checkoutPage = await pageText(await SELF.fetch(`${ORIGIN}/api/local-checkout/${first.id}`));
    expect(checkoutPage).toContain("Credit card");
    expect(checkoutPage).toContain("Debit card");

    // USD 200 by credit card: within £250 (USD 317.50).
    await payOnLocalPage(first.id, "credit");
    expect((await orderOf(first.id)).entryNumber).not.toBeNull();
    expect((await spendRows(first.id))[0]).toMatchObject({ funding: "credit", earnsEntry: true });

    // Another USD 200 by credit card passes the cap: delivered, no entry.
    const second = await startPurchase(fan, productId);
    await payOnLocalPage(second.id, "credit");
    const capped = await orderOf(second.id);
    expect(capped.status).toBe("paid");
    expect(capped.entryNumber).toBeNull();
    expect((await spendRows(second.id))[0]).toMatchObject({ earnsEntry: false, refusal: "card_cap" });
    const page = await pageText(await get(`/payment/success?session_id=${second.id}`, { cookie: fan.cookie }));
    expect(page).toContain("Credit-card spend on entries is capped at £250 a month");
    expect(page).toContain("This payment earned no entry in the prize pool.");

    // The same by debit card: not capped.
    for (let i = 0; i < 2; i++) {
      const debit = await startPurchase(fan, productId);
      await payOnLocalPage(debit.id, "debit");
      expect((await orderOf(debit.id)).entryNumber).not.toBeNull();
    }
    expect(await monthEntrySpend(db(), fan.id, spendMonth(new Date()))).toEqual({ total: 60_000, credit: 20_000 });
  });

  it("refunds a paid guess by credit card past it", async () => {
    const fan = await newFan();
    const { host, productId } = await newHost(30_000);
    const game = await newGame(host.id, 2_000);
    const purchase = await startPurchase(fan, productId);
    await payOnLocalPage(purchase.id, "credit");
    const guess = await startGuess(fan, game.id);
    if (!guess.ok) throw new Error(guess.message);
    await payOnLocalPage(guess.sessionId, "credit");
    const guesses = await db()
      .select()
      .from(guessWinParticipants)
      .where(eq(guessWinParticipants.paymentKey, guess.sessionId));
    expect(guesses).toHaveLength(0);
    expect((await checkoutRow(guess.sessionId)).refundedCents).toBe(2_000);
  });

  it("checkout says that credit-card spend on entries is capped", async () => {
    const fan = await newFan();
    const { productId } = await newHost(2_000);
    const buyNow = await pageText(await get(`/buy-now/${productId}`, { cookie: fan.cookie }));
    expect(buyNow).toContain("Credit-card spend on entries is capped at £250 a month");
    const review = await pageText(
      await get(`/payment?product=${productId}&size=One+Size&qty=1`, { cookie: fan.cookie }),
    );
    expect(review).toContain("This purchase earns an entry in the prize pool.");
    expect(review).toContain("Credit-card spend on entries is capped at £250 a month");
  });
});

describe("a Stripe-signed event", () => {
  it("carries the funding type in its expanded payment intent", async () => {
    const fan = await newFan();
    const { productId } = await newHost(30_000);
    const credit = await buy(fan, productId, { overrides: { payment_intent: expandedIntent("credit") } });
    expect(credit.order.entryNumber).not.toBeNull();
    expect((await spendRows(credit.row.id))[0]).toMatchObject({ funding: "credit" });
    const paymentIntent = (await checkoutRow(credit.row.id)).paymentIntentId;
    expect(paymentIntent).toMatch(/^pi_test_/);

    const capped = await buy(fan, productId, { overrides: { payment_intent: expandedIntent("credit") } });
    expect(capped.order.entryNumber).toBeNull();
    const debit = await buy(fan, productId, { overrides: { payment_intent: expandedIntent("debit") } });
    expect(debit.order.entryNumber).not.toBeNull();
    expect((await spendRows(debit.row.id))[0]).toMatchObject({ funding: "debit", earnsEntry: true });
    // A payment by another method than a card is not capped.
    const bank = await buy(fan, productId, {
      overrides: { payment_intent: expandedIntent("", "customer_balance") },
    });
    expect(bank.order.entryNumber).not.toBeNull();
    expect((await spendRows(bank.row.id))[0]).toMatchObject({ funding: null });
  });
});
