import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  groupBuyProducts,
  groupBuys,
  groupBuyTiers,
  guessWinGames,
  prizePoolContributions,
  prizePools,
  products,
} from "~/db/schema";
import {
  cookieFrom,
  db,
  decodedHtml,
  get,
  makeUser,
  ORIGIN,
  pageText,
  postForm,
  randomIp,
  signIn,
  withRevenueRules,
} from "./helpers";

// Host tooling (docs/product.md): edge cases a host with real data runs into.

describe("Guess & Win management with many games", () => {
  let hostCookie: string;
  const questions: string[] = [];

  beforeAll(async () => {
    const host = await makeUser({ name: "Prolific Host" });
    hostCookie = await signIn(host.email);
    // 25 games, one a minute apart: the oldest is "Game 01".
    const start = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: 25 }, (_, i) => {
      const question = `Game ${String(i + 1).padStart(2, "0")} question?`;
      questions.push(question);
      return {
        hostId: host.id,
        question,
        description: "Guess it",
        options: ["Alpha", "Bravo"],
        correctAnswer: "Bravo",
        entryFeeCents: 300,
        status: "active" as const,
        videoUrl: "/media/guess-win-videos/x/y.mp4",
        createdAt: new Date(start + i * 60_000),
      };
    });
    // D1 caps bound variables per statement: insert in small batches.
    for (let i = 0; i < rows.length; i += 5)
      await db()
        .insert(guessWinGames)
        .values(rows.slice(i, i + 5));
  });

  it("pages through every game, so the oldest can still be viewed, edited, paused or deleted", async () => {
    const first = await pageText(await get("/guess-win-management", { cookie: hostCookie }));
    expect(first).toContain("Game 25 question?");
    expect(first).not.toContain("Game 01 question?");
    expect(first).toContain("Next");

    const second = await get("/guess-win-management?page=2", { cookie: hostCookie });
    expect(second.status).toBe(200);
    const text = await pageText(second);
    expect(text).toContain("Game 01 question?");
    expect(text).not.toContain("Game 25 question?");
    expect(text).toContain("Previous");
    // Every game appears on exactly one of the two pages.
    for (const q of questions) expect(first.includes(q) !== text.includes(q)).toBe(true);
  });

  it("past the last page says there are no more games and links back to the first, not to 'No games yet'", async () => {
    const res = await get("/guess-win-management?page=9", { cookie: hostCookie });
    expect(res.status).toBe(200);
    const text = await pageText(res);
    expect(text).toContain("No more games");
    expect(text).not.toContain("No games yet");
    expect(await decodedHtml(await get("/guess-win-management?page=9", { cookie: hostCookie }))).toContain(
      'href="/guess-win-management"',
    );
  });
});

describe("Shop Management past its last page", () => {
  it("says there are no more products and links back to the first page, not to 'No products yet'", async () => {
    const host = await makeUser({ name: "Paged Shop Host" });
    const cookie = await signIn(host.email);
    const empty = await pageText(await get("/shop-management", { cookie }));
    expect(empty).toContain("No products yet");
    await db().insert(products).values({
      hostId: host.id,
      name: "Only Lamp",
      description: "A lamp",
      category: "physical",
      status: "active",
      basePriceCents: 1000,
    });
    const res = await get("/shop-management?page=3", { cookie });
    expect(res.status).toBe(200);
    const text = await pageText(res);
    expect(text).toContain("No more products");
    expect(text).not.toContain("No products yet");
    expect(text).not.toContain("Only Lamp");
  });
});

