import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { vi } from "vitest";
import {
  groupBuyProducts,
  groupBuys,
  groupBuyTiers,
  guessWinGames,
  products,
  productSizes,
  userProfiles,
  userShippingCountries,
} from "~/db/schema";
import { sha256Hex } from "~/domain/draw";
import { explorerBases } from "~/lib/draw.server";
import { openPool } from "~/lib/pools.server";
import type { SessionUser } from "~/lib/session.server";
import { createAccount } from "~/db/queries/accounts.server";
import { hashPassword } from "~/lib/password.server";
import { ADULT_DATE_OF_BIRTH, db, PASSWORD, sessionUserOf, uniqueEmail } from "../helpers";
import { fixtureBlock } from "../support/draw";
import { testedWorker } from "../support/built-worker";
import { deliverWebhook } from "../support/webhooks";
import { LARGEST_CART, LARGEST_JOIN } from "./config";

// One run's world: fresh hosts, fans, products, games, group buys and pools (so a run's checks see only its own
// money), the clock the test controls, and fake block explorers. Everything the Worker does runs for real.

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Where every run's clock starts: a fixed day, so runs replay exactly. */
const START = Date.parse("2027-02-01T09:00:00Z");

export type Host = SessionUser & { index: number };
export type ProductInfo = { id: string; hostId: string; priceCents: number; units: number; physical: boolean };
export type GroupBuyInfo = { id: string; hostId: string; productIds: string[]; endAt: number };

export type World = {
  hosts: Host[];
  fans: SessionUser[];
  /** Each host's products: digital (no shipping), some with little stock. */
  products: ProductInfo[];
  games: { id: string; hostId: string; options: string[] }[];
  groupBuys: GroupBuyInfo[];
  explorer: FakeExplorer;
};

/** Where the model's fans ship to (every host ships there), as the buyer enters it on the checkout page. */
export const SHIPPING = {
  name: "Model Fan",
  street: "1 Jalan Model",
  city: "George Town",
  state: "Penang",
  postal_code: "10200",
  country: "MY",
};

/** The test's clock: Date (and so Date.now) in the test and in the Worker, which share the isolate. */
export const clock = {
  now: START,
  set(ms: number) {
    this.now = ms;
    vi.setSystemTime(new Date(ms));
  },
  advance(ms: number) {
    this.set(this.now + ms);
  },
};

// --- block explorers --------------------------------------------------------------------------------------------

/** The real blocks the model's draws use, in turn: a redraw commits afresh to the other one. */
export const DRAW_BLOCKS = [fixtureBlock(503252), fixtureBlock(840000)] as const;
const HIGHEST = Math.max(...DRAW_BLOCKS.map((b) => b.height));

/**
 * Two fake Esplora explorers that agree. Until the test mines past them (`confirm`) their tip is 3 below the first
 * draw block; then both draw blocks are confirmed and served. Their other blocks have made-up hashes with no headers,
 * so the cron never agrees on a tip and commits nothing by itself: the Draw command records each commitment at its
 * block's parent (tests/support/draw.ts), the only tip a fixture block provably descends from. Installed as the
 * isolate's fetch.
 */
export class FakeExplorer {
  tip = DRAW_BLOCKS[0].height - 3;
  confirm() {
    this.tip = HIGHEST + 10;
  }
  reset() {
    this.tip = DRAW_BLOCKS[0].height - 3;
  }
  install() {
    const bases = explorerBases(env);
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      const base = bases.find((b) => url.startsWith(`${b.replace(/\/+$/, "")}/`));
      if (!base) throw new TypeError(`network disabled in the model test: ${url}`);
      const path = url.slice(base.replace(/\/+$/, "").length);
      if (path === "/blocks/tip/height") return new Response(String(this.tip));
      const atHeight = /^\/block-height\/(\d+)$/.exec(path);
      if (atHeight) {
        const height = Number(atHeight[1]);
        const block = DRAW_BLOCKS.find((b) => b.height === height);
        if (block && this.tip >= height) return new Response(block.id);
        if (height <= this.tip) return new Response(await sha256Hex(`main:${height}`));
        return new Response("Block not found", { status: 404 });
      }
      const byHash = /^\/block\/([0-9a-f]{64})$/.exec(path);
      const block = DRAW_BLOCKS.find((b) => b.id === byHash?.[1]);
      if (block) return Response.json(block);
      return new Response("Not found", { status: 404 });
    });
  }
}

// --- the world --------------------------------------------------------------------------------------------------

/** Enough products that the largest join (one host's) and the largest cart (both hosts') name each product once. */
const PRODUCTS_PER_HOST = Math.max(LARGEST_JOIN, Math.ceil(LARGEST_CART / 2), 12);

let passwordHash: string | null = null;

/** An account (nobody signs in: the commands call the server code as the user), its password hashed once per file. */
async function makeUser({ name }: { name: string }): Promise<{ id: string; email: string }> {
  passwordHash ??= await hashPassword(PASSWORD);
  const email = uniqueEmail("model");
  const created = await createAccount(db(), {
    email,
    passwordHash,
    name,
    emailConfirmed: true,
    dateOfBirth: ADULT_DATE_OF_BIRTH,
  });
  if (!created) throw new Error(`could not create ${email}`);
  return { id: created.userId, email };
}

