import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import * as schema from "~/db/schema";

// The database constraints the product relies on. Tests share one database within this file, so every test
// creates its own users (fresh random ids and emails) and never depends on another test's rows.

const db = drizzle(env.DB, { schema });
const DAY_MS = 24 * 60 * 60 * 1000;

/** The messages of an error and its causes (drizzle wraps the D1 error as `cause`). */
function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  while (current instanceof Error && parts.length < 5) {
    parts.push(current.message);
    current = current.cause;
  }
  return parts.length ? parts.join(" | ") : String(error);
}

/** Asserts that a write is refused by the database with a message matching `pattern`. */
async function expectRejected(write: PromiseLike<unknown>, pattern: RegExp) {
  const outcome = await Promise.resolve(write).then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome, "expected the database to reject the write").not.toBeNull();
  expect(errorText(outcome)).toMatch(pattern);
}

async function createUser() {
  const id = crypto.randomUUID();
  const [user] = await db
    .insert(schema.users)
    .values({ id, email: `${id}@example.test`, passwordHash: "scrypt$16384$8$1$c2FsdA==$aGFzaA==" })
    .returning();
  return user;
}

async function createProduct(hostId: string) {
  const [product] = await db
    .insert(schema.products)
    .values({ id: crypto.randomUUID(), hostId, name: "Mug", basePriceCents: 1500 })
    .returning();
  return product;
}

async function createGame(hostId: string) {
  const [game] = await db
    .insert(schema.guessWinGames)
    .values({
      id: crypto.randomUUID(),
      hostId,
      question: "Which colour?",
      options: ["Red", "Blue"],
      correctAnswer: "Red",
      entryFeeCents: 300,
    })
    .returning();
  return game;
}

async function createPool(hostId: string, status: schema.PrizePool["status"] = "open") {
  const [pool] = await db
    .insert(schema.prizePools)
    .values({
      id: crypto.randomUUID(),
      hostId,
      status,
      targetCents: 1_000_000,
      endAt: new Date(Date.now() + 30 * DAY_MS),
    })
    .returning();
  return pool;
}

async function createOrder(hostId: string, productId: string, buyerId: string) {
  const id = crypto.randomUUID();
  const [order] = await db
    .insert(schema.orders)
    .values({
      id,
      orderNumber: `ORD-${id.slice(-8).toUpperCase()}`,
      userId: buyerId,
      hostId,
      productId,
      amountCents: 5000,
      unitPriceCents: 5000,
      productName: "Voucher",
      productCategory: "voucher",
    })
    .returning();
  return order;
}

describe("users", () => {
  it("rejects a duplicate email", async () => {
    const user = await createUser();
    await expectRejected(
      db.insert(schema.users).values({ id: crypto.randomUUID(), email: user.email, passwordHash: "x" }),
      /UNIQUE constraint failed: users\.email/,
    );
  });

  it("stores emails lowercase only", async () => {
    const id = crypto.randomUUID();
    await expectRejected(
      db.insert(schema.users).values({ id, email: `Fan-${id}@Example.test`, passwordHash: "x" }),
      /CHECK constraint failed/,
    );
  });

  it("fills role and timestamps by default", async () => {
    const before = Date.now();
    const user = await createUser();
    expect(user.role).toBe("user");
    expect(user.createdAt).toBeInstanceOf(Date);
    expect(user.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(user.updatedAt.getTime()).toBe(user.createdAt.getTime());
  });
});

describe("user_profiles", () => {
  it("applies a new profile's defaults", async () => {
    const user = await createUser();
    await db.insert(schema.userProfiles).values({ userId: user.id, creatorName: "fan", email: user.email });
    const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, user.id) });
    expect(profile).toMatchObject({
      prizePoolTargetCents: 1_000_000,
      prizePoolAutoRenew: true,
      country: "MY",
      category: "General",
      followersCount: 0,
      showRevenue: false,
      showFollowers: true,
      profilePublic: true,
      verified: false,
      status: "active",
      currency: "USD",
      emailNotifications: true,
      pushNotifications: true,
      winnerNotifications: true,
      salesNotifications: true,
      slug: null,
    });
  });

  it("allows one profile per user", async () => {
    const user = await createUser();
    await db.insert(schema.userProfiles).values({ userId: user.id, creatorName: "fan", email: user.email });
    await expectRejected(
      db.insert(schema.userProfiles).values({ userId: user.id, creatorName: "again", email: user.email }),
      /UNIQUE constraint failed: user_profiles\.user_id/,
    );
  });
});

