import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  checkoutSessions,
  freeGuessUsage,
  gameShares,
  guessWinGames,
  guessWinParticipants,
  prizePoolContributions,
  tribeMembers,
  userProfiles,
} from "~/db/schema";
import { insertFreeGuess } from "~/db/queries/games.server";
import { createGuessCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { formatCents } from "~/domain/money";
import { closePool, ensureOpenPool, poolStub } from "~/lib/pools.server";
import { db, get, makeSignedInUser, makeUser, ORIGIN, postForm, sessionUserOf } from "./helpers";
import { checkoutSessionEvent, deliverWebhook } from "./support/webhooks";

// The fan side of Guess & Win: feed, tribe, share, likes, saves, free guesses and paid guesses. Every correct
// answer here is distinctive, and the tests check it never reaches the browser while the game runs.

const token = crypto.randomUUID().slice(0, 8);
const CORRECT = `Saffron-${token}-Quokka`;
const WRONG = `Saffron-${token}-Wombat`;
const OTHER = `Saffron-${token}-Numbat`;

const FREE_AVAILABLE = "Free Guess Available";
const SHARE_FOR_FREE = "Share = 1 free guess";

async function newGame(hostId: string, overrides: Partial<typeof guessWinGames.$inferInsert> = {}) {
  const [game] = await db()
    .insert(guessWinGames)
    .values({
      hostId,
      question: `Which animal hides in the picture ${crypto.randomUUID().slice(0, 6)}?`,
      options: [WRONG, CORRECT, OTHER],
      correctAnswer: CORRECT,
      entryFeeCents: 300,
      ...overrides,
    })
    .returning();
  return game!;
}

async function fan(name = "Fan") {
  const user = await makeSignedInUser({ name });
  return { ...user, session: sessionUserOf(user, name) };
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/**
 * The correct option appears exactly as often as an option of the same shape that no test ever picks (so it shows
 * only where every option shows), and no answer field is sent.
 */
function expectNoAnswerLeak(text: string) {
  expect(occurrences(text, CORRECT)).toBe(occurrences(text, OTHER));
  expect(text).not.toMatch(/correct_?answer/i);
  expect(text).not.toMatch(/isCorrect|is_correct/);
}

/** The HTML of one game's card on the feed. */
function cardOf(page: string, question: string): string {
  const at = page.indexOf(question);
  expect(at).toBeGreaterThan(-1);
  const start = page.lastIndexOf("<article", at);
  const end = page.indexOf("</article>", at);
  return page.slice(start, end);
}

const act = (fields: Record<string, string>, cookie?: string) => postForm("/guess-win", fields, { cookie });

async function participants(gameId: string) {
  return db().select().from(guessWinParticipants).where(eq(guessWinParticipants.gameId, gameId));
}

let host: { id: string; email: string };
beforeAll(async () => {
  host = await makeUser({ name: "Quiz Host" });
});

describe("visitors", () => {
  it("get the sign-in messages with 401 and nothing changes", async () => {
    const game = await newGame(host.id);
    const cases: [Record<string, string>, string][] = [
      [{ intent: "free-guess", gameId: game.id, answer: CORRECT }, "Please sign in to play"],
      [{ hostId: host.id }, "Please sign in to join tribe"],
      [{ intent: "share", gameId: game.id }, "Please sign in to share"],
    ];
    for (const [fields, message] of cases) {
      // Join Tribe is the shared mutation every page posts to.
      const res = fields.intent ? await act(fields) : await postForm("/tribe/join", fields);
      expect(res.status).toBe(401);
      const body = await res.text();
      expect(body).toContain(message);
      expectNoAnswerLeak(body);
    }
    expect(await participants(game.id)).toHaveLength(0);
  });
});

describe("join tribe", () => {
  it("joins once: the second try says already a member, followers_count +1 once", async () => {
    const tribeHost = await makeUser({ name: "Tribe Host" });
    await newGame(tribeHost.id);
    const f = await fan();
    const first = await postForm("/tribe/join", { hostId: tribeHost.id }, { cookie: f.cookie });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Successfully joined the tribe!");
    const second = await postForm("/tribe/join", { hostId: tribeHost.id }, { cookie: f.cookie });
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("You are already a member of this tribe!");
    const [profile] = await db()
      .select({ n: userProfiles.followersCount })
      .from(userProfiles)
      .where(eq(userProfiles.userId, tribeHost.id));
    expect(profile!.n).toBe(1);
    const rows = await db().select().from(tribeMembers).where(eq(tribeMembers.hostId, tribeHost.id));
    expect(rows).toHaveLength(1);
    const page = await (await get("/guess-win", { cookie: f.cookie })).text();
    expect(page).toMatch(/<button[^>]*disabled=""[^>]*>Tribe Member<\/button>/);
  });
});

describe("share, like and save", () => {
  it("records a share once and keeps shares_count in step; likes and saves toggle with the count", async () => {
    const game = await newGame(host.id);
    const f = await fan();
    for (let i = 0; i < 2; i++) {
      const res = await act({ intent: "share", gameId: game.id }, f.cookie);
      expect(res.status).toBe(200);
      expectNoAnswerLeak(await res.text());
    }
    const shares = await db().select().from(gameShares).where(eq(gameShares.gameId, game.id));
    expect(shares).toHaveLength(1);
    const count = async () => (await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id)))[0]!;
    expect((await count()).sharesCount).toBe(1);

    await act({ intent: "like", gameId: game.id, on: "true" }, f.cookie);
    await act({ intent: "like", gameId: game.id, on: "true" }, f.cookie);
    expect((await count()).likesCount).toBe(1);
    await act({ intent: "like", gameId: game.id, on: "false" }, f.cookie);
    expect((await count()).likesCount).toBe(0);
    const save = await act({ intent: "save", gameId: game.id, on: "true" }, f.cookie);
    expect(save.status).toBe(200);
    expect((await count()).viewsCount).toBe(0);
  });
});

