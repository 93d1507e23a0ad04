import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  checkoutSessions,
  guessWinGames,
  guessWinParticipants,
  mailOutbox,
  poolContributionKeys,
  prizeEntries,
  prizePoolContributions,
  prizePools,
  refunds,
} from "~/db/schema";
import { insertFreeGuess } from "~/db/queries/games.server";
import { createGuessCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { GUESS_CHECKOUT_TTL_MS } from "~/domain/payments";
import { runPoolCron } from "~/lib/draw.server";
import { LATE_GUESS_REASON } from "~/lib/payments/fulfil/fulfil-guess.server";
import type { PoolLiveMessage } from "~/lib/pool-contract";
import {
  admitEndedGames,
  closePool,
  endExpiredGamesAndAdmit,
  ensureOpenPool,
  poolStub,
  reapplyReservations,
} from "~/lib/pools.server";
import { processStripeEvent } from "~/lib/payments/webhook/webhook.server";
import { excludeSelf } from "~/lib/self-exclusion.server";
import {
  db,
  envWithPoolsDown,
  get,
  makeSignedInUser,
  makeUser,
  ORIGIN,
  postForm,
  sessionUserOf,
  signIn,
} from "./helpers";
import { checkoutSessionEvent, deliverWebhook } from "./support/webhooks";

// Sealed guesses: while a game runs nothing says whether a guess was right (no entry, no page, API or live message);
// its correct guesses earn entries when it ends (the host ends it, its end date, or its pool round's close); a guess
// confirmed after its game ended earns nothing.

const token = crypto.randomUUID().slice(0, 8);
const CORRECT = `Lantern-${token}-Heron`;
const WRONG = `Lantern-${token}-Otter`;
const OTHER = `Lantern-${token}-Lynx`;

async function fan(name = "Sealed Fan") {
  const user = await makeSignedInUser({ name });
  return { ...user, session: sessionUserOf(user, name) };
}

const newHost = () => makeSignedInUser({ name: "Sealed Host" });

async function newGame(hostId: string, overrides: Partial<typeof guessWinGames.$inferInsert> = {}) {
  const [game] = await db()
    .insert(guessWinGames)
    .values({
      hostId,
      question: `Which bird is on the lantern ${crypto.randomUUID().slice(0, 6)}?`,
      options: [WRONG, CORRECT, OTHER],
      correctAnswer: CORRECT,
      entryFeeCents: 500,
      ...overrides,
    })
    .returning();
  return game!;
}

/** A paid guess through checkout and the signed webhook. */
/** A fan's guess checkout (started, not paid yet) and its row. */
async function startGuess(gameId: string, answer: string, who?: Awaited<ReturnType<typeof fan>>) {
  const f = who ?? (await fan());
  const result = await createGuessCheckout(env, { user: f.session, gameId, answer, origin: ORIGIN });
  if (!result.ok) throw new Error(result.message);
  const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, result.sessionId));
  return { f, row: row! };
}

async function paidGuess(gameId: string, answer: string, who?: Awaited<ReturnType<typeof fan>>) {
  const started = await startGuess(gameId, answer, who);
  expect((await deliverWebhook(checkoutSessionEvent(started.row))).status).toBe(200);
  return started;
}

async function participant(paymentKey: string) {
  const [row] = await db().select().from(guessWinParticipants).where(eq(guessWinParticipants.paymentKey, paymentKey));
  return row!;
}

async function liveMessage(poolId: string): Promise<PoolLiveMessage> {
  const res = await SELF.fetch(`${ORIGIN}/api/pools/${poolId}/live`, { headers: { Upgrade: "websocket" } });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  const first = new Promise<string>((resolve) =>
    ws.addEventListener("message", (event) => resolve(String(event.data)), { once: true }),
  );
  ws.accept();
  const text = await first;
  ws.close(1000, "done");
  return JSON.parse(text) as PoolLiveMessage;
}

