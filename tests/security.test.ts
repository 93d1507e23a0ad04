import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailConfirmationTokens, freeGuessUsage, guessWinGames, passwordResetTokens, sessions } from "~/db/schema";
import { markEmailConfirmed } from "~/db/queries/accounts.server";
import { runScheduled } from "../workers/scheduled";
import { db, makeUser, postForm, signIn } from "./helpers";

const HOUR = 60 * 60 * 1000;

describe("accounts that have not confirmed their e-mail", () => {
  it("cannot spend a free guess; the same fan can once confirmed", async () => {
    const host = await makeUser({ name: "Riddle Host" });
    const [game] = await db()
      .insert(guessWinGames)
      .values({ hostId: host.id, question: "Which colour is the sky?", options: ["Blue", "Green"], correctAnswer: "Blue", entryFeeCents: 300 })
      .returning();
    const fan = await makeUser({ name: "New Fan", emailConfirmed: false });
    const cookie = await signIn(fan.email);
    expect((await postForm("/guess-win", { intent: "join-tribe", hostId: host.id }, { cookie })).status).toBe(200);
    expect((await postForm("/guess-win", { intent: "share", gameId: game!.id }, { cookie })).status).toBe(200);

    const refused = await postForm("/guess-win", { intent: "free-guess", gameId: game!.id, answer: "Blue" }, { cookie });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Please confirm your email to play a free guess");
    expect(await db().select().from(freeGuessUsage).where(eq(freeGuessUsage.gameId, game!.id))).toHaveLength(0);

    await markEmailConfirmed(db(), fan.id, new Date());
    const played = await postForm("/guess-win", { intent: "free-guess", gameId: game!.id, answer: "Blue" }, { cookie });
    expect(played.status).toBe(200);
    expect(await db().select().from(freeGuessUsage).where(eq(freeGuessUsage.gameId, game!.id))).toHaveLength(1);
  });
});

describe("the cron's clean-up", () => {
  it("purges expired sessions, reset links and confirmation links and keeps live ones", async () => {
    const { id: userId } = await makeUser();
    const now = new Date();
    const past = new Date(now.getTime() - HOUR);
    const future = new Date(now.getTime() + HOUR);
    const key = () => crypto.randomUUID();
    const [oldSession, liveSession, oldReset, liveReset, oldConfirm, liveConfirm] = [key(), key(), key(), key(), key(), key()];
    await db().insert(sessions).values([
      { id: oldSession, userId, expiresAt: past },
      { id: liveSession, userId, expiresAt: future },
    ]);
    await db().insert(passwordResetTokens).values([
      { tokenHash: oldReset, userId, expiresAt: past },
      { tokenHash: liveReset, userId, expiresAt: future },
    ]);
    await db().insert(emailConfirmationTokens).values([
      { tokenHash: oldConfirm, userId, expiresAt: past },
      { tokenHash: liveConfirm, userId, expiresAt: future },
    ]);

    await runScheduled(env, now);

    const sessionsLeft = await db().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
    expect(sessionsLeft.map((r) => r.id)).toEqual([liveSession]);
    const resetsLeft = await db()
      .select({ id: passwordResetTokens.tokenHash })
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, userId));
    expect(resetsLeft.map((r) => r.id)).toEqual([liveReset]);
    const confirmationsLeft = await db()
      .select({ id: emailConfirmationTokens.tokenHash })
      .from(emailConfirmationTokens)
      .where(eq(emailConfirmationTokens.userId, userId));
    expect(confirmationsLeft.map((r) => r.id)).toEqual([liveConfirm]);
  });
});
