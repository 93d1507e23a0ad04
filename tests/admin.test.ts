import { env } from "cloudflare:test";
import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  adminAuditLog,
  groupBuys,
  guessWinGames,
  payouts,
  platformSettings,
  prizePools,
  productColors,
  products,
  productSizes,
  sessions,
  userProfiles,
} from "~/db/schema";
import { ADMIN_MESSAGES } from "~/domain/admin";
import { REVENUE_RULES_SETTING_KEY } from "~/domain/revenue";
import { createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { CHECKOUT_MESSAGES } from "~/lib/payments/checkout/quote.server";
import { processPayout } from "~/lib/payments/connect/payouts.server";
import { ensureOpenPool } from "~/lib/pools.server";
import { db, get, makeSignedInUser, makeUser, ORIGIN, pageText, postForm, signIn, withoutNetwork } from "./helpers";

withoutNetwork();

const signedInAdmin = () => makeSignedInUser({ role: "admin", name: "Owner" });

/** A host with an active physical product (one size, one colour), an active game and an active group buy. */
async function hostWithShop(name: string) {
  const host = await makeUser({ name });
  const [product] = await db()
    .insert(products)
    .values({ hostId: host.id, name: `${name} Lamp`, category: "physical", status: "active" })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: product!.id, name: "One", priceCents: 3000, availableUnits: 5, position: 0 });
  await db().insert(productColors).values({ productId: product!.id, name: "Blue", hex: "#00f", availableUnits: 5 });
  const [game] = await db()
    .insert(guessWinGames)
    .values({
      hostId: host.id,
      question: `${name}'s riddle?`,
      options: ["A", "B"],
      correctAnswer: "A",
      entryFeeCents: 100,
      status: "active",
    })
    .returning();
  const [groupBuy] = await db()
    .insert(groupBuys)
    .values({
      hostId: host.id,
      name: `${name} Group Buy`,
      status: "active",
      targetCents: 100_000,
      endAt: new Date(Date.now() + 7 * 86_400_000),
    })
    .returning();
  return { host, product: product!, game: game!, groupBuy: groupBuy! };
}

function setStatus(cookie: string, userId: string, status: string) {
  return postForm("/admin", { intent: "status", userId, status }, { cookie });
}

async function profileOf(userId: string) {
  const [row] = await db().select().from(userProfiles).where(eq(userProfiles.userId, userId));
  return row!;
}

async function latestAudit() {
  const [row] = await db().select().from(adminAuditLog).orderBy(desc(adminAuditLog.createdAt)).limit(1);
  return row!;
}

describe("/admin access", () => {
  it("sends a visitor to sign in and refuses a fan, page and actions alike", async () => {
    const visitor = await get("/admin");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toContain("/signin");

    const fan = await makeUser({ name: "Curious Fan" });
    const cookie = await signIn(fan.email);
    expect((await get("/admin", { cookie })).status).toBe(403);

    const target = await makeUser({ name: "Target Host" });
    const res = await setStatus(cookie, target.id, "suspended");
    expect(res.status).toBe(403);
    expect((await profileOf(target.id)).status).toBe("active");
    const rules = await postForm("/admin", { intent: "rules" }, { cookie });
    expect(rules.status).toBe(403);
  });

  it("lists users with search, sort and pagination done in SQL", async () => {
    const admin = await signedInAdmin();
    const tag = crypto.randomUUID().slice(0, 6);
    const names = [`Zeta ${tag}`, `alpha ${tag}`, `Mid ${tag}`];
    for (const name of names) await makeUser({ name });
    const sorted = await pageText(await get(`/admin?q=${tag}&sort=name`, { cookie: admin.cookie }));
    const positions = [`alpha ${tag}`, `Mid ${tag}`, `Zeta ${tag}`].map((n) => sorted.indexOf(n));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));

    const none = await pageText(await get(`/admin?q=no-such-${tag}`, { cookie: admin.cookie }));
    expect(none).toContain("No users match this search.");
    // A bad sort or page falls back to the defaults instead of failing.
    expect((await get(`/admin?sort=evil&page=-3`, { cookie: admin.cookie })).status).toBe(200);
  });
});