describe("likes, tribes, shares, free guesses", () => {
  it("rejects a duplicate product like", async () => {
    const host = await createUser();
    const fan = await createUser();
    const other = await createUser();
    const product = await createProduct(host.id);
    await db.insert(schema.productLikes).values({ userId: fan.id, productId: product.id });
    await db.insert(schema.productLikes).values({ userId: other.id, productId: product.id });
    await expectRejected(
      db.insert(schema.productLikes).values({ userId: fan.id, productId: product.id }),
      /UNIQUE constraint failed: product_likes\.user_id, product_likes\.product_id/,
    );
  });

  it("rejects a duplicate tribe membership", async () => {
    const host = await createUser();
    const fan = await createUser();
    await db.insert(schema.tribeMembers).values({ userId: fan.id, hostId: host.id });
    await expectRejected(
      db.insert(schema.tribeMembers).values({ userId: fan.id, hostId: host.id, status: "inactive" }),
      /UNIQUE constraint failed: tribe_members\.user_id, tribe_members\.host_id/,
    );
    const [member] = await db.select().from(schema.tribeMembers).where(eq(schema.tribeMembers.userId, fan.id));
    expect(member.status).toBe("active");
    expect(member.joinedAt).toBeInstanceOf(Date);
  });

  it("rejects a duplicate game share", async () => {
    const host = await createUser();
    const fan = await createUser();
    const game = await createGame(host.id);
    const otherGame = await createGame(host.id);
    await db.insert(schema.gameShares).values({ userId: fan.id, gameId: game.id, hostId: host.id });
    await db.insert(schema.gameShares).values({ userId: fan.id, gameId: otherGame.id, hostId: host.id });
    await expectRejected(
      db.insert(schema.gameShares).values({ userId: fan.id, gameId: game.id, hostId: host.id }),
      /UNIQUE constraint failed: game_shares\.user_id, game_shares\.game_id/,
    );
  });

  it("rejects a second free guess on the same game", async () => {
    const host = await createUser();
    const fan = await createUser();
    const game = await createGame(host.id);
    await db.insert(schema.freeGuessUsage).values({ userId: fan.id, gameId: game.id });
    await expectRejected(
      db.insert(schema.freeGuessUsage).values({ userId: fan.id, gameId: game.id }),
      /UNIQUE constraint failed: free_guess_usage\.user_id, free_guess_usage\.game_id/,
    );
  });
});

describe("prize pools", () => {
  it("allows one open pool per host", async () => {
    const host = await createUser();
    const otherHost = await createUser();
    const first = await createPool(host.id);
    await createPool(otherHost.id);
    await expectRejected(createPool(host.id), /UNIQUE constraint failed: prize_pools\.host_id/);

    await db
      .update(schema.prizePools)
      .set({ status: "closed", closeReason: "timer_expired", closedAt: new Date() })
      .where(eq(schema.prizePools.id, first.id));
    const next = await createPool(host.id);
    expect(next.status).toBe("open");
    await createPool(host.id, "closed");
    await expectRejected(createPool(host.id), /UNIQUE constraint failed: prize_pools\.host_id/);
  });

  it("counts a contribution source once", async () => {
    const host = await createUser();
    const pool = await createPool(host.id);
    const sourceKey = `pi_${crypto.randomUUID()}`;
    const contribution = {
      poolId: pool.id,
      hostId: host.id,
      sourceType: "product_purchase" as const,
      sourceKey,
      amountCents: 150,
    };
    await db.insert(schema.prizePoolContributions).values({ id: crypto.randomUUID(), ...contribution });
    await expectRejected(
      db.insert(schema.prizePoolContributions).values({ id: crypto.randomUUID(), ...contribution }),
      /UNIQUE constraint failed: prize_pool_contributions\.source_key/,
    );
  });

  it("rejects a duplicate entry number in a pool", async () => {
    const host = await createUser();
    const otherHost = await createUser();
    const pool = await createPool(host.id);
    const otherPool = await createPool(otherHost.id);
    await db.insert(schema.prizeEntries).values({ poolId: pool.id, entryNumber: 0, sourceKey: "pi_a" });
    await db.insert(schema.prizeEntries).values({ poolId: pool.id, entryNumber: 1, sourceKey: "pi_b" });
    await db.insert(schema.prizeEntries).values({ poolId: otherPool.id, entryNumber: 0, sourceKey: "pi_a" });
    await expectRejected(
      db.insert(schema.prizeEntries).values({ poolId: pool.id, entryNumber: 1, sourceKey: "pi_c" }),
      /UNIQUE constraint failed: prize_entries\.pool_id, prize_entries\.entry_number/,
    );
    await expectRejected(
      db.insert(schema.prizeEntries).values({ poolId: pool.id, entryNumber: 2, sourceKey: "pi_a" }),
      /UNIQUE constraint failed: prize_entries\.pool_id, prize_entries\.source_key/,
    );
  });

  it("allows one main winner per pool", async () => {
    const host = await createUser();
    const pool = await createPool(host.id, "drawn");
    const winner = { poolId: pool.id, winnerName: "fan", prizeAmountCents: 600_000 };
    await db.insert(schema.prizeWinners).values({ ...winner, prizeType: "main", entryNumber: 7 });
    await db.insert(schema.prizeWinners).values({ ...winner, prizeType: "mini" });
    await db.insert(schema.prizeWinners).values({ ...winner, prizeType: "mini" });
    await expectRejected(
      db.insert(schema.prizeWinners).values({ ...winner, prizeType: "main", entryNumber: 8 }),
      /UNIQUE constraint failed: prize_winners\.pool_id/,
    );
  });
});

