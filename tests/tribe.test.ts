import { describe, expect, it } from "vitest";
import { createAccount } from "~/db/queries/accounts.server";
import {
  chatMessages,
  guessWinGames,
  guessWinParticipants,
  orders,
  prizePoolContributions,
  prizePools,
  prizeWinners,
  products,
  tribeMembers,
} from "~/db/schema";
import { TRIBE_PAGE_SIZE } from "~/domain/tribe";
import { db, get, makeUser, pageText, signIn } from "./helpers";

const DAY = 86_400_000;

/** A member account without a usable password (fast: no scrypt), joined to the host's tribe `joinedDaysAgo` ago. */
async function member(hostId: string, name: string, joinedDaysAgo: number) {
  const created = await createAccount(db(), {
    email: `${crypto.randomUUID()}@example.com`,
    passwordHash: "none",
    name,
  });
  const userId = created!.userId;
  await db()
    .insert(tribeMembers)
    .values({ userId, hostId, joinedAt: new Date(Date.now() - joinedDaysAgo * DAY) });
  return userId;
}

/** The member names in the page's list, in order. */
function memberNames(html: string): string[] {
  const list = html.match(/<ul aria-label="Tribe members"[\s\S]*?<\/ul>/)?.[0] ?? "";
  return [...list.matchAll(/<p class="truncate font-medium text-gray-900">([^<]*)<\/p>/g)].map((m) => m[1]!);
}

async function tribeFixture() {
  const host = await makeUser({ name: "Tribe Host" });
  const cookie = await signIn(host.email);
  const [product] = await db()
    .insert(products)
    .values({ hostId: host.id, name: "Batik Scarf", category: "physical", status: "active" })
    .returning();
  const [game] = await db()
    .insert(guessWinGames)
    .values({
      hostId: host.id,
      question: "Which colour?",
      options: ["Red", "Blue"],
      correctAnswer: "Red",
      entryFeeCents: 100,
    })
    .returning();
  const [pool] = await db()
    .insert(prizePools)
    .values({ hostId: host.id, targetCents: 100_000, endAt: new Date(Date.now() + 10 * DAY) })
    .returning();

  const buyer = await member(host.id, "Ayu Buyer", 9);
  const guesser = await member(host.id, "Bima Guesser", 8);
  const writer = await member(host.id, "Citra Writer", 7);
  const lapsed = await member(host.id, "Dewi Lapsed", 6);
  const quiet = await member(host.id, "Eka Quiet", 5);
  // Activity with another host does not make a member active here.
  const otherHost = await makeUser({ name: "Other Host" });

  const order = (userId: string, daysAgo: number, hostId = host.id) => ({
    orderNumber: `ORD-${crypto.randomUUID().slice(0, 8).toUpperCase()}`,
    userId,
    hostId,
    productId: product!.id,
    amountCents: 2000,
    unitPriceCents: 2000,
    productName: "Batik Scarf",
    createdAt: new Date(Date.now() - daysAgo * DAY),
  });
  await db()
    .insert(orders)
    .values([order(buyer, 3), order(lapsed, 45), order(quiet, 2, otherHost.id)]);
  await db()
    .insert(guessWinParticipants)
    .values({
      gameId: game!.id,
      userId: guesser,
      answer: "Red",
      kind: "free",
      createdAt: new Date(Date.now() - 5 * DAY),
    });
  await db()
    .insert(chatMessages)
    .values({ senderId: writer, recipientId: host.id, body: "Hi!", createdAt: new Date(Date.now() - DAY) });

  const contribution = (userId: string | null, amountCents: number) => ({
    poolId: pool!.id,
    hostId: host.id,
    sourceType: "product_purchase" as const,
    sourceKey: crypto.randomUUID(),
    amountCents,
    userId,
  });
  await db()
    .insert(prizePoolContributions)
    .values([
      contribution(buyer, 500),
      contribution(guesser, 300),
      contribution(lapsed, 900),
      contribution(lapsed, -200),
      // The host's own deposit is not a fan's contribution.
      contribution(host.id, 50_000),
    ]);
  await db().insert(prizeWinners).values({
    poolId: pool!.id,
    userId: guesser,
    winnerName: "Bima Guesser",
    prizeAmountCents: 1234,
    prizeType: "main",
  });
  return { host, cookie, ids: { buyer, guesser, writer, lapsed, quiet } };
}