describe("deleting a product a group buy offers", () => {
  it("tells the host which active group buy offers it and how many joined", async () => {
    const host = await makeUser({ name: "Group Host" });
    const cookie = await signIn(host.email);
    const [product] = await db()
      .insert(products)
      .values({ hostId: host.id, name: "Shared Mug", basePriceCents: 2000 })
      .returning();
    const [other] = await db()
      .insert(products)
      .values({ hostId: host.id, name: "Lonely Mug", basePriceCents: 2000 })
      .returning();
    const [g] = await db()
      .insert(groupBuys)
      .values({
        hostId: host.id,
        name: "Mug Week",
        status: "active",
        targetCents: 500_000,
        currency: "MYR",
        endAt: new Date(Date.now() + 86_400_000),
        currentParticipants: 3,
      })
      .returning();
    await db().insert(groupBuyProducts).values({ groupBuyId: g!.id, productId: product!.id });

    const text = await pageText(await get(`/delete-product/${product!.id}`, { cookie }));
    expect(text).toContain("It is in your active group buy Mug Week (3 participants)");
    const plain = await pageText(await get(`/delete-product/${other!.id}`, { cookie }));
    expect(plain).not.toContain("active group buy");
  });
});

describe("the game details screen for its host", () => {
  it("offers Pause, Delete and a way to the dashboard; Delete ends on Guess & Win management", async () => {
    const host = await makeUser({ name: "Details Host" });
    const fan = await makeUser({ name: "Details Fan" });
    const [hostCookie, fanCookie] = await Promise.all([signIn(host.email), signIn(fan.email)]);
    const [game] = await db()
      .insert(guessWinGames)
      .values({
        hostId: host.id,
        question: "Which cup hides the ball?",
        description: "Watch",
        options: ["Left", "Right"],
        correctAnswer: "Left",
        entryFeeCents: 300,
        status: "active",
        videoUrl: "/media/guess-win-videos/x/y.mp4",
      })
      .returning();

    const html = await decodedHtml(await get(`/view-game/${game!.id}`, { cookie: hostCookie }));
    const forms = html.match(/<form[^>]*action="\/guess-win-management"[\s\S]*?<\/form>/g) ?? [];
    expect(
      forms.some((f) => f.includes('value="toggle-pause"') && f.includes(`value="${game!.id}"`) && />Pause</.test(f)),
    ).toBe(true);
    expect(forms.some((f) => f.includes('value="delete"') && f.includes(`value="${game!.id}"`))).toBe(true);
    expect(html).toMatch(/href="\/dashboard"[^>]*>Dashboard</);
    expect(html).toContain(`href="/edit-game/${game!.id}"`);

    // A fan sees none of the host's controls.
    const fanHtml = await decodedHtml(await get(`/view-game/${game!.id}`, { cookie: fanCookie }));
    expect(fanHtml).not.toContain('value="toggle-pause"');
    expect(fanHtml).not.toContain(`href="/edit-game/${game!.id}"`);

    // What those forms post: the management action, answering on the management screen.
    const deleted = await postForm(
      "/guess-win-management",
      { intent: "delete", gameId: game!.id },
      { cookie: hostCookie },
    );
    expect(deleted.status).toBe(200);
    expect(await pageText(deleted)).toContain("Game deleted successfully");
    expect((await get(`/view-game/${game!.id}`, { cookie: hostCookie })).status).toBe(404);
  });
});

describe("prize pool settings saved after the session ended", () => {
  /** The form post as the hydrated page sends it (React Router's data request), without a session. */
  function post(fields: Record<string, string>) {
    return SELF.fetch(`${ORIGIN}/prize-pool-settings.data`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": randomIp() },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    });
  }

  it("answers the sign-in messages (401) and keeps the form, changing nothing", async () => {
    const before = await db().select({ n: prizePools.id }).from(prizePools);
    const save = await post({
      intent: "save",
      targetAmount: "5000",
      durationDays: "30",
      "miniPrizes.0.name": "Signed print",
    });
    expect(save.status).toBe(401);
    const saveBody = await save.text();
    expect(saveBody).toContain("Please sign in to save prize pool settings");
    expect(saveBody).toContain("Signed print");

    const deposit = await post({ intent: "deposit", depositAmount: "25" });
    expect(deposit.status).toBe(401);
    expect(await deposit.text()).toContain('"Please sign in"');
    expect((await db().select({ n: prizePools.id }).from(prizePools)).length).toBe(before.length);
  });
});

describe("adding a product after the session ended", () => {
  it("answers 'User is not authenticated!' (401), keeps the typed values and creates nothing", async () => {
    const name = `Orphan Lamp ${Date.now()}`;
    const res = await SELF.fetch(`${ORIGIN}/add-product.data`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": randomIp() },
      body: new URLSearchParams({
        name,
        description: "Warm light",
        category: "physical",
        "sizes.0.name": "One",
        "sizes.0.price": "10",
        "sizes.0.units": "5",
      }).toString(),
      redirect: "manual",
    });
    expect(res.status).toBe(401);
    const body = await res.text();
    expect(body).toContain("User is not authenticated!");
    expect(body).toContain(name);
    expect(await db().select({ id: products.id }).from(products).where(eq(products.name, name))).toEqual([]);
  });
});

