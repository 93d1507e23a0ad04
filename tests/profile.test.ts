import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  groupBuyProducts,
  groupBuys,
  guessWinGames,
  prizeEntries,
  prizeMiniPrizes,
  prizePools,
  prizeWinners,
  products,
  productSizes,
  tribeMembers,
  userProfiles,
  userShippingCountries,
} from "~/db/schema";
import { formatIn } from "~/domain/currency";
import { db, decodedHtml, get, makeUser, postForm, signIn } from "./helpers";

// /profile/{id} (tabs, tribe, coming soon, live pool figures), /profile/{id}/shop and /explore.

const COMING_SOON = "Ahhh! Your country is still in 'coming soon' mode for this brand.";
const token = crypto.randomUUID().slice(0, 6);

let host: { id: string; email: string };
let slug: string;
let poolId: string;
let productId: string;
let gameId: string;
let fan: { id: string; email: string };
let fanCookie: string;

beforeAll(async () => {
  host = await makeUser({ name: `Mireille${token} Home` });
  slug = `mireille-${token}`;
  fan = await makeUser({ name: "Profile Fan" });
  fanCookie = await signIn(fan.email);
  const d = db();
  await d
    .update(userProfiles)
    .set({ slug, country: "MY", category: "Lifestyle & Family", bio: "Handmade homeware." })
    .where(eq(userProfiles.userId, host.id));

  const [pool] = await d
    .insert(prizePools)
    .values({
      hostId: host.id,
      targetCents: 100_000,
      amountCents: 150_000,
      currency: "USD",
      entriesCount: 4,
      endAt: new Date(Date.now() + 2 * 86_400_000),
    })
    .returning({ id: prizePools.id });
  poolId = pool!.id;
  await d.insert(prizeMiniPrizes).values([
    { poolId, hostId: host.id, name: `Tote bag ${token}`, quantityText: "5" },
    { poolId, hostId: host.id, name: `Sticker ${token}`, quantityText: "unlimited" },
  ]);
  await d.insert(prizeEntries).values([
    { poolId, entryNumber: 0, userId: fan.id, sourceKey: `src-${token}-0`, sourceType: "product_purchase" },
    { poolId, entryNumber: 1, userId: host.id, sourceKey: `src-${token}-1`, sourceType: "product_purchase" },
    { poolId, entryNumber: 3, userId: fan.id, sourceKey: `src-${token}-3`, sourceType: "product_purchase" },
  ]);

  const [product] = await d
    .insert(products)
    .values({
      hostId: host.id,
      name: `Linen Throw ${token}`,
      basePriceCents: 1000,
      priceMinCents: 1000,
      priceMaxCents: 2000,
    })
    .returning({ id: products.id });
  productId = product!.id;
  await d.insert(productSizes).values({ productId, name: "One", priceCents: 1000, availableUnits: 3 });

  const [game] = await d
    .insert(guessWinGames)
    .values({
      hostId: host.id,
      question: `Which fabric is our bestseller ${token}?`,
      options: ["Linen", "Cotton", "Wool"],
      correctAnswer: "Wool",
      entryFeeCents: 300,
    })
    .returning({ id: guessWinGames.id });
  gameId = game!.id;
});