describe("suspending an account", () => {
  it("ends its sessions, refuses sign-in, hides its shop, refuses checkouts, closes its pool; re-activation brings all back", async () => {
    const admin = await signedInAdmin();
    const { host, product, game, groupBuy } = await hostWithShop("Suspendable");
    const hostCookie = await signIn(host.email);
    const pool = await ensureOpenPool(env, host.id);
    const fan = await makeUser({ name: "Loyal Fan" });
    const fanUser = {
      id: fan.id,
      email: fan.email,
      role: "user" as const,
      creatorName: "Loyal Fan",
      avatarUrl: null,
      emailConfirmed: true,
    };

    expect((await get(`/product/${product.id}`)).status).toBe(200);
    expect((await get("/dashboard", { cookie: hostCookie })).status).toBe(200);

    const res = await setStatus(admin.cookie, host.id, "suspended");
    expect(res.status).toBe(200);
    expect(await pageText(res)).toContain("Suspendable is now suspended.");

    // Existing session ends at once; sign-in is refused with a clear message.
    expect((await db().select().from(sessions).where(eq(sessions.userId, host.id))).length).toBe(0);
    const dash = await get("/dashboard", { cookie: hostCookie });
    expect(dash.status).toBe(302);
    expect(dash.headers.get("Location")).toContain("/signin");
    const signin = await postForm("/signin", { email: host.email, password: "correct-horse-battery" });
    expect(signin.status).toBe(403);
    expect(await pageText(signin)).toContain("This account has been suspended.");

    // Shop, product, profile, games and group buy hidden.
    expect((await get(`/product/${product.id}`)).status).toBe(404);
    expect((await get(`/buy-now/${product.id}`)).status).toBe(404);
    expect((await get(`/profile/${host.id}`)).status).toBe(404);
    expect(await pageText(await get(`/shop?q=${encodeURIComponent("Suspendable Lamp")}`))).not.toContain(
      "Suspendable Lamp",
    );
    expect(await pageText(await get("/guess-win"))).not.toContain("Suspendable's riddle?");
    expect((await get(`/group-buy-detail/${groupBuy.id}`)).status).toBe(404);

    // Checkout to it refused.
    const checkout = await createProductCheckout(env, {
      user: fanUser,
      productId: product.id,
      sizeName: "One",
      colorName: "Blue",
      quantity: 1,
      origin: ORIGIN,
    });
    expect(checkout).toMatchObject({ ok: false, status: 403, message: CHECKOUT_MESSAGES.hostSuspended });

    // Open pool closed (drawn as usual), group buy cancelled, payouts held, audit row written.
    const [closed] = await db().select().from(prizePools).where(eq(prizePools.id, pool.id));
    expect(closed!.status).toBe("closed");
    expect(closed!.closeReason).toBe("closed_early");
    const [gb] = await db().select().from(groupBuys).where(eq(groupBuys.id, groupBuy.id));
    expect(gb!.status).toBe("cancelled");
    expect((await profileOf(host.id)).payoutsHeld).toBe(true);
    const audit = await latestAudit();
    expect(audit).toMatchObject({ action: "user_status_changed", adminId: admin.id, targetUserId: host.id });
    expect(audit.detail).toMatchObject({
      from: "active",
      to: "suspended",
      poolClosed: pool.id,
      groupBuysCancelled: [groupBuy.id],
    });

    // The audit log is shown on the page.
    const adminPage = await pageText(await get("/admin", { cookie: admin.cookie }));
    expect(adminPage).toContain("Audit log");
    expect(adminPage).toContain(
      "active → suspended, sessions ended, payouts held, open pool closed, 1 group buy cancelled",
    );

    // Re-activated: sign-in, shop, game and checkout all come back; the hold is released.
    const back = await setStatus(admin.cookie, host.id, "active");
    expect(back.status).toBe(200);
    expect((await profileOf(host.id)).payoutsHeld).toBe(false);
    const cookieAgain = await signIn(host.email);
    expect((await get("/dashboard", { cookie: cookieAgain })).status).toBe(200);
    expect((await get(`/product/${product.id}`)).status).toBe(200);
    expect((await get(`/profile/${host.id}`)).status).toBe(200);
    // The game ran inside the pool round that the suspension closed: it ended with it and does not come back.
    expect(await pageText(await get("/guess-win"))).not.toContain("Suspendable's riddle?");
    const [ended] = await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id));
    expect(ended!.status).toBe("completed");
    const again = await createProductCheckout(env, {
      user: fanUser,
      productId: product.id,
      sizeName: "One",
      colorName: "Blue",
      quantity: 1,
      origin: ORIGIN,
    });
    expect(again.ok).toBe(true);
    expect((await get(`/view-game/${game.id}`, { cookie: cookieAgain })).status).not.toBe(404);
  });

  it("holds the account's payouts while suspended and starts them on re-activation", async () => {
    const admin = await signedInAdmin();
    const host = await makeUser({ name: "Held Host" });
    const [payout] = await db()
      .insert(payouts)
      .values({ userId: host.id, amountCents: 2500, payoutType: "host_earnings", status: "pending" })
      .returning();
    await setStatus(admin.cookie, host.id, "suspended");
    const held = await processPayout(env, ORIGIN, payout!.id);
    expect(held?.status).toBe("pending");

    await setStatus(admin.cookie, host.id, "active");
    const [after] = await db().select().from(payouts).where(eq(payouts.id, payout!.id));
    // Started at re-activation (it fails here only because this test account has no payout method).
    expect(after!.status).not.toBe("pending");
    expect((await latestAudit()).detail).toMatchObject({ from: "suspended", to: "active", payoutsReleased: true });
  });

  it("refuses a bad status, an unknown user and the admin's own account, changing nothing", async () => {
    const admin = await signedInAdmin();
    const host = await makeUser({ name: "Steady Host" });
    const bad = await setStatus(admin.cookie, host.id, "banished");
    expect(bad.status).toBe(400);
    expect(await pageText(bad)).toContain(ADMIN_MESSAGES.invalidStatus);
    expect((await setStatus(admin.cookie, crypto.randomUUID(), "suspended")).status).toBe(404);
    const own = await setStatus(admin.cookie, admin.id, "suspended");
    expect(own.status).toBe(409);
    expect((await profileOf(admin.id)).status).toBe("active");
    expect((await profileOf(host.id)).status).toBe("active");
  });
});