describe("an uploaded image shown on two products", () => {
  it("stays in storage while another product still shows it, and goes once none does", async () => {
    const host = await makeUser({ name: "Image Host" });
    const cookie = await signIn(host.email);
    const key = `products/${host.id}/${Date.now()}-shared.png`;
    await env.MEDIA.put(key, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), {
      httpMetadata: { contentType: "image/png" },
    });
    const fields = (name: string, image: string) => ({
      name,
      description: "Same photo, two products",
      category: "physical",
      "sizes.0.name": "One",
      "sizes.0.price": "12",
      "sizes.0.units": "4",
      "colors.0.name": "Blue",
      "colors.0.hex": "#0000ff",
      "colors.0.units": "4",
      "images.0": image,
    });
    const ids: string[] = [];
    for (const name of [`Shared A ${Date.now()}`, `Shared B ${Date.now()}`]) {
      expect((await postForm("/add-product", fields(name, `/media/${key}`), { cookie })).status).toBe(302);
      const [row] = await db().select({ id: products.id }).from(products).where(eq(products.name, name));
      ids.push(row!.id);
    }

    // Deleting A (no orders): B still shows the image.
    expect((await postForm(`/delete-product/${ids[0]}`, { confirm: "DELETE" }, { cookie })).status).toBe(302);
    expect(await env.MEDIA.head(key)).not.toBeNull();

    // B changes to another image: nothing shows the upload any more, so it goes.
    const edited = await postForm(
      `/edit-product/${ids[1]}`,
      fields("Shared B edited", "https://images.example.com/other.jpg"),
      { cookie },
    );
    expect(edited.status).toBe(302);
    expect(await env.MEDIA.head(key)).toBeNull();
  });
});

