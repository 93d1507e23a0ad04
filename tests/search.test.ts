import { describe, expect, it } from "vitest";
import { groupBuys } from "~/db/schema";
import { SEARCH_MAX_LENGTH, searchText } from "~/domain/search";
import { db, decodedHtml, get, makeSignedInUser } from "./helpers";

// Issue 27: a 50-character search on /group-buy-management answered 500 (`LIKE or GLOB pattern too complex`).
// Every search box cuts its text to 100 characters and never errors (decision 420).

const long = (n: number) => Array.from("%_\\'😀ab".repeat(n)).slice(0, n).join("");

describe("a search", () => {
  it("is trimmed and cut to 100 whole characters", () => {
    expect(searchText("  lamp  ")).toBe("lamp");
    expect(searchText(null)).toBe("");
    expect(searchText("x".repeat(150))).toBe("x".repeat(SEARCH_MAX_LENGTH));
    // An emoji is two UTF-16 units: the cut never leaves half of one.
    const emoji = searchText("😀".repeat(150));
    expect(Array.from(emoji)).toHaveLength(SEARCH_MAX_LENGTH);
    expect(emoji).toBe("😀".repeat(SEARCH_MAX_LENGTH));
  });

  it("of 50 characters finds a host's group buy by its whole name, and a longer one answers too", async () => {
    const host = await makeSignedInUser({ name: "Search Host" });
    const name = `Fifty ${crypto.randomUUID()} character group buy`.slice(0, 50);
    expect(name).toHaveLength(50);
    await db()
      .insert(groupBuys)
      .values({
        hostId: host.id,
        name,
        status: "active",
        targetCents: 500_000,
        currency: "MYR",
        endAt: new Date(Date.now() + 86_400_000),
      });
    const found = await get(`/group-buy-management?q=${encodeURIComponent(name)}`, { cookie: host.cookie });
    expect(found.status).toBe(200);
    expect(await decodedHtml(found)).toContain(name);
    const longer = await get(`/group-buy-management?q=${encodeURIComponent(`${name}${"z".repeat(200)}`)}`, {
      cookie: host.cookie,
    });
    expect(longer.status).toBe(200);
    // The box shows what was searched: the first 100 characters.
    expect(await decodedHtml(longer)).toContain(`value="${name}${"z".repeat(50)}"`);
  });

  it("of any length, with %, _, quotes and emoji, answers every search box", async () => {
    const host = await makeSignedInUser({ name: "Search Boxes" });
    const admin = await makeSignedInUser({ name: "Search Admin", role: "admin" });
    const boxes: [string, string | null][] = [
      ["/shop", null],
      ["/explore", null],
      ["/my-orders", host.cookie],
      ["/orders", host.cookie],
      ["/voucher-management", host.cookie],
      ["/tribe", host.cookie],
      ["/group-buy-management", host.cookie],
      ["/admin", admin.cookie],
    ];
    for (const [path, cookie] of boxes) {
      for (const n of [50, 101, 400]) {
        const res = await get(`${path}?q=${encodeURIComponent(long(n))}`, { cookie });
        expect(res.status, `${path} ${n}`).toBe(200);
      }
    }
  });
});