let offline: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  // No network in tests: the block explorers are unreachable, so a closed pool waits to commit its block height.
  offline = vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("network disabled in tests"));
});
afterEach(() => offline.mockRestore());

describe("while a game runs", () => {
  it("no page, API or live message tells a right guess from a wrong one", async () => {
    const host = await newHost();
    const game = await newGame(host.id);
    const pool = await ensureOpenPool(env, host.id);

    const right = await paidGuess(game.id, CORRECT);
    const afterRight = {
      api: await (await get(`/api/pools/${pool.id}`)).json<Record<string, unknown>>(),
      live: await liveMessage(pool.id),
    };
    const wrong = await paidGuess(game.id, WRONG);
    const afterWrong = {
      api: await (await get(`/api/pools/${pool.id}`)).json<Record<string, unknown>>(),
      live: await liveMessage(pool.id),
    };

    // Both guesses moved the pool by their fee and nothing else: no entry, no user id, no last entry.
    expect(afterRight.live).toMatchObject({
      type: "pool",
      poolId: pool.id,
      amountCents: 500,
      entries: 0,
      status: "open",
    });
    expect(afterWrong.live).toMatchObject({ amountCents: 1000, entries: 0, status: "open" });
    for (const message of [afterRight.live, afterWrong.live]) {
      expect(message).not.toHaveProperty("lastEntry");
      expect(JSON.stringify(message)).not.toMatch(/user_?id/i);
      expect(JSON.stringify(message)).not.toContain(right.f.id);
      expect(JSON.stringify(message)).not.toContain(wrong.f.id);
    }
    expect(afterRight.api).toMatchObject({ amountCents: 500, entries: 0 });
    expect(afterWrong.api).toMatchObject({ amountCents: 1000, entries: 0 });
    for (const api of [afterRight.api, afterWrong.api]) {
      expect(JSON.stringify(api)).not.toContain(CORRECT);
      expect(JSON.stringify(api)).not.toContain(right.f.id);
    }
    expect(await poolStub(env, pool.id).entries()).toEqual([]);
    expect(await db().select().from(prizeEntries).where(eq(prizeEntries.poolId, pool.id))).toEqual([]);

    // The guessers' pages: the same words whether right or wrong (but for the answer), sealed, never the answer.
    const pages: string[] = [];
    for (const [guess, answer] of [
      [right, CORRECT],
      [wrong, WRONG],
    ] as const) {
      for (const path of [
        `/guess-win?paid=${guess.row.id}`,
        `/view-game/${game.id}`,
        `/profile/${host.id}`,
        `/payment/success?session_id=${guess.row.id}`,
      ]) {
        const res = await get(path, { cookie: guess.f.cookie });
        expect(res.status, path).toBe(200);
        const html = await res.text();
        expect(html).not.toMatch(/isCorrect|is_correct/i);
        expect(html).not.toMatch(/Your entry numbers|entry #/i);
        if (path.startsWith("/guess-win")) expect(html).toContain("Your guess is sealed");
        // The correct option shows exactly as often as an option nobody picked (only where every option shows).
        if (path.startsWith("/view-game")) {
          expect(html.split(CORRECT).length).toBe(html.split(OTHER).length);
          expect(html).not.toContain(">Correct<");
        }
        pages.push(html.replaceAll(answer, "ANSWER"));
      }
    }
    // The guesser's own data export says nothing either while the game runs.
    for (const guess of [right, wrong]) {
      const exported = (await (await get("/settings/export?format=json", { cookie: guess.f.cookie })).json()) as {
        records: { guesses: { id: string; isCorrect: boolean | null; entryNumber: number | null }[] };
      };
      expect(exported.records.guesses).toHaveLength(1);
      expect(exported.records.guesses[0]).toMatchObject({ isCorrect: null, entryNumber: null });
    }
    // Both guessers read the same sealed words.
    expect(pages[0]).toContain("Your guess is sealed");
    expect(pages[4]).toContain("Your guess is sealed");
  });

  it("a free guess counts only for a confirmed account and is sealed like a paid one", async () => {
    const host = await newHost();
    const game = await newGame(host.id);
    const unconfirmed = await makeUser({ name: "New Fan", emailConfirmed: false });
    const cookie = await signIn(unconfirmed.email);
    const res = await postForm("/guess-win", { intent: "free-guess", gameId: game.id, answer: CORRECT }, { cookie });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Please confirm your email to play a free guess");
    expect(await db().select().from(guessWinParticipants).where(eq(guessWinParticipants.gameId, game.id))).toEqual([]);
  });
});

describe("when the game ends", () => {
  it("the pool's close appends one entry per correct confirmed guess (paid and free), none for wrong ones", async () => {
    const host = await newHost();
    const game = await newGame(host.id);
    const pool = await ensureOpenPool(env, host.id);
    const paidRight = await paidGuess(game.id, CORRECT);
    const paidWrong = await paidGuess(game.id, WRONG);
    const freeFan = await fan("Free Fan");
    const freeWrongFan = await fan("Free Wrong Fan");
    const free = await insertFreeGuess(db(), {
      userId: freeFan.id,
      gameId: game.id,
      answer: CORRECT,
      isCorrect: true,
      currency: "USD",
    });
    await insertFreeGuess(db(), {
      userId: freeWrongFan.id,
      gameId: game.id,
      answer: OTHER,
      isCorrect: false,
      currency: "USD",
    });

    // Replayed and concurrent closes (and the cron's own close) do the close once.
    const states = await Promise.all([
      closePool(env, pool.id, "timer_expired"),
      closePool(env, pool.id, "closed_early"),
      closePool(env, pool.id, "timer_expired"),
    ]);
    expect(new Set(states.map((s) => s.entriesDigest)).size).toBe(1);
    await closePool(env, pool.id, "timer_expired");

    const [ended] = await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id));
    expect(ended).toMatchObject({ status: "completed" });
    const right = await participant(paidRight.row.id);
    const entries = await poolStub(env, pool.id).entries();
    expect(entries.map((e) => [e.entryNumber, e.sourceKey, e.userId])).toEqual([
      [0, `guess:${right.id}`, paidRight.f.id],
      [1, `guess:${free!.guessId}`, freeFan.id],
    ]);
    const mirrored = await db().select().from(prizeEntries).where(eq(prizeEntries.poolId, pool.id));
    expect(mirrored).toHaveLength(2);
    const [row] = await db().select().from(prizePools).where(eq(prizePools.id, pool.id));
    expect(row).toMatchObject({
      status: "closed",
      entriesCount: 2,
      amountCents: 1000,
      entriesDigest: states[0]!.entriesDigest,
    });
    expect(await participant(paidRight.row.id)).toMatchObject({ poolId: pool.id, entryNumber: 0 });
    expect(await participant(paidWrong.row.id)).toMatchObject({ poolId: null, entryNumber: null });

    // After the end the answer is public.
    const page = await (await get(`/view-game/${game.id}`, { cookie: paidWrong.f.cookie })).text();
    expect(page).toContain(CORRECT);
    expect(page).toContain("Correct");
  });

  it("a game the host ends early puts its correct guesses' entries in the open pool at once", async () => {
    const host = await newHost();
    const game = await newGame(host.id);
    const pool = await ensureOpenPool(env, host.id);
    const right = await paidGuess(game.id, CORRECT);
    await paidGuess(game.id, WRONG);
    const before = await liveMessage(pool.id);
    expect(before).toMatchObject({ entries: 0, amountCents: 1000 });

    const res = await postForm("/guess-win-management", { intent: "delete", gameId: game.id }, { cookie: host.cookie });
    expect(res.status).toBe(200);
    const entries = await poolStub(env, pool.id).entries();
    expect(entries.map((e) => e.sourceKey)).toEqual([`guess:${(await participant(right.row.id)).id}`]);
    expect(await liveMessage(pool.id)).toMatchObject({ entries: 1, amountCents: 1000, status: "open" });
    expect(await participant(right.row.id)).toMatchObject({ poolId: pool.id, entryNumber: 0 });

    // The close later appends nothing twice.
    await closePool(env, pool.id, "timer_expired");
    expect(await poolStub(env, pool.id).entries()).toHaveLength(1);
  });

  it("a correct guesser who excluded themselves before the game ended earns no entry; the fee stays in the pool", async () => {
    const host = await newHost();
    const game = await newGame(host.id);
    const pool = await ensureOpenPool(env, host.id);
    const excluded = await paidGuess(game.id, CORRECT);
    const other = await paidGuess(game.id, CORRECT);
    await excludeSelf(
      env,
      { userId: excluded.f.id, email: excluded.f.email, names: ["Sealed Fan"], dateOfBirth: null },
      "6_months",
      new Date(),
    );

    const res = await postForm("/guess-win-management", { intent: "delete", gameId: game.id }, { cookie: host.cookie });
    expect(res.status).toBe(200);
    await closePool(env, pool.id, "timer_expired");
    const entries = await poolStub(env, pool.id).entries();
    expect(entries.map((e) => e.sourceKey)).toEqual([`guess:${(await participant(other.row.id)).id}`]);
    expect(await liveMessage(pool.id)).toMatchObject({ entries: 1, amountCents: 1000 });
    expect(await participant(excluded.row.id)).toMatchObject({ entryNumber: null });
  });

  it("a game's end racing its pool's close appends each entry once", async () => {
    const host = await newHost();
    const game = await newGame(host.id);
    const pool = await ensureOpenPool(env, host.id);
    const guesses = await Promise.all([
      paidGuess(game.id, CORRECT),
      paidGuess(game.id, CORRECT),
      paidGuess(game.id, WRONG),
    ]);
    await db()
      .update(guessWinGames)
      .set({ status: "completed", endedAt: new Date() })
      .where(eq(guessWinGames.id, game.id));
    await Promise.all([
      admitEndedGames(env, host.id),
      closePool(env, pool.id, "timer_expired"),
      admitEndedGames(env, host.id),
      closePool(env, pool.id, "timer_expired"),
    ]);
    const entries = await poolStub(env, pool.id).entries();
    const right = await Promise.all(guesses.slice(0, 2).map((g) => participant(g.row.id)));
    expect(entries.map((e) => e.sourceKey).sort()).toEqual(right.map((p) => `guess:${p.id}`).sort());
    expect(entries.map((e) => e.entryNumber)).toEqual([0, 1]);
    expect(await db().select().from(prizeEntries).where(eq(prizeEntries.poolId, pool.id))).toHaveLength(2);
    // Nothing follows the guesses into the host's next pool.
    const next = await ensureOpenPool(env, host.id);
    await admitEndedGames(env, host.id);
    expect(await poolStub(env, next.id).entries()).toEqual([]);
  });

  it("a game past its end date is ended by the cron, which admits its entries", async () => {
    const host = await newHost();
    const game = await newGame(host.id, { expiresAt: new Date(Date.now() + 60_000) });
    const pool = await ensureOpenPool(env, host.id);
    const right = await paidGuess(game.id, CORRECT);
    await db()
      .update(guessWinGames)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(guessWinGames.id, game.id));

    const run = await endExpiredGamesAndAdmit(env, new Date());
    expect(run.admitted).toBeGreaterThanOrEqual(1);
    const [ended] = await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id));
    expect(ended).toMatchObject({ status: "completed" });
    expect(ended!.endedAt!.getTime()).toBe(ended!.expiresAt!.getTime());
    expect((await poolStub(env, pool.id).entries()).map((e) => e.sourceKey)).toEqual([
      `guess:${(await participant(right.row.id)).id}`,
    ]);
    // A second run changes nothing.
    await endExpiredGamesAndAdmit(env, new Date());
    expect(await poolStub(env, pool.id).entries()).toHaveLength(1);
  });

  it("a guess confirmed after its game ended earns no entry, puts nothing in the pool and is refunded once", async () => {
    const host = await newHost();
    const game = await newGame(host.id);
    const pool = await ensureOpenPool(env, host.id);
    const { f, row } = await startGuess(game.id, CORRECT);
    // The pool round closes (ending the game) while the fan is still on the checkout page.
    await closePool(env, pool.id, "timer_expired");

    // Delivered, replayed and concurrent: one refund.
    expect((await deliverWebhook(checkoutSessionEvent(row!))).status).toBe(200);
    const again = await Promise.all([
      deliverWebhook(checkoutSessionEvent(row!)),
      deliverWebhook(checkoutSessionEvent(row!)),
    ]);
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    const late = await participant(row!.id);
    expect(late).toMatchObject({ paymentStatus: "paid", confirmedAt: null, poolId: null, entryNumber: null });
    expect(
      await db()
        .select()
        .from(prizePoolContributions)
        .where(eq(prizePoolContributions.sourceKey, `checkout:${row!.id}`)),
    ).toEqual([]);
    expect(await poolStub(env, pool.id).entries()).toEqual([]);
    // Refunded in full through the one refund path, with the reason the buyer sees.
    const refunded = await db().select().from(refunds).where(eq(refunds.checkoutSessionId, row!.id));
    expect(refunded).toHaveLength(1);
    expect(refunded[0]).toMatchObject({ amountCents: 500, origin: "unfulfillable", reason: LATE_GUESS_REASON });
    const [payment] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, row!.id));
    expect(payment).toMatchObject({ refundedCents: 500, refundState: "full" });
    const mail = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, f.email));
    expect(mail.filter((m) => m.textBody.includes(LATE_GUESS_REASON))).toHaveLength(1);
    expect(mail.filter((m) => m.subject.startsWith("Refund of")).map((m) => m.subject)).toEqual([
      "Refund of USD 5.00 for your guess",
    ]);
    const banner = await (await get(`/guess-win?paid=${row!.id}`, { cookie: f.cookie })).text();
    expect(banner.replaceAll("&#x27;", "'")).toContain(LATE_GUESS_REASON);
    expect(banner).not.toContain("Your guess is sealed");
    // Nor does the host's next round take it.
    const next = await ensureOpenPool(env, host.id);
    expect(next.id).not.toBe(pool.id);
    await closePool(env, next.id, "timer_expired");
    expect(await poolStub(env, next.id).entries()).toEqual([]);
  });
});

