import { createExecutionContext, SELF, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { prizeClaims, prizeEntries, prizePools, prizeWinners, products, userProfiles, users } from "~/db/schema";
import { WINNERS_PAGE_SIZE, WITHHELD_NAME_TEXT } from "~/domain/prize-claims";
import { distributePool } from "~/domain/revenue";
import { withPageCache } from "../workers/page-cache";
import { db, get, makeSignedInUser, makeUser, ORIGIN, pageText, signIn } from "./helpers";

// /winners (docs/product.md#winners): every drawn pool with the winner's surname and region unless they objected,
// the prize, the date and the verification link; and "Your entries: N of M" for a signed-in fan only.

const DAY = 86_400_000;
// Draws far ahead of any other test's, so this file's rows head the newest-first list.
const BASE = Date.UTC(2099, 0, 1);

async function drawnPool(opts: {
  winnerName: string;
  drawnAt: Date;
  region?: string | null;
  country?: string;
  withholdAtEntry?: boolean;
  claim?: { legalName: string; withholdName: boolean };
  prizeCents?: number;
  /** Accounts to reuse (creating one hashes a password): the name published is `winnerName` either way. */
  accounts?: { host: { id: string }; winner: { id: string; email: string } };
}) {
  const host = opts.accounts?.host ?? (await makeUser({ name: "Winners Host" }));
  const winner = opts.accounts?.winner ?? (await makeUser({ name: opts.winnerName }));
  await db()
    .update(userProfiles)
    .set({ region: opts.region ?? null, country: opts.country ?? "US" })
    .where(eq(userProfiles.userId, winner.id));
  if (opts.withholdAtEntry) await db().update(users).set({ withholdWinnerName: true }).where(eq(users.id, winner.id));
  const poolId = crypto.randomUUID();
  const amount = opts.prizeCents ?? 100_000;
  await db()
    .insert(prizePools)
    .values({
      id: poolId,
      hostId: host.id,
      status: "drawn",
      targetCents: 100_000,
      amountCents: amount,
      endAt: new Date(opts.drawnAt.getTime() - DAY),
      closedAt: new Date(opts.drawnAt.getTime() - DAY),
      winnerEntryNumber: 0,
      winnerUserId: winner.id,
      drawnAt: opts.drawnAt,
    });
  await db()
    .insert(prizeWinners)
    .values({
      poolId,
      userId: winner.id,
      winnerName: opts.winnerName,
      prizeAmountCents: distributePool(amount).mainPrize,
      prizeType: "main",
      entryNumber: 0,
    });
  if (opts.claim) {
    await db()
      .insert(prizeClaims)
      .values({
        poolId,
        entryNumber: 0,
        userId: winner.id,
        prizeAmountCents: distributePool(amount).mainPrize,
        noticedAt: opts.drawnAt,
        claimBy: new Date(opts.drawnAt.getTime() + 30 * DAY),
        confirmedAt: new Date(opts.drawnAt.getTime() + DAY),
        legalName: opts.claim.legalName,
        withholdName: opts.claim.withholdName,
      });
  }
  return { host, winner, poolId };
}

function rowsOf(html: string): string[] {
  return [...html.matchAll(/<tr data-testid="winner-row">([\s\S]*?)<\/tr>/g)].map((m) =>
    m[1]!
      .replace(/<!-- -->/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

describe("/winners", () => {
  it("lists drawn pools newest first with surname and region, the exact sentence for a withheld name, and pages in SQL; the admin still sees the name", async () => {
    // Before claiming: the last word of the name they won under; after: of the legal name they gave.
    const unclaimed = await drawnPool({
      winnerName: "Maya Okafor",
      drawnAt: new Date(BASE + 5 * DAY),
      region: "US-NY",
    });
    await drawnPool({
      winnerName: "Tom the Collector",
      drawnAt: new Date(BASE + 4 * DAY),
      country: "GB",
      claim: { legalName: "Thomas Edward Whitfield", withholdName: false },
    });
    // Objected on winning (the claim) and at entry (the account): both withheld.
    const onWinning = await drawnPool({
      winnerName: "Priya Raman",
      drawnAt: new Date(BASE + 3 * DAY),
      region: "US-CA",
      claim: { legalName: "Priya Lakshmi Raman", withholdName: true },
    });
    await drawnPool({ winnerName: "Jonas Berg", drawnAt: new Date(BASE + 2 * DAY), withholdAtEntry: true });

    const res = await get("/winners");
    expect(res.status).toBe(200);
    const rows = rowsOf(await res.text()).slice(0, 4);
    expect(rows[0]).toMatch(/^Okafor US-NY USD 600\.00 Winners Host/);
    expect(rows[1]).toMatch(/^Whitfield United Kingdom USD 600\.00/);
    expect(rows[1]).not.toContain("Collector");
    expect(rows[2]).toMatch(new RegExp(`^${WITHHELD_NAME_TEXT} USD 600\\.00`));
    expect(rows[2]).not.toMatch(/Raman|US-CA/);
    expect(rows[3]).toMatch(new RegExp(`^${WITHHELD_NAME_TEXT} `));
    expect(rows[3]).not.toContain("Berg");
    const html = await (await get("/winners")).text();
    expect(html).toContain(`href="/winner-selection/${unclaimed.poolId}"`);
    expect(html).not.toContain("Priya");

    // The record stays available: the admin's claims list shows the withheld winner's real names.
    const admin = await makeUser({ role: "admin", name: "Winners Admin" });
    const adminPage = await get("/admin", { cookie: await signIn(admin.email) });
    expect(adminPage.status).toBe(200);
    const adminText = await pageText(adminPage);
    expect(adminText).toContain("Priya Lakshmi Raman");
    expect(adminText).toContain("Name withheld on /winners");
    expect(adminText).toContain(onWinning.winner.email);

    // A visitor cannot see the admin's record.
    const visitorAdmin = await get("/admin");
    expect(visitorAdmin.status).toBe(302);
  }, 60_000);

  it("pages: the next page starts after the first page's last pool and the first page links to it", async () => {
    const names = Array.from({ length: WINNERS_PAGE_SIZE + 1 }, (_, i) => `Page Fan${String(i).padStart(2, "0")}`);
    const accounts = { host: await makeUser({ name: "Pages Host" }), winner: await makeUser({ name: "Page Fan" }) };
    for (const [i, name] of names.entries()) {
      // Later than the other test's draws: the newest first are these, Fan00 first.
      await drawnPool({ winnerName: name, drawnAt: new Date(BASE + 100 * DAY - i * 60_000), accounts });
    }
    const first = await (await get("/winners")).text();
    const firstRows = rowsOf(first);
    expect(firstRows).toHaveLength(WINNERS_PAGE_SIZE);
    expect(firstRows[0]).toMatch(/^Fan00 /);
    expect(firstRows.at(-1)).toMatch(new RegExp(`^Fan${WINNERS_PAGE_SIZE - 1} `));
    expect(first).toContain('href="/winners?page=2"');
    const second = rowsOf(await (await get("/winners?page=2")).text());
    expect(second[0]).toMatch(new RegExp(`^Fan${WINNERS_PAGE_SIZE} `));
    expect(second.some((row) => row.startsWith("Fan00 "))).toBe(false);
  }, 60_000);
});

/** A host with a product and an open pool of 4 entries: the fan's 2 (one void, so 1 valid) and 2 of another fan. */
async function poolWithEntries() {
  const host = await makeUser({ name: "Entries Host" });
  const fan = await makeSignedInUser({ name: "Entries Fan" });
  const other = await makeUser({ name: "Other Fan" });
  const poolId = crypto.randomUUID();
  await db()
    .insert(prizePools)
    .values({ id: poolId, hostId: host.id, targetCents: 1_000_000, endAt: new Date(Date.now() + 10 * DAY) });
  const holders = [fan.id, fan.id, other.id, other.id, fan.id];
  await db()
    .insert(prizeEntries)
    .values(
      holders.map((userId, entryNumber) => ({
        poolId,
        entryNumber,
        userId,
        sourceType: "product_purchase" as const,
        sourceKey: `entries-test:${poolId}:${entryNumber}`,
        voidedAt: entryNumber === 1 ? new Date() : null,
      })),
    );
  // The mirror of the pool object's valid entries.
  await db().update(prizePools).set({ entriesCount: 4 }).where(eq(prizePools.id, poolId));
  const productId = crypto.randomUUID();
  await db().insert(products).values({ id: productId, hostId: host.id, name: "Entries Mug", basePriceCents: 1_500 });
  return { host, fan, poolId, productId };
}

describe("Your entries: N of M", () => {
  it("shows a signed-in fan their valid entries of the pool's on the profile and the buy-now banner; a visitor sees only the count", async () => {
    const { host, fan, productId } = await poolWithEntries();
    const profile = await pageText(await get(`/profile/${host.id}`, { cookie: fan.cookie }));
    expect(profile).toContain("Your entries: 2 of 4");
    expect(profile).toContain("4 entries");
    expect(profile).toContain("your surname and county or region are published");
    const buy = await pageText(await get(`/buy-now/${productId}`, { cookie: fan.cookie }));
    expect(buy).toContain("4 entries · Your entries: 2 of 4");
    expect(buy).toContain("your surname and county or region are published");

    const visitorProfile = await pageText(await get(`/profile/${host.id}`));
    expect(visitorProfile).toContain("4 entries");
    expect(visitorProfile).not.toContain("Your entries");
    const visitorBuy = await pageText(await get(`/buy-now/${productId}`));
    expect(visitorBuy).toContain("4 entries");
    expect(visitorBuy).not.toContain("Your entries");
  });

  it("never leaks into a cached page: a visitor's copy stays without anyone's count after a fan's visit", async () => {
    const { host, fan } = await poolWithEntries();
    const cache = await caches.open(`pages-${crypto.randomUUID()}`);
    const ask = async (cookie?: string) => {
      const url = `${ORIGIN}/profile/${host.id}`;
      const headers: Record<string, string> = { "CF-Connecting-IP": "203.0.113.9" };
      if (cookie) headers.Cookie = cookie;
      const ctx = createExecutionContext();
      // The real page behind the cache: a visitor's render is stored, a signed-in one never.
      const res = await withPageCache(new Request(url, { headers }), ctx, 60, () => SELF.fetch(url, { headers }), {
        cache,
      });
      const html = await res.text();
      await waitOnExecutionContext(ctx);
      return { html, state: res.headers.get("X-Page-Cache") };
    };
    const first = await ask();
    expect(first.state).toBe("miss");
    expect(first.html).not.toContain("Your entries");
    const signedIn = await ask(fan.cookie);
    expect(signedIn.state).toBeNull();
    expect(signedIn.html).toContain("Your entries: 2 of 4");
    const again = await ask();
    expect(again.state).toBe("hit");
    expect(again.html).not.toContain("Your entries");
  });
});