describe("/profile/{id}", () => {
  it("shows the profile with its pool, mini prizes and the shop tab by default", async () => {
    const res = await get(`/profile/${slug}`);
    expect(res.status).toBe(200);
    const page = await decodedHtml(res);
    expect(page).toContain(`Mireille${token} Home`);
    expect(page).toContain("Malaysia (MYR)");
    expect(page).toContain("0 tribes");
    expect(page).toContain(formatIn(150_000, "USD", "MYR")); // Prize Pool
    expect(page).toContain(formatIn(100_000, "USD", "MYR")); // Target
    expect(page).toContain(formatIn(90_000, "USD", "MYR")); // Main prize, 60%
    expect(page).toContain('aria-valuenow="100"'); // Progress capped at 100%
    expect(page).toContain(`Tote bag ${token}`);
    expect(page).toContain("5 left");
    expect(page).toContain("Unlimited");
    expect(page).toContain("10% sales power up the prize pool + buyer gets a unique entry number to the main prize");
    expect(page).toContain("Pay in your local currency on the checkout page");
    expect(page).toContain(`Linen Throw ${token}`);
    expect(page).toContain(`/buy-now/${productId}`);
    expect(page).toContain(`/product/${productId}`);
    expect(page).toContain(`/chat?creator=${host.id}`);
    // A visitor has no entry numbers.
    expect(page).not.toContain("Your entry numbers");
  });

  it("answers to the user id as well as the slug, and converts to the chosen currency", async () => {
    const page = await decodedHtml(await get(`/profile/${host.id}?currency=USD`));
    expect(page).toContain("USD 1,500.00");
    expect(page).toContain("USD 10.00 – USD 20.00");
    // The id typed in capitals is the same profile, with its pool and shop.
    const upper = await get(`/profile/${host.id.toUpperCase()}?currency=USD`);
    expect(upper.status).toBe(200);
    const upperPage = await decodedHtml(upper);
    expect(upperPage).toContain("USD 1,500.00");
    expect(upperPage).toContain("USD 10.00 – USD 20.00");
  });

  it("offers Group Buy on the products the host's active group buy offers, and Buy Now on the others", async () => {
    const d = db();
    const [other] = await d
      .insert(products)
      .values({
        hostId: host.id,
        name: `Wool Cushion ${token}`,
        basePriceCents: 1500,
        priceMinCents: 1500,
        priceMaxCents: 1500,
      })
      .returning({ id: products.id });
    await d.insert(productSizes).values({ productId: other!.id, name: "One", priceCents: 1500, availableUnits: 2 });
    const [gb] = await d
      .insert(groupBuys)
      .values({
        hostId: host.id,
        name: "Autumn",
        status: "active",
        targetCents: 100_000,
        endAt: new Date(Date.now() + 86_400_000),
      })
      .returning({ id: groupBuys.id });
    await d.insert(groupBuyProducts).values({ groupBuyId: gb!.id, productId });
    /** The Group Buy or Buy Now link of a product's card. */
    const cardAction = (page: string, id: string) => {
      const card = page.slice(page.indexOf(`data-product-card="${id}"`));
      return card
        .slice(0, card.indexOf("</li>"))
        .match(/href="(\/(?:group-buy-product-selection|buy-now)\/[^"]+)"/)?.[1];
    };
    try {
      for (const path of [`/profile/${slug}`, `/profile/${slug}/shop`]) {
        const page = await decodedHtml(await get(path));
        expect(cardAction(page, productId), path).toBe(`/group-buy-product-selection/${gb!.id}`);
        // Not in the group buy: its selection page would not offer it, so the card keeps Buy Now.
        expect(cardAction(page, other!.id), path).toBe(`/buy-now/${other!.id}`);
      }
    } finally {
      await d.delete(groupBuys).where(eq(groupBuys.id, gb!.id));
      await d.delete(products).where(eq(products.id, other!.id));
    }
  });

  it("shows the signed-in fan their entry numbers", async () => {
    const page = await decodedHtml(await get(`/profile/${slug}`, { cookie: fanCookie }));
    expect(page).toContain("Your entry numbers: 0, 3");
  });

  it("lists the active games without their correct answers", async () => {
    const res = await get(`/profile/${slug}?tab=games`);
    const page = await decodedHtml(res);
    expect(page).toContain(`Which fabric is our bestseller ${token}?`);
    // Guess Now opens that game, where the fan answers and pays; Free Guess opens the feed at this game's card.
    expect(page).toMatch(new RegExp(`<a[^>]*href="/view-game/${gameId}"[^>]*>Guess Now</a>`));
    expect(page).toMatch(new RegExp(`<a[^>]*href="/guess-win\\?game=${gameId}#game-${gameId}"[^>]*>Free Guess</a>`));
    expect(page).not.toContain("correctAnswer");
    expect(page).not.toContain("correct_answer");
    expect(page).not.toContain("10% sales power up the prize pool");
    expect(gameId).toBeTruthy();
  });

  it("says so when there are no games", async () => {
    const other = await makeUser({ name: "Quiet Host" });
    const page = await decodedHtml(await get(`/profile/${other.id}?tab=games`));
    expect(page).toContain("No active Guess & Win games yet");
    const shop = await decodedHtml(await get(`/profile/${other.id}`));
    expect(shop).toContain("No products available yet");
  });

  it("lists real winners with a link to the draw verification", async () => {
    expect(await decodedHtml(await get(`/profile/${slug}?tab=winner`))).toContain("No winners yet");
    const d = db();
    const [closed] = await d
      .insert(prizePools)
      .values({
        hostId: host.id,
        status: "drawn",
        targetCents: 100_000,
        amountCents: 100_000,
        endAt: new Date(Date.now() - 86_400_000),
      })
      .returning({ id: prizePools.id });
    await d.insert(prizeWinners).values({
      poolId: closed!.id,
      winnerName: `Winnie ${token}`,
      prizeAmountCents: 60_000,
      currency: "USD",
      prizeType: "main",
    });
    const page = await decodedHtml(await get(`/profile/${slug}?tab=winner&currency=USD`));
    expect(page).toContain(`Winnie ${token}`);
    expect(page).toContain("USD 600.00");
    expect(page).toContain(`/winner-selection/${closed!.id}`);
  });

  it("answers 404 'Creator Not Found' for an unknown profile, and a private notice for a private one", async () => {
    const res = await get("/profile/no-such-creator-here");
    expect(res.status).toBe(404);
    expect(await decodedHtml(res)).toContain("Creator Not Found");
    const hidden = await makeUser({ name: "Hidden Host" });
    await db()
      .update(userProfiles)
      .set({ profilePublic: false, bio: "Secret bio" })
      .where(eq(userProfiles.userId, hidden.id));
    const privateRes = await get(`/profile/${hidden.id}`);
    expect(privateRes.status).toBe(403);
    const page = await decodedHtml(privateRes);
    expect(page).toContain("This profile is private");
    expect(page).not.toContain("Secret bio");
  });
});