describe("a paid guess's fee is reserved in the payment's batch", () => {
  it("the pool object failing after the batch: the cron applies the fee once; a late guess reserves nothing", async () => {
    const host = await newHost();
    const game = await newGame(host.id);
    const { row } = await startGuess(game.id, CORRECT);
    const broken = envWithPoolsDown();
    expect((await processStripeEvent(broken, checkoutSessionEvent(row!))).status).toBe(500);
    const key = `checkout:${row!.id}`;
    const [reserved] = await db().select().from(poolContributionKeys).where(eq(poolContributionKeys.sourceKey, key));
    expect(reserved).toMatchObject({ hostId: host.id, amountCents: 500, earnsEntry: false, appliedAt: null });
    const later = new Date(Date.now() + 5 * 60_000);
    await Promise.all([reapplyReservations(env, later), reapplyReservations(env, later)]);
    // The fee counts once, and (sealed) earns no entry.
    const pool = await ensureOpenPool(env, host.id);
    expect(await poolStub(env, pool.id).state()).toMatchObject({ amountCents: 500, entries: 0 });
    const [applied] = await db().select().from(poolContributionKeys).where(eq(poolContributionKeys.sourceKey, key));
    expect(applied!.appliedAt).not.toBeNull();

    // A guess whose game has ended reserves nothing: it is refunded, never added.
    const lateGame = await newGame(host.id, { status: "completed", endedAt: new Date(Date.now() - 60_000) });
    const lateFan = await fan("Late Reserve Fan");
    const [lateRow] = await db()
      .insert(checkoutSessions)
      .values({
        id: `cs_test_late_${crypto.randomUUID().replace(/-/g, "")}`,
        provider: "local",
        purpose: "guess_entry",
        userId: lateFan.id,
        hostId: host.id,
        amountCents: 500,
        currency: "USD",
        successUrl: `${ORIGIN}/payment/success`,
        cancelUrl: `${ORIGIN}/payment/cancel`,
        metadata: { game_id: lateGame.id, answer: CORRECT, checkout_id: "late" },
      })
      .returning();
    expect((await deliverWebhook(checkoutSessionEvent(lateRow!))).status).toBe(200);
    expect(
      await db()
        .select()
        .from(poolContributionKeys)
        .where(eq(poolContributionKeys.sourceKey, `checkout:${lateRow!.id}`)),
    ).toEqual([]);
  });
});

