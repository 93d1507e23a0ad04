import { beforeAll, describe, expect, it } from "vitest";
import { groupBuys, guessWinGames, orders, products, productSizes, vouchers } from "~/db/schema";
import { bookShopSale } from "~/db/queries/earnings.server";
import { DEFAULT_REVENUE_RULES } from "~/domain/revenue";
import { orderNumber, voucherCode } from "~/domain/orders";
import { DEMO_FAN_EMAIL, DEMO_HOST_EMAIL } from "~/lib/demo";
import { cookieFrom, db, get, makeUser, postForm, SESSION } from "./helpers";

type Fixture = {
  host: string;
  fan: string;
  ids: {
    hostId: string;
    productId: string;
    gameId: string;
    groupBuyId: string;
    orderId: string;
    orderNumber: string;
    code: string;
  };
};

let fx: Fixture;

/** The demo accounts as the seed makes them, signed in through the "Try the demo" buttons. */
async function demoSession(intent: "demo-host" | "demo-fan"): Promise<string> {
  const res = await postForm("/signin", { intent });
  expect(res.status).toBe(302);
  return cookieFrom(res, SESSION)!;
}

beforeAll(async () => {
  const host = await makeUser({ email: DEMO_HOST_EMAIL, name: "Demo Host" });
  const fan = await makeUser({ email: DEMO_FAN_EMAIL, name: "Demo Fan" });
  const d = db();
  const productId = crypto.randomUUID();
  const gameId = crypto.randomUUID();
  const groupBuyId = crypto.randomUUID();
  const orderId = crypto.randomUUID();
  const sessionId = `cs_test_${crypto.randomUUID().replace(/-/g, "")}`;
  await d.insert(products).values({
    id: productId,
    hostId: host.id,
    name: "Rattan Lamp",
    category: "voucher",
    priceMinCents: 2500,
    priceMaxCents: 2500,
  });
  await d
    .insert(productSizes)
    .values({ id: crypto.randomUUID(), productId, name: "Standard", priceCents: 2500, availableUnits: 5, position: 0 });
  await d.insert(guessWinGames).values({
    id: gameId,
    hostId: host.id,
    question: "How many lamps did we ship in June?",
    options: ["120", "240", "360"],
    correctAnswer: "240",
    entryFeeCents: 300,
  });
  await d.insert(groupBuys).values({
    id: groupBuyId,
    hostId: host.id,
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
    hostId: host.id,
    productId,
    checkoutSessionId: sessionId,
    status: "paid",
    amountCents: 2500,
    unitPriceCents: 2500,
    quantity: 1,
    currency: "USD",
    productName: "Rattan Lamp",
  });
  // As fulfilment does: the host's share of the paid order in the earnings ledger (its /transaction page).
  await bookShopSale(
    d,
    {
      id: orderId,
      hostId: host.id,
      amountCents: 2500,
      currency: "USD",
      productName: "Rattan Lamp",
      productCategory: "voucher",
      paidAt: new Date(),
    },
    DEFAULT_REVENUE_RULES.shop_sales,
  );
  const code = voucherCode(orderId);
  await d.insert(vouchers).values({
    id: crypto.randomUUID(),
    code,
    orderId,
    productId,
    hostId: host.id,
    buyerId: fan.id,
    valueCents: 2500,
    expiresAt: new Date(Date.now() + 30 * 86_400_000),
  });
  fx = {
    host: await demoSession("demo-host"),
    fan: await demoSession("demo-fan"),
    ids: { hostId: host.id, productId, gameId, groupBuyId, orderId, orderNumber: number, code },
  };
});

function routeTable(ids: Fixture["ids"]): string[] {
  return [
    "/",
    "/shop",
    `/product/${ids.productId}`,
    `/buy-now/${ids.productId}`,
    "/guess-win",
    `/profile/${ids.hostId}`,
    `/profile/${ids.hostId}/shop`,
    `/group-buy-detail/${ids.groupBuyId}`,
    `/group-buy-product-selection/${ids.groupBuyId}`,
    "/signup",
    "/signin",
    "/payment",
    "/payment/success",
    "/payment/cancel",
    "/cart",
    "/winner-selection",
    "/dashboard",
    "/prize-pool-settings",
    "/prize-pool-details",
    "/prize-pool",
    "/tribe",
    "/revenue",
    "/congratulations",
    `/edit-product/${ids.productId}`,
    `/delete-product/${ids.productId}`,
    `/view-product/${ids.productId}`,
    "/add-product",
    `/view-game/${ids.gameId}`,
    `/edit-game/${ids.gameId}`,
    "/create-guess-win",
    "/voucher-scanner",
    "/orders",
    "/voucher-management",
    `/voucher/${ids.code}`,
    "/my-orders",
    "/wishlist",
    "/guess-win?tab=saved",
    "/notifications",
    `/transaction/${ids.orderId}`,
    "/ads-revenue",
    "/payouts",
    `/chat/${ids.hostId}`,
    `/chat?creator=${ids.hostId}`,
    "/admin",
    "/explore",
    "/settings",
    "/settings/shipping",
    "/settings/notifications",
    "/settings/privacy",
    "/settings/account",
    "/settings/responsible-play",
    "/settings?tab=account",
    "/shop-management",
    "/guess-win-management",
    "/prize-pool-management",
    "/revenue-management",
    "/group-buy-management",
    "/shipping-tracking",
    `/order/${ids.orderNumber}`,
    "/official-rules",
    "/terms",
    "/privacy",
    "/forgot-password",
  ];
}