describe("the profile's Guess & Win and Winner tabs", () => {
  it("page through all of a host's games and winners, and say so past the end", async () => {
    const busy = await makeUser({ name: "Busy Host" });
    const start = Date.UTC(2026, 5, 1);
    const games = Array.from({ length: 13 }, (_, i) => ({
      hostId: busy.id,
      question: `Busy question ${String(i + 1).padStart(2, "0")}?`,
      options: ["Yes", "No"],
      correctAnswer: "Yes",
      entryFeeCents: 300,
      createdAt: new Date(start + i * 60_000),
    }));
    for (let i = 0; i < games.length; i += 5)
      await db()
        .insert(guessWinGames)
        .values(games.slice(i, i + 5));
    const [pool] = await db()
      .insert(prizePools)
      .values({
        hostId: busy.id,
        status: "drawn",
        currency: "USD",
        targetCents: 100_000,
        startAt: new Date(start),
        endAt: new Date(start + 86_400_000),
      })
      .returning({ id: prizePools.id });
    const winners = Array.from({ length: 21 }, (_, i) => ({
      poolId: pool!.id,
      winnerName: `Winner ${String(i + 1).padStart(2, "0")}`,
      prizeAmountCents: 1000,
      currency: "USD",
      prizeType: "mini" as const,
      createdAt: new Date(start + i * 60_000),
    }));
    for (let i = 0; i < winners.length; i += 5)
      await db()
        .insert(prizeWinners)
        .values(winners.slice(i, i + 5));

    const first = await decodedHtml(await get(`/profile/${busy.id}?tab=games`));
    expect(first).toContain("Busy question 13?");
    expect(first).not.toContain("Busy question 01?");
    expect(first).toMatch(/href="\/profile\/[^"?]+\?tab=games&(?:amp;)?page=2"/);
    const second = await decodedHtml(await get(`/profile/${busy.id}?tab=games&page=2`));
    expect(second).toContain("Busy question 01?");
    expect(second).not.toContain("Busy question 13?");
    const past = await decodedHtml(await get(`/profile/${busy.id}?tab=games&page=5`));
    expect(past).toContain("No more games");
    expect(past).not.toContain("No active Guess &amp; Win games yet");

    const winnersFirst = await decodedHtml(await get(`/profile/${busy.id}?tab=winner`));
    expect(winnersFirst).toContain("Winner 21");
    expect(winnersFirst).not.toContain("Winner 01");
    const winnersSecond = await decodedHtml(await get(`/profile/${busy.id}?tab=winner&page=2`));
    expect(winnersSecond).toContain("Winner 01");
    expect(winnersSecond).not.toContain("Winner 21");
  });
});