describe("Guess Now without a session", () => {
  it("goes to sign-in with 'Please sign in to continue', and back to the guess after", async () => {
    const host = await makeUser({ name: "Guess Host" });
    const [game] = await db()
      .insert(guessWinGames)
      .values({
        hostId: host.id,
        question: "Heads or tails?",
        description: "Flip",
        options: ["Heads", "Tails"],
        correctAnswer: "Heads",
        entryFeeCents: 300,
        status: "active",
        videoUrl: "/media/guess-win-videos/x/y.mp4",
      })
      .returning();
    const target = `/payment?game=${game!.id}&answer=Tails`;
    const res = await get(target);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/signin?redirectTo=${encodeURIComponent(target)}`);
    const toast = cookieFrom(res, "__Host-toast");
    expect(toast).toBeTruthy();
    const signin = await get(res.headers.get("Location")!, { cookie: toast });
    expect(await pageText(signin)).toContain("Please sign in to continue");
  });
});

describe("the contribution breakdown's rates", () => {
  it("are the platform's rules in force, not the defaults", async () => {
    const host = await makeUser({ name: "Rates Host" });
    const cookie = await signIn(host.email);
    const start = new Date(Date.now() - 86_400_000);
    const [pool] = await db()
      .insert(prizePools)
      .values({
        hostId: host.id,
        status: "open",
        targetCents: 500_000,
        startAt: start,
        endAt: new Date(start.getTime() + 30 * 86_400_000),
      })
      .returning();
    await db()
      .insert(prizePoolContributions)
      .values({
        poolId: pool!.id,
        hostId: host.id,
        sourceType: "product_purchase",
        sourceKey: `cs_${crypto.randomUUID()}`,
        amountCents: 1_200,
      });
    await withRevenueRules(
      { shop_sales: { prize_pool_contribution: 12, host_share: 85, platform_fee: 3 } },
      async () => {
        const details = await pageText(await get("/prize-pool-details", { cookie }));
        expect(details).toMatch(/Store Sales 12% of each payment USD 12\.00/);
      },
    );
  });
});

describe("the entry fee's pool share on the host's game screens", () => {
  it("follows the platform's rules in force", async () => {
    const host = await makeUser({ name: "Share Host" });
    const cookie = await signIn(host.email);
    const [game] = await db()
      .insert(guessWinGames)
      .values({
        hostId: host.id,
        question: "Odd or even?",
        description: "Count",
        options: ["Odd", "Even"],
        correctAnswer: "Odd",
        entryFeeCents: 300,
        status: "active",
        videoUrl: "/media/guess-win-videos/x/y.mp4",
      })
      .returning();
    await withRevenueRules(
      { guess_win_entries: { prize_pool_contribution: 90, host_share: 0, platform_fee: 10 } },
      async () => {
        for (const path of ["/create-guess-win", `/edit-game/${game!.id}`]) {
          const text = await pageText(await get(path, { cookie }));
          expect(text, path).toContain("90% of entry fees go to your prize pool.");
          expect(text, path).not.toContain("100% of entry fees");
        }
        expect(await pageText(await get(`/view-game/${game!.id}`, { cookie }))).toContain(
          "90% of entry fees go to the prize pool",
        );
        // The fan's payment page for a guess says the same.
        const fan = await makeUser({ name: "Share Fan" });
        const paying = await get(`/payment?game=${game!.id}&answer=Odd`, { cookie: await signIn(fan.email) });
        expect(await pageText(paying)).toContain(
          "90% of entry fees go to the prize pool; only a correct guess earns an entry number.",
        );
      },
    );
  });
});

describe("product details of a product a group buy offers", () => {
  it("show the group buy's participants, progress and discount reached", async () => {
    const host = await makeUser({ name: "Tier Host" });
    const cookie = await signIn(host.email);
    const [product] = await db()
      .insert(products)
      .values({ hostId: host.id, name: "Tier Mug", basePriceCents: 2000 })
      .returning();
    const [plain] = await db()
      .insert(products)
      .values({ hostId: host.id, name: "Solo Mug", basePriceCents: 2000 })
      .returning();
    const [g] = await db()
      .insert(groupBuys)
      .values({
        hostId: host.id,
        name: "Tier Week",
        status: "active",
        targetCents: 500_000,
        currency: "MYR",
        endAt: new Date(Date.now() + 86_400_000),
        currentParticipants: 3,
        currentSalesCents: 250_000,
      })
      .returning();
    await db()
      .insert(groupBuyTiers)
      .values([
        { groupBuyId: g!.id, salesThresholdCents: 0, discountPercent: 5, position: 0 },
        { groupBuyId: g!.id, salesThresholdCents: 200_000, discountPercent: 10, position: 1 },
        { groupBuyId: g!.id, salesThresholdCents: 500_000, discountPercent: 20, position: 2 },
      ]);
    await db().insert(groupBuyProducts).values({ groupBuyId: g!.id, productId: product!.id });

    const text = await pageText(await get(`/view-product/${product!.id}`, { cookie }));
    expect(text).toContain("In group buy: Tier Week");
    expect(text).toMatch(/3 participants · \S+ 2,500\.00 of \S+ 5,000\.00 \(50%\) · current discount 10%/);
    expect(await pageText(await get(`/view-product/${plain!.id}`, { cookie }))).not.toContain("In group buy");
  });
});