async function host(index: number, runId: string): Promise<Host> {
  const name = `Model Host ${index} ${runId}`;
  const user = await makeUser({ name });
  await db().update(userProfiles).set({ country: "MY" }).where(eq(userProfiles.userId, user.id));
  await db().insert(userShippingCountries).values({ hostId: user.id, countryCode: "MY" });
  return { ...sessionUserOf(user, name), index };
}

/** A product (physical: shipped in Malaysia, several units a line; else digital, one unit) with one size "One Size". */
async function product(
  hostId: string,
  name: string,
  priceCents: number,
  units: number,
  physical: boolean,
): Promise<ProductInfo> {
  const category = physical ? "physical" : "digital";
  const [p] = await db()
    .insert(products)
    .values({
      hostId,
      name,
      category,
      basePriceCents: priceCents,
      priceMinCents: priceCents,
      priceMaxCents: priceCents,
    })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: p!.id, name: "One Size", priceCents, availableUnits: units, position: 0 });
  return { id: p!.id, hostId, priceCents, units, physical };
}

/** A group buy of `productIds` by `hostId`, ending `endsIn` from now, with three tiers (RM). */
export async function newGroupBuy(hostId: string, productIds: string[], endsIn = 2 * DAY): Promise<GroupBuyInfo> {
  const endAt = clock.now + endsIn;
  const [g] = await db()
    .insert(groupBuys)
    .values({
      hostId,
      name: `Model group buy ${productIds.length}`,
      status: "active",
      targetCents: 100_000,
      currency: "MYR",
      endAt: new Date(endAt),
    })
    .returning();
  await db()
    .insert(groupBuyTiers)
    .values([
      { groupBuyId: g!.id, salesThresholdCents: 0, discountPercent: 5, position: 0 },
      { groupBuyId: g!.id, salesThresholdCents: 30_000, discountPercent: 10, position: 1 },
      { groupBuyId: g!.id, salesThresholdCents: 100_000, discountPercent: 20, position: 2 },
    ]);
  await db()
    .insert(groupBuyProducts)
    .values(productIds.map((productId) => ({ groupBuyId: g!.id, productId })));
  return { id: g!.id, hostId, productIds, endAt };
}

/** A host's new Guess & Win game (the host publishes one again once its pool round ended the last). */
export async function newGame(h: Host): Promise<World["games"][number]> {
  const [g] = await db()
    .insert(guessWinGames)
    .values({
      hostId: h.id,
      question: `How many? (${h.index})`,
      options: ["1", "2", "3"],
      correctAnswer: "2",
      entryFeeCents: 150 + h.index * 75,
      status: "active",
      publishedAt: new Date(clock.now),
    })
    .returning();
  return { id: g!.id, hostId: h.id, options: ["1", "2", "3"] };
}

export async function makeWorld(): Promise<World> {
  clock.set(START);
  const runId = crypto.randomUUID().slice(0, 6);
  const hosts = [await host(0, runId), await host(1, runId)];
  const fans = [
    sessionUserOf(await makeUser({ name: `Model Fan A ${runId}` }), "Model Fan A"),
    sessionUserOf(await makeUser({ name: `Model Fan B ${runId}` }), "Model Fan B"),
  ];
  const list: ProductInfo[] = [];
  for (const h of hosts) {
    for (let i = 0; i < PRODUCTS_PER_HOST; i++) {
      // Prices from USD 3.33 to 47.77 (odd cents, so every split rounds); every other one physical; every fourth one
      // has only 3 units.
      const price = 333 + ((i * 397 + h.index * 211) % 4_444);
      list.push(await product(h.id, `Model Item ${h.index}.${i}`, price, i % 4 === 3 ? 3 : 60, i % 2 === 1));
    }
  }
  const games = [];
  for (const h of hosts) games.push(await newGame(h));
  for (const h of hosts)
    await openPool(env, { hostId: h.id, targetCents: 1_000_000, durationDays: 3, now: new Date(clock.now) });
  const own = list.filter((p) => p.hostId === hosts[0]!.id).slice(0, Math.max(LARGEST_JOIN, 3));
  const groupBuy = await newGroupBuy(
    hosts[0]!.id,
    own.map((p) => p.id),
  );
  const explorer = new FakeExplorer();
  explorer.install();
  return { hosts, fans, products: list, games, groupBuys: [groupBuy], explorer };
}

// --- the Worker ----------------------------------------------------------------------------------------------------

let worker: ExportedHandler<Env> | null = null;

/** The Worker's cron handler at the test's clock. */
export async function runCron(): Promise<void> {
  worker ??= await testedWorker();
  const ctx = createExecutionContext();
  await worker.scheduled!(
    createScheduledController({ scheduledTime: new Date(clock.now), cron: "* * * * *" }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

/** Delivers an event to the Worker's webhook, signed as the provider signs it, and answers the HTTP status. */
export async function deliver(event: object): Promise<number> {
  const response = await deliverWebhook(event);
  await response.arrayBuffer();
  return response.status;
}