describe("joining a tribe", () => {
  async function followers(id: string) {
    const [row] = await db()
      .select({ n: userProfiles.followersCount })
      .from(userProfiles)
      .where(eq(userProfiles.userId, id));
    return row!.n;
  }

  // Join Tribe is one resource route (/tribe/join) the profile and Guess & Win post to.
  it("asks a visitor to sign in, with a 401 to a fetcher and the message on the profile after a plain form post", async () => {
    const res = await postForm("/tribe/join", { hostId: host.id });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Please sign in to join tribe");

    const native = await postForm("/tribe/join", { hostId: host.id, returnTo: `/profile/${slug}` });
    expect(native.status).toBe(303);
    expect(native.headers.get("Location")).toBe(`/profile/${slug}?tribe=sign-in`);
    expect(await decodedHtml(await get(native.headers.get("Location")!))).toContain("Please sign in to join tribe");
    expect(await followers(host.id)).toBe(0);
  });

  it("refuses a host's own tribe and an unknown host, changing nothing", async () => {
    const own = await postForm("/tribe/join", { hostId: host.id }, { cookie: await signIn(host.email) });
    expect(own.status).toBe(400);
    expect(await own.text()).toContain("This is your own tribe.");
    expect((await postForm("/tribe/join", { hostId: crypto.randomUUID() }, { cookie: fanCookie })).status).toBe(404);
    expect((await postForm("/tribe/join", {}, { cookie: fanCookie })).status).toBe(400);
    expect(await followers(host.id)).toBe(0);
  });

  it("sends a plain form post back to a path on this site only, with the outcome shown on the profile", async () => {
    const tribeHost = await makeUser({ name: "Plain Form Host" });
    const cookie = await signIn((await makeUser({ name: "Plain Joiner" })).email);
    const back = await postForm(
      "/tribe/join",
      { hostId: tribeHost.id, returnTo: `/profile/${tribeHost.id}?tab=games` },
      { cookie },
    );
    expect(back.status).toBe(303);
    expect(back.headers.get("Location")).toBe(`/profile/${tribeHost.id}?tab=games&tribe=joined`);
    const page = await decodedHtml(await get(back.headers.get("Location")!, { cookie }));
    expect(page).toContain("Successfully joined the tribe!");
    expect(page).toMatch(/<button[^>]*disabled=""[^>]*>Tribe Member<\/button>/);

    const again = await postForm("/tribe/join", { hostId: tribeHost.id, returnTo: "//evil.example/x" }, { cookie });
    expect(again.headers.get("Location")).toBe(`/profile/${tribeHost.id}?tribe=already`);
    expect(await decodedHtml(await get(again.headers.get("Location")!, { cookie }))).toContain(
      "You are already a member of this tribe!",
    );
    expect(await followers(tribeHost.id)).toBe(1);
  });

  it("joins once, counts the tribe member once, and disables the button afterwards", async () => {
    const tribeHost = await makeUser({ name: "Tribe Host" });
    const joiner = await makeUser({ name: "Joiner" });
    const cookie = await signIn(joiner.email);

    const first = await postForm("/tribe/join", { hostId: tribeHost.id }, { cookie });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Successfully joined the tribe!");
    const second = await postForm("/tribe/join", { hostId: tribeHost.id }, { cookie });
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("You are already a member of this tribe!");

    expect(await followers(tribeHost.id)).toBe(1);
    const rows = await db()
      .select()
      .from(tribeMembers)
      .where(and(eq(tribeMembers.hostId, tribeHost.id), eq(tribeMembers.userId, joiner.id)));
    expect(rows).toHaveLength(1);

    const page = await decodedHtml(await get(`/profile/${tribeHost.id}`, { cookie }));
    expect(page).toContain("1 tribes");
    expect(page).toMatch(/<button[^>]*disabled=""[^>]*>Tribe Member<\/button>/);
  });
});