describe("free guess eligibility", () => {
  const combos: { member: boolean; shared: boolean; used: boolean }[] = [];
  for (const member of [true, false])
    for (const shared of [true, false]) for (const used of [true, false]) combos.push({ member, shared, used });

  for (const combo of combos) {
    const eligible = combo.member && combo.shared && !combo.used;
    it(`member=${combo.member} shared=${combo.shared} used=${combo.used} → ${eligible ? "allowed" : "refused"}`, async () => {
      const comboHost = await makeUser({ name: "Combo Host" });
      const game = await newGame(comboHost.id);
      const f = await fan();
      if (combo.member) await db().insert(tribeMembers).values({ userId: f.id, hostId: comboHost.id });
      if (combo.shared) await db().insert(gameShares).values({ userId: f.id, gameId: game.id, hostId: comboHost.id });
      if (combo.used) await db().insert(freeGuessUsage).values({ userId: f.id, gameId: game.id });

      const card = cardOf(await (await get("/guess-win", { cookie: f.cookie })).text(), game.question);
      if (eligible) {
        expect(card).toContain(FREE_AVAILABLE);
        expect(card).toMatch(/>Free Guess<\/button>/);
      } else {
        expect(card).not.toContain(FREE_AVAILABLE);
        expect(card).not.toMatch(/>Free Guess<\/button>/);
        if (!combo.used) expect(card).toContain(SHARE_FOR_FREE);
      }

      const res = await act({ intent: "free-guess", gameId: game.id, answer: WRONG }, f.cookie);
      const body = await res.text();
      expectNoAnswerLeak(body);
      const rows = await participants(game.id);
      if (eligible) {
        expect(res.status).toBe(200);
        expect(body.replace(/\\/g, "")).toContain(`Free guess submitted with answer: "${WRONG}". Good luck!`);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ kind: "free", isCorrect: false, poolId: null, entryNumber: null });
      } else {
        expect(res.status).toBe(combo.used ? 409 : 403);
        if (!combo.used) expect(body).toContain(SHARE_FOR_FREE);
        expect(rows).toHaveLength(0);
      }
    });
  }

  it("the free_guess_usage key refuses a second spend inside the batch itself (no half-written guess)", async () => {
    const game = await newGame(host.id);
    const f = await fan();
    const spend = () =>
      insertFreeGuess(db(), { userId: f.id, gameId: game.id, answer: WRONG, isCorrect: false, currency: "USD" });
    const results = await Promise.all([spend(), spend(), spend()]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await participants(game.id)).toHaveLength(1);
    const usage = await db().select().from(freeGuessUsage).where(eq(freeGuessUsage.gameId, game.id));
    expect(usage).toHaveLength(1);
    const [counted] = await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id));
    expect(counted!.participantsCount).toBe(1);
  });

  it("refuses a free guess to a fan who may not enter (under 18): no guess, the reason said", async () => {
    const youngHost = await makeUser({ name: "Young Host" });
    const game = await newGame(youngHost.id);
    const young = await makeSignedInUser({ name: "Young Fan", dateOfBirth: "2015-01-01" });
    await db().insert(tribeMembers).values({ userId: young.id, hostId: youngHost.id });
    await db().insert(gameShares).values({ userId: young.id, gameId: game.id, hostId: youngHost.id });
    const res = await act({ intent: "free-guess", gameId: game.id, answer: CORRECT }, young.cookie);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("You must be 18 or over to enter prize draws.");
    expect(await participants(game.id)).toHaveLength(0);
  });

  it("asks for an answer first", async () => {
    const game = await newGame(host.id);
    const f = await fan();
    const res = await act({ intent: "free-guess", gameId: game.id, answer: "" }, f.cookie);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Please select an answer first!");
  });

  it("a correct free guess is sealed until the pool round closes, then holds an entry; two racing requests spend it once", async () => {
    const raceHost = await makeUser({ name: "Race Host" });
    const game = await newGame(raceHost.id);
    const f = await fan();
    const other = await fan();
    await db()
      .insert(tribeMembers)
      .values([
        { userId: f.id, hostId: raceHost.id },
        { userId: other.id, hostId: raceHost.id },
      ]);
    await db()
      .insert(gameShares)
      .values([
        { userId: f.id, gameId: game.id, hostId: raceHost.id },
        { userId: other.id, gameId: game.id, hostId: raceHost.id },
      ]);

    const [a, b] = await Promise.all([
      act({ intent: "free-guess", gameId: game.id, answer: CORRECT }, f.cookie),
      act({ intent: "free-guess", gameId: game.id, answer: CORRECT }, f.cookie),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const wrong = await act({ intent: "free-guess", gameId: game.id, answer: WRONG }, other.cookie);
    expect(wrong.status).toBe(200);
    // The right and the wrong guess get the same page, but for the answer itself.
    const okPage = (await (a.status === 200 ? a : b).text()).replaceAll(CORRECT, "X");
    const wrongPage = (await wrong.text()).replaceAll(WRONG, "X");
    expect(okPage.length).toBeGreaterThan(0);
    expect(okPage.includes("correct") || okPage.includes("Correct")).toBe(
      wrongPage.includes("correct") || wrongPage.includes("Correct"),
    );

    const rows = await participants(game.id);
    expect(rows).toHaveLength(2);
    const mine = rows.find((r) => r.userId === f.id)!;
    expect(mine).toMatchObject({ kind: "free", isCorrect: true, poolId: null, entryNumber: null });
    expect(mine.confirmedAt).toBeInstanceOf(Date);
    const [counted] = await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id));
    expect(counted!.participantsCount).toBe(2);
    // While the game runs the host's pool holds no entry at all: nothing tells whether a guess was right.
    const pool = await ensureOpenPool(env, raceHost.id);
    expect(await poolStub(env, pool.id).state()).toMatchObject({ amountCents: 0, entries: 0 });

    // The round closes: the game ends (answer public) and the correct guess holds an entry in that pool.
    // (No network in tests: the block explorers are unreachable, so the draw waits to commit a height.)
    const offline = vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("network disabled in tests"));
    await closePool(env, pool.id, "timer_expired");
    offline.mockRestore();
    const [ended] = await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id));
    expect(ended).toMatchObject({ status: "completed" });
    expect(ended!.endedAt).toBeInstanceOf(Date);
    const entries = await poolStub(env, pool.id).entries();
    expect(entries.map((e) => [e.sourceKey, e.userId])).toEqual([[`guess:${mine.id}`, f.id]]);
    const after = await participants(game.id);
    expect(after.find((r) => r.userId === f.id)).toMatchObject({ poolId: pool.id, entryNumber: 0 });
    expect(after.find((r) => r.userId === other.id)).toMatchObject({ poolId: null, entryNumber: null });

    const third = await act({ intent: "free-guess", gameId: game.id, answer: WRONG }, f.cookie);
    expect([404, 409]).toContain(third.status);
    expect(await participants(game.id)).toHaveLength(2);
  });
});