describe("the route table", () => {
  for (const who of ["visitor", "fan", "host"] as const) {
    it(`answers 200, a redirect to /signin or 403 for the ${who}, never an error`, async () => {
      const cookie = who === "visitor" ? null : fx[who];
      const failures: string[] = [];
      for (const path of routeTable(fx.ids)) {
        const res = await get(path, { cookie });
        const location = res.headers.get("Location") ?? "";
        const ok =
          res.status === 200 ||
          res.status === 403 ||
          (res.status === 302 && location.startsWith("/signin")) ||
          // /payment without payment data sends the user to the dashboard, as the original app did.
          (res.status === 302 && path === "/payment" && location === "/dashboard") ||
          // /payment/success without its session_id is bad input: 'No session ID found'.
          (res.status === 400 && path === "/payment/success") ||
          // a signed-in user opening the sign-up or sign-in page goes to the dashboard.
          (res.status === 302 &&
            (path === "/signup" || path === "/signin") &&
            who !== "visitor" &&
            location === "/dashboard") ||
          // /chat?creator={id} and /chat/{userId} open (or create) the pair's conversation, /chat/{conversationId};
          // a host opening a chat with themselves lands on their inbox.
          (res.status === 302 &&
            path.startsWith("/chat") &&
            (location === `/chat/${fx.ids.hostId}` ||
              location === "/chat" ||
              /^\/chat\/[0-9a-f-]{36}$/.test(location ?? ""))) ||
          // a transaction is its host's only: the buyer gets 'Transaction Not Found'.
          (res.status === 404 && path.startsWith("/transaction/") && who === "fan");
        if (!ok) failures.push(`${path} → ${res.status} ${location}`);
        // One main landmark per page: the app shell's (a page's own content never wraps itself in another).
        if (res.status === 200 && (res.headers.get("Content-Type") ?? "").includes("text/html")) {
          const mains = (await res.text()).match(/<main[\s>]/g)?.length ?? 0;
          if (mains !== 1) failures.push(`${path} → ${mains} <main> elements`);
        } else {
          await res.body?.cancel();
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it("gives the host their own pages and keeps the fan out of the host's product tools", async () => {
    expect((await get(`/edit-product/${fx.ids.productId}`, { cookie: fx.host })).status).toBe(200);
    expect((await get(`/edit-product/${fx.ids.productId}`, { cookie: fx.fan })).status).toBe(403);
    expect((await get(`/delete-product/${fx.ids.productId}`, { cookie: fx.fan })).status).toBe(403);
    expect((await get(`/edit-game/${fx.ids.gameId}`, { cookie: fx.fan })).status).toBe(403);
    expect((await get("/admin", { cookie: fx.host })).status).toBe(403);
  });

  const unknown = [
    "/product/00000000-0000-0000-0000-000000000000",
    "/buy-now/00000000-0000-0000-0000-000000000000",
    "/profile/no-such-creator",
    "/profile/no-such-creator/shop",
    "/group-buy-detail/00000000-0000-0000-0000-000000000000",
    "/group-buy-product-selection/00000000-0000-0000-0000-000000000000",
    "/view-game/00000000-0000-0000-0000-000000000000",
    "/voucher/VCH-NOPE0000",
    "/order/ORD-NOPE0000",
    "/transaction/00000000-0000-0000-0000-000000000000",
    "/edit-product/00000000-0000-0000-0000-000000000000",
    "/view-product/%27%3B--",
    "/no/such/page",
  ];
  for (const path of unknown) {
    it(`answers 404 for ${path}`, async () => {
      const res = await get(path, { cookie: fx.host });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toMatch(/at .*\.js:\d+/);
    });
  }

  it("answers an unknown API path with the API's JSON 404, whatever the method", async () => {
    for (const res of [
      await get("/api/no-such-endpoint", { cookie: fx.host }),
      await postForm("/api/no-such-endpoint", {}, { cookie: fx.host }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toContain("application/json");
      expect(await res.json()).toEqual({ error: "Not found" });
    }
  });

  it("gives the host one dashboard tile per destination, the original ones among them", async () => {
    const html = await (await get("/dashboard", { cookie: fx.host })).text();
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    const hrefs = [...main.matchAll(/<a[^>]*href="(\/[^"?#]*)"/g)].map((m) => m[1]);
    for (const to of [
      "/revenue",
      "/shop-management",
      "/guess-win-management",
      "/prize-pool-management",
      "/group-buy-management",
      "/orders",
      "/my-orders",
      "/revenue-management",
    ]) {
      expect(
        hrefs.filter((h) => h === to),
        to,
      ).toHaveLength(1);
    }
  });

  it("shows the creator-not-found page for an unknown profile", async () => {
    const res = await get("/profile/no-such-creator");
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Creator Not Found");
  });
});