describe("coming soon", () => {
  it("replaces the shop for a viewer whose country the host does not ship to", async () => {
    const brand = await makeUser({ name: "Brand SG" });
    await db()
      .insert(products)
      .values({ hostId: brand.id, name: `Kaya Jar ${token}` });
    await db().insert(userShippingCountries).values({ hostId: brand.id, countryCode: "SG" });

    // The fan's profile country is MY (the default).
    const blocked = await decodedHtml(await get(`/profile/${brand.id}`, { cookie: fanCookie }));
    expect(blocked).toContain(COMING_SOON);
    expect(blocked).toContain("Got it");
    expect(blocked).not.toContain(`Kaya Jar ${token}`);

    const sgFan = await makeUser({ name: "SG Fan" });
    await db().update(userProfiles).set({ country: "SG" }).where(eq(userProfiles.userId, sgFan.id));
    const open = await decodedHtml(await get(`/profile/${brand.id}`, { cookie: await signIn(sgFan.email) }));
    expect(open).not.toContain(COMING_SOON);
    expect(open).toContain(`Kaya Jar ${token}`);

    // A visitor has no known country.
    expect(await decodedHtml(await get(`/profile/${brand.id}`))).not.toContain(COMING_SOON);
  });

  it("never shows for a host who has not chosen shipping countries", async () => {
    const page = await decodedHtml(await get(`/profile/${slug}`, { cookie: fanCookie }));
    expect(page).not.toContain(COMING_SOON);
  });
});

describe("/profile/{id}/shop", () => {
  it("lists the host's products with a price range and filters by ship-to country", async () => {
    const brand = await makeUser({ name: "Brand JP" });
    await db().insert(userShippingCountries).values({ hostId: brand.id, countryCode: "JP" });
    const [matcha] = await db()
      .insert(products)
      .values({
        hostId: brand.id,
        name: `Matcha Set ${token}`,
        basePriceCents: 1000,
        priceMinCents: 1000,
        priceMaxCents: 2500,
      })
      .returning({ id: products.id });
    // In stock (a sold-out product shows 'Out of Stock' instead of Buy Now).
    await db()
      .insert(productSizes)
      .values({ productId: matcha!.id, name: "Small", priceCents: 1000, availableUnits: 2 });

    const page = await decodedHtml(await get(`/profile/${brand.id}/shop?currency=USD`));
    expect(page).toContain(`Matcha Set ${token}`);
    expect(page).toContain("USD 10.00 – USD 25.00");
    expect(page).toContain("Buy Now");
    expect(page).toContain("View Details");
    expect(await decodedHtml(await get(`/profile/${brand.id}/shop?shipTo=JP`))).toContain(`Matcha Set ${token}`);
    expect(await decodedHtml(await get(`/profile/${brand.id}/shop?shipTo=SG`))).not.toContain(`Matcha Set ${token}`);
  });
});

describe("/explore", () => {
  it("lists public hosts, their products and games, with search, chips and layout in the URL", async () => {
    const page = await decodedHtml(await get(`/explore?q=${token}`));
    expect(page).toContain(`/profile/${slug}`);
    expect(page).toContain(`/product/${productId}`);
    expect(page).toContain(`Which fabric is our bestseller ${token}?`);
    expect(page).not.toContain("correctAnswer");

    const list = await decodedHtml(
      await get(`/explore?q=${token}&view=list&category=${encodeURIComponent("Lifestyle & Family")}`),
    );
    expect(list).toContain(`Mireille${token} Home`);
    const other = await decodedHtml(await get(`/explore?q=mireille${token}&category=Education`));
    expect(other).not.toContain(`/profile/${slug}`);
  });

  it("loads more content through the URL", async () => {
    const many = await makeUser({ name: `Prolific${token}` });
    // D1 binds at most 100 values per statement: a few rows per insert.
    for (let start = 0; start < 25; start += 5) {
      await db()
        .insert(products)
        .values(
          Array.from({ length: 5 }, (_, k) => ({
            hostId: many.id,
            name: `Bulk${token} ${start + k}`,
            createdAt: new Date(Date.now() - (start + k) * 1000),
          })),
        );
    }
    const first = await decodedHtml(await get(`/explore?q=bulk${token}`));
    expect(first.match(/Bulk\w+ \d+<\/a>/g)?.length).toBe(20);
    expect(first).toContain("Load More Content");
    const more = await decodedHtml(await get(`/explore?q=bulk${token}&page=2`));
    expect(more.match(/Bulk\w+ \d+<\/a>/g)?.length).toBe(25);
    expect(more).not.toContain("Load More Content");
  });
});