describe("paid guess", () => {
  async function paidGuess(answer: string, feeCents?: number) {
    const payHost = await makeUser({ name: "Pay Host" });
    const game = await newGame(payHost.id, { entryFeeCents: 500 });
    const f = await fan();
    const result = await createGuessCheckout(env, {
      user: f.session,
      gameId: game.id,
      answer,
      feeCents,
      origin: ORIGIN,
    });
    if (!result.ok) throw new Error(result.message);
    const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, result.sessionId));
    return { game, f, row: row!, result };
  }

  it("validates the game, the answer and the fee", async () => {
    const f = await fan();
    const game = await newGame(host.id, { entryFeeCents: 500 });
    const paused = await newGame(host.id, { status: "paused" });
    const base = { user: f.session, origin: ORIGIN };
    expect(await createGuessCheckout(env, { ...base, user: null, gameId: game.id, answer: CORRECT })).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(await createGuessCheckout(env, { ...base, gameId: paused.id, answer: CORRECT })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await createGuessCheckout(env, { ...base, gameId: game.id, answer: "Not an option" })).toMatchObject({
      ok: false,
      status: 400,
    });
    for (const fee of [499, 10_001, 550.5, "abc"]) {
      expect(
        await createGuessCheckout(env, { ...base, gameId: game.id, answer: CORRECT, feeCents: fee }),
      ).toMatchObject({ ok: false, status: 400 });
    }
    const ok = await createGuessCheckout(env, { ...base, gameId: game.id, answer: CORRECT, feeCents: 10_000 });
    expect(ok).toMatchObject({ ok: true, amountCents: 10_000 });
  });

  it("the review page shows the guess and its rules, without the correct answer", async () => {
    const f = await fan();
    const game = await newGame(host.id, { entryFeeCents: 400 });
    const res = await get(`/payment?game=${game.id}&answer=${encodeURIComponent(WRONG)}`, { cookie: f.cookie });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(game.question);
    expect(page).toContain("100% of entry fees go to the prize pool; only a correct guess earns an entry number");
    expect(page).toContain("USD 4.00");
    expect(page).not.toContain(CORRECT);
    // The pool the fee goes to, with what it holds now (the payment data's prizePool).
    const pool = await ensureOpenPool(env, host.id);
    const amount = formatCents((await poolStub(env, pool.id).state()).amountCents, pool.currency);
    const again = await (
      await get(`/payment?game=${game.id}&answer=${encodeURIComponent(WRONG)}`, { cookie: f.cookie })
    ).text();
    expect(again).toMatch(new RegExp(`Prize pool: <span[^>]*>${amount.replace(/[.]/g, "\\.")}</span>`));

    const post = await postForm(
      `/payment?game=${game.id}&answer=${encodeURIComponent(WRONG)}`,
      { amount: "7.50" },
      { cookie: f.cookie },
    );
    expect(post.status).toBe(302);
    const [row] = await db()
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.userId, f.id), eq(checkoutSessions.purpose, "guess_entry")));
    expect(row).toMatchObject({ amountCents: 750, hostId: host.id });
    expect(row!.metadata).toMatchObject({ game_id: game.id, answer: WRONG, user_id: f.id, host_id: host.id });
  });

  it("a right answer adds the fee to the pool, sealed (no entry while the game runs); a replayed event changes nothing", async () => {
    const { game, row, f } = await paidGuess(CORRECT, 800);
    const eventId = `evt_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const payload = checkoutSessionEvent(row, { eventId });
    for (let i = 0; i < 3; i++) expect((await deliverWebhook(payload)).status).toBe(200);
    // A different event for the same session is applied once too.
    expect((await deliverWebhook(checkoutSessionEvent(row))).status).toBe(200);

    const rows = await participants(game.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "paid",
      entryFeeCents: 800,
      paymentStatus: "paid",
      paymentKey: row.id,
      userId: f.id,
    });
    // Confirmed by our server while the game runs; the entry waits for the game's end.
    expect(rows[0]!.confirmedAt).toBeInstanceOf(Date);
    expect(rows[0]).toMatchObject({ poolId: null, entryNumber: null });
    const [counted] = await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id));
    expect(counted).toMatchObject({ participantsCount: 1, totalEntryFeesCents: 800 });
    const contributions = await db()
      .select()
      .from(prizePoolContributions)
      .where(eq(prizePoolContributions.sourceKey, `checkout:${row.id}`));
    expect(contributions).toHaveLength(1);
    expect(contributions[0]).toMatchObject({ amountCents: 800, sourceType: "guess_entry", entryNumber: null });
    const state = await poolStub(env, contributions[0]!.poolId).state();
    expect(state).toMatchObject({ amountCents: 800, entries: 0 });

    // The feed's banner after payment: question and answer, sealed, nothing about correctness.
    const page = await (await get(`/guess-win?paid=${row.id}`, { cookie: f.cookie })).text();
    expect(page).toContain(
      `Payment successful! You&#x27;ve entered the game &quot;${game.question}&quot; with answer &quot;${CORRECT}&quot;. Good luck!`,
    );
    expect(page).toContain("Your guess is sealed");
  });

  it("a wrong answer adds the fee and no entry, exactly like a right one", async () => {
    const { game, row } = await paidGuess(WRONG);
    expect(row.amountCents).toBe(500);
    expect((await deliverWebhook(checkoutSessionEvent(row))).status).toBe(200);
    const rows = await participants(game.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "paid",
      isCorrect: false,
      entryNumber: null,
      poolId: null,
      entryFeeCents: 500,
    });
    expect(rows[0]!.confirmedAt).toBeInstanceOf(Date);
    const contributions = await db()
      .select()
      .from(prizePoolContributions)
      .where(eq(prizePoolContributions.sourceKey, `checkout:${row.id}`));
    expect(contributions).toHaveLength(1);
    const state = await poolStub(env, contributions[0]!.poolId).state();
    expect(state).toMatchObject({ amountCents: 500, entries: 0 });
  });
});

