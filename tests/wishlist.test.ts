import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { listWishlistProducts } from "~/db/queries/products.server";
import { FEED_PAGE_SIZE } from "~/db/queries/games.server";
import { gameSaves, guessWinGames, productLikes, products, productSizes, userProfiles } from "~/db/schema";
import { WISHLIST_PAGE_SIZE } from "~/domain/saved-lists";
import { db, get, makeSignedInUser, makeUser, postForm } from "./helpers";

// A fan's own lists (docs/decisions/610-wishlist-and-saved-games.md): /wishlist (the products they liked) and the
// "Saved" tab of /guess-win (the games they saved). Both newest first, paginated in SQL, the signed-in fan's only.

const token = crypto.randomUUID().slice(0, 6);
let host: { id: string };
let otherHost: { id: string };
let fan: { id: string; cookie: string };
let other: { id: string; cookie: string };
let emptyFan: { id: string; cookie: string };
let pager: { id: string; cookie: string };
let saver: { id: string; cookie: string };

const MINUTE = 60_000;

async function newProduct(hostId: string, name: string, createdAt = new Date()) {
  const [product] = await db()
    .insert(products)
    .values({ hostId, name, basePriceCents: 1500, priceMinCents: 1500, priceMaxCents: 1500, createdAt })
    .returning({ id: products.id });
  await db().insert(productSizes).values({ productId: product!.id, name: "One", priceCents: 1500, availableUnits: 3 });
  return product!.id;
}

async function newGame(hostId: string, question: string) {
  const [game] = await db()
    .insert(guessWinGames)
    .values({ hostId, question, options: ["Yes", "No"], correctAnswer: "Yes", entryFeeCents: 300 })
    .returning({ id: guessWinGames.id });
  return game!.id;
}

/** The product ids of the cards a page shows, in order. */
function cardIds(html: string): string[] {
  return [...html.matchAll(/data-product-card="([^"]+)"/g)].map((m) => m[1]!);
}

async function page(path: string, cookie?: string) {
  const res = await get(path, { cookie });
  return { status: res.status, location: res.headers.get("Location"), html: await res.text() };
}

const likeCount = async (productId: string) =>
  (await db().select({ n: products.likeCount }).from(products).where(eq(products.id, productId)))[0]!.n;

// Five sign-ins (scrypt) while other test files run: more than the default hook time.
beforeAll(async () => {
  [host, otherHost, fan, other, emptyFan, pager, saver] = await Promise.all([
    makeUser({ name: `Wishhost ${token}` }),
    makeUser({ name: `Otherhost ${token}` }),
    makeSignedInUser({ name: `Wishfan ${token}` }),
    makeSignedInUser({ name: `Otherfan ${token}` }),
    makeSignedInUser({ name: `Emptyfan ${token}` }),
    makeSignedInUser({ name: `Pagerfan ${token}` }),
    makeSignedInUser({ name: `Saverfan ${token}` }),
  ]);
}, 120_000);

