import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutSessions, guessWinParticipants, guessWinGames, products, productSizes } from "~/db/schema";
import { CHECKOUT_MESSAGES, GUESS_MESSAGES } from "~/lib/payments/checkout/quote.server";
import { db, get, makeUser, postForm, signIn } from "./helpers";

// No self-dealing: a host cannot buy their own products, nor pay for or take a free guess on their own game (they
// know its answer). Each is refused with a clear message and creates nothing. (A host deposit adding money but no
// entry is covered in tests/webhook.test.ts and tests/pools.test.ts.)

async function hostWithThings() {
  const host = await makeUser({ name: "Self Host" });
  const cookie = await signIn(host.email);
  const [product] = await db()
    .insert(products)
    .values({
      hostId: host.id,
      name: "Own Candle",
      category: "physical",
      status: "active",
      priceMinCents: 1500,
      priceMaxCents: 1500,
    })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: product!.id, name: "One", priceCents: 1500, availableUnits: 5, position: 0 });
  const [game] = await db()
    .insert(guessWinGames)
    .values({
      hostId: host.id,
      question: "How many wicks?",
      options: ["1", "2"],
      correctAnswer: "2",
      entryFeeCents: 300,
    })
    .returning();
  return { host, cookie, productId: product!.id, gameId: game!.id };
}

async function checkoutsOf(userId: string) {
  return db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, userId));
}

const unescape = (html: string) => html.replace(/&#x27;/g, "'").replace(/<!-- -->/g, "");

describe("a host dealing with themselves", () => {
  it("cannot buy their own product: a clear message, no checkout", async () => {
    const { host, cookie, productId } = await hostWithThings();
    const res = await postForm(`/buy-now/${productId}`, { size: "One", quantity: "1" }, { cookie });
    expect(res.status).toBe(403);
    expect(unescape(await res.text())).toContain(CHECKOUT_MESSAGES.ownProduct);
    expect(await checkoutsOf(host.id)).toHaveLength(0);
  });

  it("cannot pay for a guess on their own game: the payment page refuses it, no checkout", async () => {
    const { host, cookie, gameId } = await hostWithThings();
    const res = await get(`/payment?game=${gameId}&answer=2`, { cookie });
    expect(res.status).toBe(403);
    expect(unescape(await res.text())).toContain(GUESS_MESSAGES.ownGame);
    const post = await postForm(`/payment?game=${gameId}&answer=2`, { amount: "3" }, { cookie });
    expect(post.status).toBe(403);
    expect(unescape(await post.text())).toContain(GUESS_MESSAGES.ownGame);
    expect(await checkoutsOf(host.id)).toHaveLength(0);
  });

  it("cannot take a free guess on their own game: a clear message, no guess stored", async () => {
    const { host, cookie, gameId } = await hostWithThings();
    const res = await postForm("/guess-win", { intent: "free-guess", gameId, answer: "2" }, { cookie });
    expect(res.status).toBe(403);
    expect(unescape(await res.text())).toContain(GUESS_MESSAGES.ownGame);
    expect(await db().select().from(guessWinParticipants).where(eq(guessWinParticipants.userId, host.id))).toHaveLength(
      0,
    );
  });
});