describe("the feed", () => {
  it("offers no guess on the host's own game (feed and profile); the server still refuses one", async () => {
    const own = await makeSignedInUser({ name: "Own Game Host" });
    const game = await newGame(own.id);
    // The host has shared the game and is in their own tribe: nothing but ownership stands in the way.
    await db().insert(tribeMembers).values({ userId: own.id, hostId: own.id });
    await db().insert(gameShares).values({ userId: own.id, gameId: game.id, hostId: own.id });
    const card = cardOf(await (await get("/guess-win", { cookie: own.cookie })).text(), game.question);
    expect(card).not.toMatch(/>Paid Guess<\/button>/);
    expect(card).not.toMatch(/>Free Guess<\/button>/);
    expect(card).not.toContain(FREE_AVAILABLE);
    expect(card).not.toContain('type="radio"');
    expect(card.replace(/&#x27;/g, "'")).toContain("You cannot guess on your own game.");
    expect(card).toContain(`href="/view-game/${game.id}"`);
    // A fan is offered the paid guess on the same game.
    const f = await fan();
    expect(cardOf(await (await get("/guess-win", { cookie: f.cookie })).text(), game.question)).toMatch(
      />Paid Guess<\/button>/,
    );
    // The host's profile lists the game without the Free Guess link; a fan's view of it has the link.
    const profile = await (await get(`/profile/${own.id}?tab=games`, { cookie: own.cookie })).text();
    expect(profile).toContain(game.question);
    expect(profile).not.toMatch(/>Free Guess</);
    const fanProfile = await (await get(`/profile/${own.id}?tab=games`, { cookie: f.cookie })).text();
    expect(fanProfile).toMatch(/>Free Guess</);
    // The server refuses a guess sent anyway.
    const pay = await get(`/payment?game=${game.id}&answer=${encodeURIComponent(WRONG)}`, { cookie: own.cookie });
    expect(pay.status).toBe(403);
    const res = await act({ intent: "free-guess", gameId: game.id, answer: WRONG }, own.cookie);
    expect(res.status).toBe(403);
    expect(await participants(game.id)).toHaveLength(0);
  });

  it("shows platform staff why they cannot guess instead of the guess buttons (feed and game page); checkout refuses them", async () => {
    const staff = await makeSignedInUser({ name: "Platform Staff", role: "admin" });
    const game = await newGame(host.id);
    const staffMessage = "Platform staff cannot enter prize pools.";
    const card = cardOf(await (await get("/guess-win", { cookie: staff.cookie })).text(), game.question);
    expect(card).not.toMatch(/>Paid Guess<\/button>/);
    expect(card).not.toMatch(/>Free Guess<\/button>/);
    expect(card).not.toContain('type="radio"');
    expect(card).toContain(staffMessage);
    const page = await (await get(`/view-game/${game.id}`, { cookie: staff.cookie })).text();
    expect(page).toContain(staffMessage);
    expect(page).not.toMatch(/>Guess Now<\/button>/);
    // A fan is offered both on the same game.
    const f = await fan();
    expect(await (await get(`/view-game/${game.id}`, { cookie: f.cookie })).text()).toMatch(/>Guess Now<\/button>/);
    // A guess sent anyway: the review says why, and paying is refused.
    const review = `/payment?game=${game.id}&answer=${encodeURIComponent(WRONG)}`;
    expect(await (await get(review, { cookie: staff.cookie })).text()).toContain(staffMessage);
    const pay = await postForm(review, { amount: "3" }, { cookie: staff.cookie });
    expect(pay.status).toBe(403);
    expect(await pay.text()).toContain(staffMessage);
    expect(await participants(game.id)).toHaveLength(0);
  });

  it("never sends the correct answer: HTML, loader data and action responses", async () => {
    const game = await newGame(host.id);
    const f = await fan();
    for (const path of ["/guess-win", "/guess-win.data", "/guess-win?page=1", "/guess-win.data?page=1"]) {
      for (const cookie of [undefined, f.cookie]) {
        const res = await get(path, { cookie });
        expect(res.status).toBe(200);
        const body = await res.text();
        expect(body).toContain(game.id);
        expectNoAnswerLeak(body);
      }
    }
    const actions: Record<string, string>[] = [
      { intent: "like", gameId: game.id, on: "true" },
      { intent: "save", gameId: game.id, on: "true" },
      { intent: "share", gameId: game.id },
      { intent: "free-guess", gameId: game.id, answer: WRONG },
    ];
    for (const fields of actions) {
      for (const path of ["/guess-win", "/guess-win.data"]) {
        const body = await (await postForm(path, fields, { cookie: f.cookie })).text();
        expectNoAnswerLeak(body);
      }
    }
  });

  it("draws its icons (likes, comments, shares) as inline SVG, never emoji, as do the other pages that had emoji", async () => {
    // An emoji renders as an empty box where no emoji font is installed (docs/decisions/630-phone-and-keyboard.md).
    const game = await newGame(host.id, { commentsCount: 7 });
    for (const path of ["/guess-win", "/explore", "/", "/congratulations"]) {
      const html = (await (await get(path)).text()).replace(/<script[\s\S]*?<\/script>/g, "");
      if (path === "/guess-win") {
        expect(html).toContain(game.question);
        expect(html).toMatch(
          /<svg aria-hidden="true"[^>]*>.*?<\/svg> (?:<!-- -->)?7<span class="sr-only"> comments<\/span>/,
        );
      }
      expect(html.match(/\p{Extended_Pictographic}/gu) ?? [], path).toEqual([]);
    }
  });

  it("lists active games only", async () => {
    const listed = await newGame(host.id, { question: `Active one ${token}?` });
    for (const status of ["draft", "paused", "completed"] as const) {
      await newGame(host.id, { question: `Hidden ${status} ${token}?`, status });
    }
    const page = await (await get("/guess-win")).text();
    expect(page).toContain(listed.question);
    expect(page).not.toContain(`Hidden draft ${token}`);
    expect(page).not.toContain(`Hidden paused ${token}`);
    expect(page).not.toContain(`Hidden completed ${token}`);
  });

  it("Load More returns the next page (newest first), paged in SQL", async () => {
    const pageHost = await makeUser({ name: "Page Host" });
    const future = Date.now() + 10 * 365 * 86_400_000;
    const questions: string[] = [];
    for (let i = 0; i < 15; i++) {
      const q = `Paged question ${token} #${String(i).padStart(2, "0")}?`;
      questions.push(q);
      await newGame(pageHost.id, { question: q, createdAt: new Date(future + i * 1000) });
    }
    const newestFirst = [...questions].reverse();
    const first = await (await get("/guess-win")).text();
    for (const q of newestFirst.slice(0, 12)) expect(first).toContain(q);
    for (const q of newestFirst.slice(12)) expect(first).not.toContain(q);
    expect(first).toContain("Load More");
    expect(first.indexOf(newestFirst[0]!)).toBeLessThan(first.indexOf(newestFirst[1]!));

    const second = await (await get("/guess-win.data?page=2")).text();
    for (const q of newestFirst.slice(12)) expect(second).toContain(q);
    for (const q of newestFirst.slice(0, 12)) expect(second).not.toContain(q);
    const secondHtml = await (await get("/guess-win?page=2")).text();
    for (const q of newestFirst.slice(12)) expect(secondHtml).toContain(q);

    // ?game={id} (the profile's Free Guess link) opens the page that shows that game, at its card.
    const ids = await db()
      .select({ id: guessWinGames.id, question: guessWinGames.question })
      .from(guessWinGames)
      .where(eq(guessWinGames.hostId, pageHost.id));
    const idOf = (q: string) => ids.find((g) => g.question === q)!.id;
    const onSecond = idOf(newestFirst[13]!);
    const linked = await (await get(`/guess-win?game=${onSecond}`)).text();
    expect(linked).toContain(`id="game-${onSecond}"`);
    expect(linked).toContain(newestFirst[13]!);
    expect(linked).not.toContain(newestFirst[0]!);
    const onFirst = idOf(newestFirst[0]!);
    expect(await (await get(`/guess-win?game=${onFirst}`)).text()).toContain(`id="game-${onFirst}"`);
    // An unknown game: the first page.
    expect(await (await get("/guess-win?game=no-such-game")).text()).toContain(newestFirst[0]!);

    // Past the last page: not "no games yet", but no more of them, with the way back.
    const beyond = await (await get("/guess-win?page=500")).text();
    expect(beyond).not.toContain("No active Guess &amp; Win games yet");
    expect(beyond).toContain("There are no more games on this page.");
    expect(beyond).toContain("Back to the first page");
  });
});