describe("/wishlist", () => {
  it("sends a visitor to sign in, for the page and for Remove, and changes nothing", async () => {
    const visitor = await page("/wishlist?page=2");
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe(`/signin?redirectTo=${encodeURIComponent("/wishlist?page=2")}`);
    const productId = await newProduct(host.id, `Visitor ${token} Kettle`);
    await db().insert(productLikes).values({ userId: other.id, productId });
    const remove = await postForm("/wishlist", { intent: "remove", productId });
    expect(remove.status).toBe(302);
    expect(remove.headers.get("Location")).toMatch(/^\/signin/);
    expect(await likeCount(productId)).toBe(0);
    const [like] = await db().select().from(productLikes).where(eq(productLikes.productId, productId));
    expect(like?.userId).toBe(other.id);
  });

  it("shows an empty wishlist with a way to the shop", async () => {
    const { status, html } = await page("/wishlist", emptyFan.cookie);
    expect(status).toBe(200);
    expect(html).toContain("Your wishlist is empty");
    expect(html).toMatch(/<a[^>]*href="\/shop"[^>]*>Browse the Shop<\/a>/);
    expect(cardIds(html)).toEqual([]);
  });

  it("lists a product once liked, drops it when unliked or removed, and counts each like once", async () => {
    const name = `Liked ${token} Teapot`;
    const productId = await newProduct(host.id, name);
    const like = (liked: boolean) =>
      postForm(`/product/${productId}`, { intent: "like", liked: String(liked) }, { cookie: fan.cookie });

    // A like posted without JavaScript answers with the product page, which points to the wishlist.
    const liked = await like(true);
    expect(liked.status).toBe(200);
    expect(await liked.text()).toMatch(
      /Added to your wishlist\.(<!-- -->)? <a[^>]*href="\/wishlist"[^>]*>See your wishlist<\/a>/,
    );
    let list = await page("/wishlist", fan.cookie);
    expect(list.status).toBe(200);
    expect(cardIds(list.html)).toContain(productId);
    expect(list.html).toContain(name);
    // The card as the shop shows it: its heart pressed, its Remove button for this product.
    const card = list.html.slice(list.html.indexOf(`data-product-card="${productId}"`));
    expect(card.slice(0, card.indexOf("</li>"))).toContain('aria-pressed="true"');
    const remove = /<button form="wishlist-remove"[^>]*>Remove<\/button>/.exec(card)?.[0] ?? "";
    expect(remove).toContain(`value="${productId}"`);
    expect(remove).toContain('name="productId"');

    expect((await like(false)).status).toBe(200);
    list = await page("/wishlist", fan.cookie);
    expect(cardIds(list.html)).not.toContain(productId);

    // Remove on the wishlist: back to the list, gone, and the count moved once for two posts.
    await like(true);
    expect(await likeCount(productId)).toBe(1);
    for (let i = 0; i < 2; i++) {
      const removed = await postForm("/wishlist", { intent: "remove", productId }, { cookie: fan.cookie });
      expect(removed.status).toBe(302);
      expect(removed.headers.get("Location")).toBe("/wishlist");
    }
    expect(await likeCount(productId)).toBe(0);
    list = await page("/wishlist", fan.cookie);
    expect(cardIds(list.html)).not.toContain(productId);
  });

  it("refuses a Remove without a product with a message and changes nothing", async () => {
    const res = await postForm("/wishlist", { intent: "remove", productId: "../x" }, { cookie: fan.cookie });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Choose a product of your wishlist to remove.");
  });

  it("pages in SQL, newest like first, and never shows another fan's likes", async () => {
    const count = WISHLIST_PAGE_SIZE + 1;
    const ids: string[] = [];
    // Products made newest first, liked oldest first: the list follows the likes, not the products.
    for (let i = 0; i < count; i++)
      ids.push(await newProduct(host.id, `Paged ${token} item ${i}`, new Date(Date.now() - i * MINUTE)));
    const start = Date.now() - 2 * count * MINUTE;
    await db()
      .insert(productLikes)
      .values(ids.map((productId, i) => ({ userId: pager.id, productId, createdAt: new Date(start + i * MINUTE) })));
    // Another fan's like of a product the pager does not like, and of one they do.
    const notMine = await newProduct(host.id, `Not mine ${token} vase`);
    await db()
      .insert(productLikes)
      .values([
        { userId: other.id, productId: notMine },
        { userId: other.id, productId: ids[0]! },
      ]);

    const newestFirst = [...ids].reverse();
    const first = await page("/wishlist", pager.cookie);
    expect(cardIds(first.html)).toEqual(newestFirst.slice(0, WISHLIST_PAGE_SIZE));
    expect(first.html).toMatch(/<a[^>]*href="\/wishlist\?page=2"[^>]*>Next<\/a>/);
    expect(first.html).not.toContain(notMine);
    const second = await page("/wishlist?page=2", pager.cookie);
    expect(cardIds(second.html)).toEqual(newestFirst.slice(WISHLIST_PAGE_SIZE));
    expect(second.html).not.toMatch(/>Next<\/a>/);
    expect(second.html).toMatch(/<a[^>]*href="\/wishlist"[^>]*>Previous<\/a>/);

    // The query itself reads one page (limit + 1 rows), by the account's id only.
    const rows = await listWishlistProducts(db(), pager.id, { limit: 3, offset: 1 });
    expect(rows.map((r) => r.id)).toEqual(newestFirst.slice(1, 4));
    expect(rows.every((r) => r.liked)).toBe(true);
    const others = await listWishlistProducts(db(), other.id, { limit: 50, offset: 0 });
    expect(others.map((r) => r.id)).toEqual(expect.arrayContaining([notMine, ids[0]!]));
    expect(others.filter((r) => ids.slice(1).includes(r.id))).toEqual([]);
  });

  it("hides a product no longer on sale or whose host is suspended, and shows it again when it is back", async () => {
    const drafted = await newProduct(host.id, `Drafted ${token} bowl`);
    const suspendedHosts = await newProduct(otherHost.id, `Suspended ${token} plate`);
    const kept = await newProduct(host.id, `Kept ${token} cup`);
    await db()
      .insert(productLikes)
      .values([drafted, suspendedHosts, kept].map((productId) => ({ userId: other.id, productId })));
    await db().update(products).set({ status: "draft" }).where(eq(products.id, drafted));
    await db().update(userProfiles).set({ status: "suspended" }).where(eq(userProfiles.userId, otherHost.id));
    try {
      const list = cardIds((await page("/wishlist", other.cookie)).html);
      expect(list).toContain(kept);
      expect(list).not.toContain(drafted);
      expect(list).not.toContain(suspendedHosts);
    } finally {
      await db().update(userProfiles).set({ status: "active" }).where(eq(userProfiles.userId, otherHost.id));
    }
    await db().update(products).set({ status: "active" }).where(eq(products.id, drafted));
    const back = cardIds((await page("/wishlist", other.cookie)).html);
    expect(back).toContain(drafted);
    expect(back).toContain(suspendedHosts);
  });

  it("is in the account menu", async () => {
    const { html } = await page("/shop", fan.cookie);
    expect(html).toMatch(/<a[^>]*href="\/wishlist"[^>]*>Wishlist<\/a>/);
  });
});