describe("Game Pause", () => {
  it("pauses an active game (hidden from the feed) and resumes it, each with an audit row", async () => {
    const admin = await signedInAdmin();
    const { game } = await hostWithShop("Pausable");
    const paused = await postForm("/admin", { intent: "pause", gameId: game.id }, { cookie: admin.cookie });
    expect(paused.status).toBe(200);
    expect(await pageText(paused)).toContain(ADMIN_MESSAGES.gamePaused);
    const [row] = await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id));
    expect(row!.status).toBe("paused");
    expect(await latestAudit()).toMatchObject({ action: "game_paused", targetGameId: game.id });
    expect(await pageText(await get("/guess-win"))).not.toContain("Pausable's riddle?");

    const resumed = await postForm("/admin", { intent: "pause", gameId: game.id }, { cookie: admin.cookie });
    expect(await pageText(resumed)).toContain(ADMIN_MESSAGES.gameResumed);
    expect(await latestAudit()).toMatchObject({ action: "game_resumed", targetGameId: game.id });

    expect((await postForm("/admin", { intent: "pause", gameId: "nope" }, { cookie: admin.cookie })).status).toBe(404);

    // A completed game stays completed.
    await db().update(guessWinGames).set({ status: "completed" }).where(eq(guessWinGames.id, game.id));
    const refused = await postForm("/admin", { intent: "pause", gameId: game.id }, { cookie: admin.cookie });
    expect(refused.status).toBe(409);
    expect(await pageText(refused)).toContain(ADMIN_MESSAGES.gameNotPausable);
    const [after] = await db().select().from(guessWinGames).where(eq(guessWinGames.id, game.id));
    expect(after!.status).toBe("completed");
  });
});

describe("revenue distribution rules", () => {
  function rulesForm(over: Record<string, string> = {}) {
    return {
      intent: "rules",
      "shop_sales.pool": "12",
      "shop_sales.host": "85",
      "shop_sales.platform": "3",
      "guess_win_entries.pool": "100",
      "guess_win_entries.host": "0",
      "guess_win_entries.platform": "0",
      "group_buy_sales.pool": "10",
      "group_buy_sales.host": "90",
      "group_buy_sales.platform": "0",
      "ad_revenue.pool": "30",
      "ad_revenue.host": "50",
      "ad_revenue.platform": "20",
      ...over,
    };
  }

  async function storedRules() {
    const [row] = await db()
      .select()
      .from(platformSettings)
      .where(eq(platformSettings.settingKey, REVENUE_RULES_SETTING_KEY));
    return row?.settingValue;
  }

  it("refuses shares that do not add up to 100% and changes nothing", async () => {
    const admin = await signedInAdmin();
    const before = await storedRules();
    const res = await postForm("/admin", rulesForm({ "shop_sales.host": "80" }), { cookie: admin.cookie });
    expect(res.status).toBe(400);
    expect(await pageText(res)).toContain("Shop sales: the shares must add up to 100% (now 95%).");
    const text = await postForm("/admin", rulesForm({ "ad_revenue.pool": "abc" }), { cookie: admin.cookie });
    expect(text.status).toBe(400);
    expect(await pageText(text)).toContain(
      "Ad revenue: each share must be a number from 0 to 100 with at most two decimals.",
    );
    expect(await storedRules()).toEqual(before);
  });

  it("saves valid rules, audits them and shows them in the form", async () => {
    const admin = await signedInAdmin();
    const res = await postForm("/admin", rulesForm(), { cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect(await pageText(res)).toContain(ADMIN_MESSAGES.rulesSaved);
    expect(await storedRules()).toMatchObject({
      shop_sales: { prize_pool_contribution: 12, host_share: 85, platform_fee: 3 },
    });
    expect(await latestAudit()).toMatchObject({ action: "revenue_rules_updated", adminId: admin.id });
    // The form shows the saved values.
    const page = await get("/admin", { cookie: admin.cookie });
    expect(await page.text()).toMatch(/name="shop_sales\.pool"[^>]*value="12"|value="12"[^>]*name="shop_sales\.pool"/);
  });
});