describe("the cron", () => {
  it("closes an expired pool through its object: the round's games end and their correct guesses hold entries", async () => {
    const host = await newHost();
    const game = await newGame(host.id);
    const pool = await ensureOpenPool(env, host.id);
    const { row } = await startGuess(game.id, CORRECT);
    // Guess checkouts expire after 30 minutes (Stripe's minimum).
    expect(row!.expiresAt!.getTime() - row!.createdAt.getTime()).toBeGreaterThan(29 * 60_000);
    expect(row!.expiresAt!.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(GUESS_CHECKOUT_TTL_MS + 1000);
    expect((await deliverWebhook(checkoutSessionEvent(row!))).status).toBe(200);

    await db()
      .update(prizePools)
      .set({ endAt: new Date(Date.now() - 1000) })
      .where(eq(prizePools.id, pool.id));
    const summary = await runPoolCron(env, new Date());
    expect(summary.closed.map((c) => c.poolId)).toContain(pool.id);
    const [ended] = await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id));
    expect(ended).toMatchObject({ status: "completed" });
    const guess = await participant(row!.id);
    expect((await poolStub(env, pool.id).entries()).map((e) => e.sourceKey)).toEqual([`guess:${guess.id}`]);
    expect(guess).toMatchObject({ poolId: pool.id, entryNumber: 0 });
    const [closed] = await db().select().from(prizePools).where(eq(prizePools.id, pool.id));
    expect(closed).toMatchObject({ status: "closed", entriesCount: 1, amountCents: 500 });
    expect(closed!.entriesDigest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("the official rules", () => {
  it("describe exactly the draw, sealed guesses, voids, redraws, settlement and carry-over, and who may enter", async () => {
    const res = await get("/official-rules");
    expect(res.status).toBe(200);
    const text = (await res.text())
      .replace(/<[^>]+>/g, "")
      .replace(/&#x27;/g, "'")
      .replace(/\s+/g, " ");
    for (const phrase of [
      "at least 18 years old",
      "Creators (hosts) may not enter their own prize pool",
      "the Bitcoin block 3 past the highest chain tip the block explorers report, at least 2 independent ones",
      "must also descend from the recorded tip",
      "difficulty of at least 10^12",
      "BigInt(block hash) mod (number of valid entries)",
      "SHA-256 of the entry's private payment key",
      "void entries marked void",
      "refund or lost dispute of more than half a payment voids the entry",
      "settlement period of 30 days after the draw",
      "from a fresh commitment past the chain tip at the time of the void",
      "borne by the creator and the draw stands",
      "carried over to the creator's next pool",
      "While a game runs every guess is sealed",
      "Once anyone has guessed, its answer and options cannot change",
      "refunded in full automatically",
    ]) {
      expect(text, phrase).toContain(phrase);
    }
  });
});