describe("/guess-win Saved", () => {
  const saveAs = (cookie: string, gameId: string, on: boolean) =>
    postForm("/guess-win", { intent: "save", gameId, on: String(on) }, { cookie });

  it("asks a visitor to sign in", async () => {
    const res = await page("/guess-win?tab=saved");
    expect(res.status).toBe(302);
    expect(res.location).toBe(`/signin?redirectTo=${encodeURIComponent("/guess-win?tab=saved")}`);
    // The feed itself stays public and offers the tab.
    const feed = await page("/guess-win");
    expect(feed.status).toBe(200);
    expect(feed.html).toMatch(/<a[^>]*href="\/guess-win\?tab=saved"[^>]*>Saved<\/a>/);
  });

  it("lists the fan's saved games newest first, pages them, and drops an unsaved one", async () => {
    const empty = await page("/guess-win?tab=saved", saver.cookie);
    expect(empty.status).toBe(200);
    expect(empty.html).toContain("No saved games yet");
    expect(empty.html).toMatch(/<a[^>]*aria-current="page"[^>]*>Saved<\/a>/);

    const questions = Array.from({ length: FEED_PAGE_SIZE + 1 }, (_, i) => `Saved ${token} riddle number ${i}?`);
    const ids: string[] = [];
    for (const q of questions) ids.push(await newGame(host.id, q));
    const unsavedQuestion = `Unsaved ${token} riddle?`;
    await newGame(host.id, unsavedQuestion);
    // Saved through the page, then dated a minute apart (game 0 saved first).
    for (const id of ids) expect((await saveAs(saver.cookie, id, true)).status).toBe(200);
    const start = Date.now() - 60 * MINUTE;
    for (const [i, id] of ids.entries()) {
      await db()
        .update(gameSaves)
        .set({ createdAt: new Date(start + i * MINUTE) })
        .where(and(eq(gameSaves.userId, saver.id), eq(gameSaves.gameId, id)));
    }
    // Another fan's save is not the saver's.
    const othersQuestion = `Others ${token} riddle?`;
    await saveAs(other.cookie, await newGame(host.id, othersQuestion), true);

    const first = await page("/guess-win?tab=saved", saver.cookie);
    expect(first.status).toBe(200);
    const shown = questions.filter((q) => first.html.includes(q));
    expect(shown).toEqual(questions.slice(1));
    // Newest save first on the page.
    const order = shown.map((q) => first.html.indexOf(q));
    expect([...order].sort((a, b) => b - a)).toEqual(order);
    expect(first.html).not.toContain(unsavedQuestion);
    expect(first.html).not.toContain(othersQuestion);
    expect(first.html).toContain("Load More");
    expect(first.html).toMatch(/<input type="hidden" name="tab" value="saved"\/>/);

    const second = await page("/guess-win?tab=saved&page=2", saver.cookie);
    expect(questions.filter((q) => second.html.includes(q))).toEqual([questions[0]]);
    expect(second.html).not.toContain("Load More");

    // Unsave the newest: gone from the tab, the next one moves up.
    expect((await saveAs(saver.cookie, ids.at(-1)!, false)).status).toBe(200);
    const after = await page("/guess-win?tab=saved", saver.cookie);
    expect(after.html).not.toContain(questions.at(-1)!);
    expect(questions.filter((q) => after.html.includes(q))).toEqual(questions.slice(0, -1));
    expect(after.html).not.toContain("Load More");
  });
});