describe("group buys", () => {
  it("allows one active group buy per host", async () => {
    const host = await createUser();
    const groupBuy = (status: schema.GroupBuy["status"]) =>
      db.insert(schema.groupBuys).values({
        hostId: host.id,
        name: `Group buy ${status}`,
        status,
        targetCents: 100_000,
        endAt: new Date(Date.now() + 7 * DAY_MS),
      });
    await groupBuy("active");
    await groupBuy("draft");
    await groupBuy("completed");
    await expectRejected(groupBuy("active"), /UNIQUE constraint failed: group_buys\.host_id/);
  });
});

describe("vouchers", () => {
  it("rejects a duplicate voucher code", async () => {
    const host = await createUser();
    const buyer = await createUser();
    const product = await createProduct(host.id);
    const firstOrder = await createOrder(host.id, product.id, buyer.id);
    const secondOrder = await createOrder(host.id, product.id, buyer.id);
    expect(firstOrder.status).toBe("processing");
    expect(firstOrder.purchaseMode).toBe("buy-now");
    const code = `VCH-${firstOrder.id.slice(-8).toUpperCase()}`;
    const voucher = {
      code,
      productId: product.id,
      hostId: host.id,
      buyerId: buyer.id,
      valueCents: 5000,
      expiresAt: new Date(Date.now() + 365 * DAY_MS),
    };
    await db.insert(schema.vouchers).values({ ...voucher, orderId: firstOrder.id });
    await expectRejected(
      db.insert(schema.vouchers).values({ ...voucher, orderId: secondOrder.id }),
      /UNIQUE constraint failed: vouchers\.code/,
    );
  });

  it("keeps an order while its product is referenced", async () => {
    const host = await createUser();
    const buyer = await createUser();
    const product = await createProduct(host.id);
    await createOrder(host.id, product.id, buyer.id);
    await expectRejected(
      db.delete(schema.products).where(eq(schema.products.id, product.id)),
      /FOREIGN KEY constraint failed/,
    );
  });
});

describe("checkouts", () => {
  it("finds a checkout by the reference a charge carries through an index, not a scan of every checkout", async () => {
    // findCheckoutByReference: a charge event names our checkout only by metadata.checkout_id.
    const plan = await env.DB.prepare(
      `explain query plan select "id" from "checkout_sessions" where json_extract("checkout_sessions"."metadata", '$.checkout_id') = ? limit 1`,
    )
      .bind("chk_reference")
      .all<{ detail: string }>();
    expect(plan.results.map((row) => row.detail).join("\n")).toContain("USING INDEX checkout_sessions_reference_idx");
  });
});

describe("products", () => {
  it("pages /shop's Most popular through an index, not a sort of every active product", async () => {
    // sortedPage's order for "popular" (app/db/queries/products.server.ts: productOrder), with its visibility filter.
    const plan = await env.DB.prepare(
      `explain query plan select "rowid" from "products" where "status" = 'active'
        and "host_id" not in (select "user_id" from "user_profiles" where "status" = 'suspended')
        order by "like_count" desc, "view_count" desc, "created_at" desc, "id" desc limit 25`,
    ).all<{ detail: string }>();
    const details = plan.results.map((row) => row.detail).join("\n");
    expect(details).toContain("USING INDEX products_status_popular_idx");
    expect(details).not.toContain("TEMP B-TREE");
  });
});
