import { env } from "cloudflare:test";
import {
  groupBuys,
  guessWinGames,
  miniPrizeWinners,
  orders,
  prizeMiniPrizes,
  prizePools,
  products,
  productSizes,
  vouchers,
} from "~/db/schema";
import { orderNumber, voucherCode } from "~/domain/orders";
import { db, makeUser, signIn } from "../helpers";

// Every mutating entry point of the app, derived from the source so that a new one cannot go untested: the page
// routes (app/routes.ts) whose module exports an `action`, and the Hono API's POST/PUT/PATCH/DELETE routes
// (workers/api.ts and the routers it mounts). Shared by tests/roles.test.ts and tests/fuzz.test.ts.

const routeModules = import.meta.glob<string>("/app/routes/**/*.tsx", {
  query: "?raw",
  import: "default",
  eager: true,
});
const routeConfig = import.meta.glob<string>("/app/routes.ts", { query: "?raw", import: "default", eager: true });
const workerModules = import.meta.glob<string>("/workers/*.ts", { query: "?raw", import: "default", eager: true });

export type Mutation = { key: string; method: string; path: string; intents: string[] };

const ACTION_EXPORT = /export\s+(?:async\s+)?function\s+action\b|export\s+const\s+action\b/;

/** Page routes with an action: key "routes/<file>.tsx", path the first URL pattern that uses the module. */
export function pageMutations(): Mutation[] {
  const config = Object.values(routeConfig)[0] ?? "";
  const pathOf = new Map<string, string>();
  for (const m of config.matchAll(/route\(\s*"([^"]+)",\s*"(routes\/[^"]+)"/g)) {
    if (!pathOf.has(m[2]!)) pathOf.set(m[2]!, `/${m[1]}`);
  }
  for (const m of config.matchAll(/index\(\s*"(routes\/[^"]+)"/g)) pathOf.set(m[1]!, "/");
  const found: Mutation[] = [];
  for (const [file, text] of Object.entries(routeModules)) {
    if (!ACTION_EXPORT.test(text)) continue;
    const key = file.replace(/^\/app\//, "");
    const path = pathOf.get(key);
    if (!path) continue; // a module no route uses serves nothing
    const intents = new Set<string>();
    for (const m of text.matchAll(/intent\s*===\s*"([\w-]+)"/g)) intents.add(m[1]!);
    for (const m of text.matchAll(/name="intent"\s+value="([\w-]+)"/g)) intents.add(m[1]!);
    for (const m of text.matchAll(/case\s+"([\w-]+)":/g)) intents.add(m[1]!);
    found.push({ key, method: "POST", path, intents: [...intents].sort() });
  }
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

/** API routes that change state: key "METHOD /api/…". */
export function apiMutations(): Mutation[] {
  const api = workerModules["/workers/api.ts"] ?? "";
  const fileOf = new Map<string, string>();
  for (const m of api.matchAll(/import\s*\{\s*(\w+)\s*\}\s*from\s*"\.\/([\w-]+)"/g))
    fileOf.set(m[1]!, `/workers/${m[2]}.ts`);
  const found: Mutation[] = [];
  for (const m of api.matchAll(/api\.route\(\s*"([^"]+)",\s*(\w+)\s*\)/g)) {
    const [, prefix, router] = m;
    const text = workerModules[fileOf.get(router!) ?? ""] ?? "";
    for (const r of text.matchAll(new RegExp(`\\b${router}\\.(post|put|patch|delete)\\(\\s*"([^"]*)"`, "g"))) {
      const method = r[1]!.toUpperCase();
      const path = `/api${prefix}${r[2] === "/" ? "" : r[2]}`;
      found.push({ key: `${method} ${path}`, method, path, intents: [] });
    }
  }
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

export type World = {
  owner: { id: string; email: string; cookie: string };
  fan: { id: string; email: string; cookie: string };
  otherHost: { id: string; email: string; cookie: string };
  admin: { id: string; email: string; cookie: string };
  ids: {
    productId: string;
    gameId: string;
    groupBuyId: string;
    orderId: string;
    orderNumber: string;
    code: string;
    miniPrizeWinnerId: string;
  };
};

/**
 * The owner (a host with a product, a game, a group buy, a sold order and its voucher, a drawn pool whose mini prize
 * the fan won), a fan, another host, an admin.
 */
export async function makeWorld(): Promise<World> {
  const owner = await makeUser({ name: "Owner Host" });
  const fan = await makeUser({ name: "Plain Fan" });
  const otherHost = await makeUser({ name: "Other Host" });
  const admin = await makeUser({ name: "Platform Owner", role: "admin" });
  const d = db();
  const productId = crypto.randomUUID();
  const gameId = crypto.randomUUID();
  const groupBuyId = crypto.randomUUID();
  const orderId = crypto.randomUUID();
  const sessionId = `cs_test_${crypto.randomUUID().replace(/-/g, "")}`;
  await d.insert(products).values({
    id: productId,
    hostId: owner.id,
    name: "Owner Lamp",
    category: "voucher",
    priceMinCents: 2500,
    priceMaxCents: 2500,
  });
  await d
    .insert(productSizes)
    .values({ id: crypto.randomUUID(), productId, name: "Standard", priceCents: 2500, availableUnits: 5, position: 0 });
  await d.insert(products).values({
    id: crypto.randomUUID(),
    hostId: otherHost.id,
    name: "Other Lamp",
    category: "physical",
    priceMinCents: 900,
    priceMaxCents: 900,
  });
  await d.insert(guessWinGames).values({
    id: gameId,
    hostId: owner.id,
    question: "How many lamps?",
    options: ["1", "2"],
    correctAnswer: "2",
    entryFeeCents: 300,
  });
  await d.insert(groupBuys).values({
    id: groupBuyId,
    hostId: owner.id,
    name: "Lamp group buy",
    status: "active",
    targetCents: 100_000,
    endAt: new Date(Date.now() + 86_400_000),
  });
  const number = orderNumber(sessionId, orderId);
  await d.insert(orders).values({
    id: orderId,
    orderNumber: number,
    userId: fan.id,
    hostId: owner.id,
    productId,
    checkoutSessionId: sessionId,
    status: "paid",
    amountCents: 2500,
    unitPriceCents: 2500,
    quantity: 1,
    currency: "USD",
    productName: "Owner Lamp",
  });
  const code = voucherCode(orderId);
  await d.insert(vouchers).values({
    id: crypto.randomUUID(),
    code,
    orderId,
    productId,
    hostId: owner.id,
    buyerId: fan.id,
    valueCents: 2500,
    expiresAt: new Date(Date.now() + 30 * 86_400_000),
  });
  const poolId = crypto.randomUUID();
  const miniPrizeId = crypto.randomUUID();
  const miniPrizeWinnerId = crypto.randomUUID();
  await d.insert(prizePools).values({
    id: poolId,
    hostId: owner.id,
    status: "drawn",
    targetCents: 10_000,
    amountCents: 10_000,
    endAt: new Date(Date.now() - 86_400_000),
    drawBlockHash: "00000000000000000002a7c4c1e48d76c5a37902165a270156b7a8d72728a054",
    drawnAt: new Date(),
  });
  await d
    .insert(prizeMiniPrizes)
    .values({ id: miniPrizeId, poolId, hostId: owner.id, name: "Owner poster", quantityText: "1" });
  await d
    .insert(miniPrizeWinners)
    .values({ id: miniPrizeWinnerId, miniPrizeId, poolId, userId: fan.id, entryNumber: 1 });
  const withCookie = async (u: { id: string; email: string }) => ({ ...u, cookie: await signIn(u.email) });
  return {
    owner: await withCookie(owner),
    fan: await withCookie(fan),
    otherHost: await withCookie(otherHost),
    admin: await withCookie(admin),
    ids: { productId, gameId, groupBuyId, orderId, orderNumber: number, code, miniPrizeWinnerId },
  };
}

/** The concrete URL of a mutation for this world (route parameters point at the owner's things). */
export function urlOf(m: Mutation, w: World): string {
  return m.path
    .replace(":orderNumber", w.ids.orderNumber)
    .replace(":code", w.ids.code)
    .replace(":poolId", crypto.randomUUID())
    .replace(":accountId", "acct_unknown")
    .replace(":uploadId", "upload-unknown")
    .replace(":n", "1")
    .replace(/^\/(profile|chat)\/:id/, `/$1/${w.owner.id}`)
    .replace(/^\/(edit-game|view-game)\/:id/, `/$1/${w.ids.gameId}`)
    .replace(/^\/(group-buy-detail|group-buy-product-selection)\/:id/, `/$1/${w.ids.groupBuyId}`)
    .replace(/^\/transaction\/:id/, `/transaction/${w.ids.orderId}`)
    .replace(/^\/enter-free\/:hostId/, `/enter-free/${w.owner.id}`)
    .replace(/^\/api\/local-checkout\/:id/, `/api/local-checkout/cs_unknown`)
    .replace(/:id/, w.ids.productId);
}

/** Fields that name the owner's things under every name the forms use. */
export function ownerFields(w: World, intent?: string): Record<string, string> {
  return {
    ...(intent ? { intent } : {}),
    id: w.ids.productId,
    productId: w.ids.productId,
    gameId: w.ids.gameId,
    groupBuyId: w.ids.groupBuyId,
    orderId: w.ids.orderId,
    orderNumber: w.ids.orderNumber,
    code: w.ids.code,
    miniPrizeWinnerId: w.ids.miniPrizeWinnerId,
    hostId: w.owner.id,
    userId: w.owner.id,
    status: "shipped",
    trackingNumber: "TRK-ROLE-1",
    confirmText: "DELETE",
    answer: "2",
    name: "Renamed by someone else",
    message: "hello",
    amount: "10",
  };
}

const IGNORED_TABLES = new Set(["auth_throttle", "d1_migrations", "_cf_KV", "_cf_METADATA"]);
/** Counters any page view moves (a refused form re-renders its page): not data a request changes. */
const IGNORED_COLUMNS = new Set(["view_count"]);

/** Everything in D1 (but the sign-in throttle's counters), to tell whether a request changed anything. */
export async function snapshot(): Promise<string> {
  const tables = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{
    name: string;
  }>();
  const names = tables.results.map((t) => t.name).filter((n) => !IGNORED_TABLES.has(n) && !n.startsWith("sqlite_"));
  const rows = await env.DB.batch(names.map((n) => env.DB.prepare(`SELECT * FROM "${n}"`)));
  return JSON.stringify(
    names.map((n, i) => [
      n,
      rows[i]!.results.map((row) =>
        JSON.stringify(row, (key, value) => (IGNORED_COLUMNS.has(key) ? undefined : value)),
      ).sort(),
    ]),
  );
}