describe("/tribe", () => {
  it("filters members by activity in the last 30 days (an order, a guess or a message to this host)", async () => {
    const { cookie } = await tribeFixture();
    const all = await (await get("/tribe", { cookie })).text();
    expect(memberNames(all)).toEqual(["Eka Quiet", "Dewi Lapsed", "Citra Writer", "Bima Guesser", "Ayu Buyer"]);
    expect(await pageText(new Response(all))).toContain("All (5)");

    const active = await (await get("/tribe?filter=active", { cookie })).text();
    expect(memberNames(active)).toEqual(["Citra Writer", "Bima Guesser", "Ayu Buyer"]);
    const inactive = await (await get("/tribe?filter=inactive", { cookie })).text();
    expect(memberNames(inactive)).toEqual(["Eka Quiet", "Dewi Lapsed"]);
  });

  it("searches members by name, links a chat per member and the prize pool details", async () => {
    const { cookie, ids } = await tribeFixture();
    const html = await (await get("/tribe?q=citra", { cookie })).text();
    expect(memberNames(html)).toEqual(["Citra Writer"]);
    expect(html).toContain(`href="/chat/${ids.writer}"`);
    expect(html).toContain('href="/prize-pool-details"');
    expect(memberNames(await (await get("/tribe?q=nobody-here", { cookie })).text())).toEqual([]);
    // Search text is data, never a pattern: '%' matches nothing here.
    expect(memberNames(await (await get("/tribe?q=%25", { cookie })).text())).toEqual([]);
  });

  it("ranks top contributors by their net contributions to the host's pools and shows recent winners", async () => {
    const { cookie } = await tribeFixture();
    const html = await (await get("/tribe", { cookie })).text();
    const top = html.match(/<ol aria-label="Top contributors"[\s\S]*?<\/ol>/)?.[0] ?? "";
    const text = await pageText(new Response(top));
    expect(text.indexOf("Dewi Lapsed")).toBeLessThan(text.indexOf("Ayu Buyer"));
    expect(text.indexOf("Ayu Buyer")).toBeLessThan(text.indexOf("Bima Guesser"));
    expect(text).toContain("7.00");
    expect(text).not.toContain("Tribe Host");
    const winners = await pageText(
      new Response(html.match(/<ul aria-label="Recent winners"[\s\S]*?<\/ul>/)?.[0] ?? ""),
    );
    expect(winners).toContain("Bima Guesser");
    expect(winners).toContain("Main prize");
  });

  it("paginates in SQL and shows only the signed-in host's own tribe", async () => {
    const host = await makeUser({ name: "Big Tribe Host" });
    const cookie = await signIn(host.email);
    for (let i = 0; i <= TRIBE_PAGE_SIZE; i++) await member(host.id, `Member ${String(i).padStart(2, "0")}`, 100 - i);
    const first = await (await get("/tribe", { cookie })).text();
    expect(memberNames(first)).toHaveLength(TRIBE_PAGE_SIZE);
    expect(first).toContain('href="/tribe?page=2"');
    const second = await (await get("/tribe?page=2", { cookie })).text();
    expect(memberNames(second)).toEqual(["Member 00"]);
    // A bad page or filter falls back to the defaults.
    expect((await get("/tribe?page=abc&filter=evil", { cookie })).status).toBe(200);

    const stranger = await makeUser({ name: "Someone Else" });
    const theirs = await (await get("/tribe", { cookie: await signIn(stranger.email) })).text();
    expect(memberNames(theirs)).toEqual([]);
    expect(await pageText(new Response(theirs))).toContain("No tribe members yet");
  });
});
