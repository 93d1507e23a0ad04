import { env } from "cloudflare:test";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  checkoutSessions,
  prizeEntries,
  prizeMiniPrizes,
  prizePoolContributions,
  prizePools,
  prizeWinners,
  userProfiles,
  type NewPrizePoolContribution,
} from "~/db/schema";
import { MS_PER_DAY } from "~/domain/countdown";
import {
  canonicalEntriesText,
  entriesDigest,
  frozenEntryList,
  sha256Hex,
  winnerIndex,
  type DrawEntry,
} from "~/domain/draw";
import { POOL_MESSAGES } from "~/domain/pool";
import fixture from "./fixtures/bitcoin-blocks.json";
import { closePool } from "~/lib/pools.server";
import { db, get, makeSignedInUser, makeUser, pageText, postForm, withoutNetwork } from "./helpers";

withoutNetwork();

const BLOCK = fixture.blocks.find((block) => block.height === 503252)!;

/** The toast a redirect carries in its flash cookie. */
function flashToast(res: Response): { message: string; type: string } | null {
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    if (!pair?.startsWith("__Host-toast=")) continue;
    // value.signature (signed with SESSION_SECRET); the value is base64 of the URI-encoded JSON.
    const value = pair.slice("__Host-toast=".length).split(".")[0]!;
    return JSON.parse(decodeURIComponent(atob(value)));
  }
  return null;
}

const signedInHost = (name: string) => makeSignedInUser({ name });

async function insertPool(hostId: string, values: Partial<typeof prizePools.$inferInsert> = {}) {
  const startAt = values.startAt ?? new Date(Date.now() - MS_PER_DAY);
  const id = values.id ?? crypto.randomUUID();
  await db()
    .insert(prizePools)
    .values({
      id,
      hostId,
      status: "open",
      targetCents: 500_000,
      startAt,
      endAt: new Date(startAt.getTime() + 30 * MS_PER_DAY),
      createdAt: startAt,
      ...values,
    });
  const [row] = await db().select().from(prizePools).where(eq(prizePools.id, id));
  return row!;
}

async function profileTarget(userId: string) {
  const [row] = await db()
    .select({ t: userProfiles.prizePoolTargetCents })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId));
  return row?.t;
}

async function hostPools(hostId: string) {
  return db().select().from(prizePools).where(eq(prizePools.hostId, hostId));
}

async function miniPrizeNames(poolId: string) {
  const rows = await db()
    .select()
    .from(prizeMiniPrizes)
    .where(eq(prizeMiniPrizes.poolId, poolId))
    .orderBy(asc(prizeMiniPrizes.createdAt));
  return rows.map((r) => [r.name, r.amountText, r.quantityText]);
}

const settingsForm = (fields: Record<string, string>) => ({
  intent: "save",
  targetAmount: "5000",
  durationDays: "30",
  "miniPrizes.0.name": "Signed print",
  "miniPrizes.0.amount": "100",
  "miniPrizes.0.quantity": "10",
  ...fields,
});

describe("/prize-pool-settings", () => {
  it("sends a visitor to sign in, for the page and for a save", async () => {
    const page = await get("/prize-pool-settings");
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/signin?redirectTo=%2Fprize-pool-settings");
    const save = await postForm("/prize-pool-settings", settingsForm({}));
    expect(save.status).toBe(302);
    expect(save.headers.get("Location")).toMatch(/^\/signin/);
    for (const path of ["/prize-pool-management", "/prize-pool-details", "/prize-pool"]) {
      const res = await get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location"), path).toMatch(/^\/signin\?redirectTo=/);
    }
  });

  it("shows the form to the host", async () => {
    const host = await signedInHost("Form Host");
    const res = await get("/prize-pool-settings", { cookie: host.cookie });
    expect(res.status).toBe(200);
    const text = await pageText(res);
    for (const label of ["Target amount (USD)", "Duration", "Mini prizes", "Host deposit", "Cancel", "Save Settings"]) {
      expect(text).toContain(label);
    }
  });

  const refusals: [string, Record<string, string>, string][] = [
    ["a target below 1,000", { targetAmount: "999" }, POOL_MESSAGES.target],
    [
      "a target not in steps of 1,000",
      { targetAmount: "1500" },
      "Please enter a target amount in steps of 1,000 USD (such as 1,000, 2,000 or 3,000).",
    ],
    ["a missing target", { targetAmount: "" }, POOL_MESSAGES.target],
    ["a duration not offered", { durationDays: "10" }, POOL_MESSAGES.duration],
    ["a deposit below USD 1", { intent: "deposit", depositAmount: "0.5" }, POOL_MESSAGES.deposit],
    ["a deposit that is not a number", { intent: "deposit", depositAmount: "lots" }, POOL_MESSAGES.deposit],
    [
      "a deposit over the most one payment carries",
      { intent: "deposit", depositAmount: "1000000" },
      "A deposit can be at most USD 999,999.99.",
    ],
    [
      "a deposit with fractions of a cent",
      { intent: "deposit", depositAmount: "2.555" },
      "Please enter the deposit in whole cents (at most 2 decimal places).",
    ],
  ];
  for (const [what, fields, message] of refusals) {
    it(`refuses ${what} with its message and changes nothing`, async () => {
      const host = await signedInHost("Refused Host");
      const pool = await insertPool(host.id, { targetCents: 200_000 });
      const before = await profileTarget(host.id);
      const res = await postForm("/prize-pool-settings", settingsForm(fields), { cookie: host.cookie });
      expect(res.status).toBe(400);
      expect(await pageText(res)).toContain(message);
      expect(await profileTarget(host.id)).toBe(before);
      const pools = await hostPools(host.id);
      expect(pools).toHaveLength(1);
      expect(pools[0]!.targetCents).toBe(200_000);
      expect(pools[0]!.endAt.getTime()).toBe(pool.endAt.getTime());
      expect(await miniPrizeNames(pool.id)).toEqual([]);
      expect(await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, host.id))).toEqual([]);
    });
  }

  it("saves the target and opens a pool with it when the host has none; nameless mini prizes are dropped", async () => {
    const host = await signedInHost("New Pool Host");
    const res = await postForm(
      "/prize-pool-settings",
      settingsForm({
        targetAmount: "7000",
        durationDays: "14",
        "miniPrizes.1.name": "   ",
        "miniPrizes.1.amount": "5",
        "miniPrizes.1.quantity": "1",
        "miniPrizes.2.name": " Shout-out ",
        "miniPrizes.2.amount": "15%",
        "miniPrizes.2.quantity": "unlimited",
      }),
      { cookie: host.cookie },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard");
    expect(flashToast(res)).toMatchObject({ message: "Settings saved successfully", type: "success" });
    expect(await profileTarget(host.id)).toBe(700_000);
    const pools = await hostPools(host.id);
    expect(pools).toHaveLength(1);
    const pool = pools[0]!;
    expect(pool.status).toBe("open");
    expect(pool.targetCents).toBe(700_000);
    expect(pool.endAt.getTime() - pool.startAt.getTime()).toBe(14 * MS_PER_DAY);
    expect(await miniPrizeNames(pool.id)).toEqual([
      ["Signed print", "100", "10"],
      ["Shout-out", "15%", "unlimited"],
    ]);
  });

  it("changes an open pool's target and end date within its first 3 days, and replaces its mini prizes", async () => {
    const host = await signedInHost("Early Host");
    const startAt = new Date(Date.now() - 2 * MS_PER_DAY);
    const pool = await insertPool(host.id, { startAt, targetCents: 200_000 });
    await db()
      .insert(prizeMiniPrizes)
      .values({ poolId: pool.id, hostId: host.id, name: "Old prize", amountText: "1", quantityText: "1" });
    const res = await postForm("/prize-pool-settings", settingsForm({ targetAmount: "3000", durationDays: "7" }), {
      cookie: host.cookie,
    });
    expect(res.status).toBe(302);
    expect(flashToast(res)?.message).toBe("Settings saved successfully");
    const [row] = await hostPools(host.id);
    expect(row!.id).toBe(pool.id);
    expect(row!.targetCents).toBe(300_000);
    expect(row!.endAt.getTime()).toBe(startAt.getTime() + 7 * MS_PER_DAY);
    expect(await miniPrizeNames(pool.id)).toEqual([["Signed print", "100", "10"]]);
    expect(await profileTarget(host.id)).toBe(300_000);
  });

  it("locks the open pool's terms after its first 3 days: only the profile (next pool) takes the new target", async () => {
    const host = await signedInHost("Late Host");
    const startAt = new Date(Date.now() - 4 * MS_PER_DAY);
    const pool = await insertPool(host.id, { startAt, targetCents: 200_000 });
    const page = await get("/prize-pool-settings", { cookie: host.cookie });
    expect(await pageText(page)).toContain("locked");

    const res = await postForm("/prize-pool-settings", settingsForm({ targetAmount: "9000", durationDays: "60" }), {
      cookie: host.cookie,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard");
    const toast = flashToast(res);
    expect(toast?.message).toContain("Settings saved successfully");
    expect(toast?.message).toContain("locked");
    const [row] = await hostPools(host.id);
    expect(row!.targetCents).toBe(200_000);
    expect(row!.endAt.getTime()).toBe(pool.endAt.getTime());
    expect(await profileTarget(host.id)).toBe(900_000);
    // Mini prizes are not part of the locked terms.
    expect(await miniPrizeNames(pool.id)).toEqual([["Signed print", "100", "10"]]);
  });

  it("shows the next pool's saved target and duration again, and opens the next pool with them", async () => {
    const host = await signedInHost("Next Pool Host");
    const startAt = new Date(Date.now() - 4 * MS_PER_DAY);
    const pool = await insertPool(host.id, { startAt, targetCents: 200_000 });
    const res = await postForm("/prize-pool-settings", settingsForm({ targetAmount: "9000", durationDays: "60" }), {
      cookie: host.cookie,
    });
    expect(res.status).toBe(302);
    // The page shows what was saved for the next pool, not the locked pool's terms or the defaults.
    const html = await (await get("/prize-pool-settings", { cookie: host.cookie })).text();
    expect(html).toMatch(/<input[^>]*id="targetAmount"[^>]*value="9000"/);
    expect(html).toMatch(/<option value="60" selected="">/);
    expect(html).not.toMatch(/<option value="30" selected="">/);
    // Another host's settings are their own.
    const other = await signedInHost("Other Settings Host");
    const otherHtml = await (await get("/prize-pool-settings", { cookie: other.cookie })).text();
    expect(otherHtml).toMatch(/<option value="30" selected="">/);

    await closePool(env, pool.id, "timer_expired");
    const next = (await hostPools(host.id)).find((p) => p.status === "open")!;
    expect(next.id).not.toBe(pool.id);
    expect(next.targetCents).toBe(900_000);
    expect(next.endAt.getTime() - next.startAt.getTime()).toBe(60 * MS_PER_DAY);
    expect(flashToast(res)?.message).toContain("your new target and duration apply to your next pool");
  });

  it("saves up to 20 mini prizes in order and refuses more, changing nothing", async () => {
    const host = await signedInHost("Many Prizes Host");
    const pool = await insertPool(host.id);
    const rows = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          [`miniPrizes.${i}.name`, `Prize ${i}`],
          [`miniPrizes.${i}.amount`, `${i}`],
          [`miniPrizes.${i}.quantity`, "1"],
        ]).flat(),
      );
    const tooMany = await postForm(
      "/prize-pool-settings",
      { intent: "save", targetAmount: "5000", durationDays: "30", ...rows(21) },
      { cookie: host.cookie },
    );
    expect(tooMany.status).toBe(400);
    expect(await pageText(tooMany)).toContain("at most 20 mini prizes");
    expect(await miniPrizeNames(pool.id)).toEqual([]);
    const ok = await postForm(
      "/prize-pool-settings",
      { intent: "save", targetAmount: "5000", durationDays: "30", ...rows(20) },
      { cookie: host.cookie },
    );
    expect(ok.status).toBe(302);
    expect((await miniPrizeNames(pool.id)).map(([name]) => name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Prize ${i}`),
    );
  });

  it("starts a hosted checkout for a valid deposit into the open pool", async () => {
    const host = await signedInHost("Depositing Host");
    await insertPool(host.id);
    const res = await postForm(
      "/prize-pool-settings",
      { intent: "deposit", depositAmount: "25.50" },
      { cookie: host.cookie },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^https?:\/\//);
    const sessions = await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, host.id));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ purpose: "host_deposit", amountCents: 2550, hostId: host.id });
  });

  it("refuses a deposit when the host has no pool", async () => {
    const host = await signedInHost("Poolless Host");
    const res = await postForm(
      "/prize-pool-settings",
      { intent: "deposit", depositAmount: "25" },
      { cookie: host.cookie },
    );
    expect(res.status).toBe(400);
    expect(await pageText(res)).toContain(POOL_MESSAGES.noPool);
  });
});

describe("/prize-pool-management", () => {
  it("sums the open pool's contributions by source, shows the larger amount, and lists the host's winners", async () => {
    const host = await signedInHost("Busy Host");
    const fans = await Promise.all([1, 2].map((n) => makeUser({ name: `Busy Fan ${n}` })));
    const pool = await insertPool(host.id, { targetCents: 100_000 });
    const contribution = (
      sourceType: NewPrizePoolContribution["sourceType"],
      amountCents: number,
      userId: string | null,
    ) => ({
      poolId: pool.id,
      hostId: host.id,
      sourceType,
      sourceKey: `src_${crypto.randomUUID()}`,
      amountCents,
      userId,
    });
    await db()
      .insert(prizePoolContributions)
      .values([
        contribution("product_purchase", 1500, fans[0]!.id),
        contribution("product_purchase", 2500, fans[1]!.id),
        contribution("guess_entry", 300, fans[0]!.id),
        contribution("host_deposit", 10_000, host.id),
      ]);
    // An older, drawn pool with a main and a mini winner.
    const old = await insertPool(host.id, {
      status: "drawn",
      startAt: new Date(Date.now() - 60 * MS_PER_DAY),
      closedAt: new Date(),
    });
    await db()
      .insert(prizeWinners)
      .values([
        { poolId: old.id, winnerName: "Alya Main", prizeAmountCents: 60_000, prizeType: "main", entryNumber: 3 },
        { poolId: old.id, winnerName: "Badrul Mini", prizeAmountCents: 1_000, prizeType: "mini" },
      ]);

    const res = await get("/prize-pool-management", { cookie: host.cookie });
    expect(res.status).toBe(200);
    const text = await pageText(res);
    // The stored amount is 0 (no object mirrored yet): the contribution sum is shown.
    expect(text).toContain("USD 143.00");
    expect(text).toMatch(/Store Sales USD 40\.00 \( ?28\.0 ?%\)/);
    expect(text).toMatch(/Entry Fees USD 3\.00 \( ?2\.1 ?%\)/);
    expect(text).toMatch(/Host Deposits USD 100\.00 \( ?69\.9 ?%\)/);
    expect(text).not.toContain("Ad Revenue");
    // Progress: 14300 of 100000 = 14%; split 60/25/15 of USD 143.00.
    expect(text).toContain("14% of target");
    expect(text).toContain("USD 85.80");
    expect(text).toContain("USD 35.75");
    expect(text).toContain("USD 21.45");
    // Two distinct fans took part (the host's deposit is not participation).
    expect(text).toMatch(/Participants 2\b/);
    expect(text).toContain("Alya Main");
    expect(text).toContain("Main Prize");
    expect(text).toContain("Badrul Mini");
    expect(text).toContain("Mini Prize");
    expect(text).toContain("View All");
    expect(text).not.toContain("No winners yet");
  });

  it("shows the placeholder sources at zero and the empty winners row, and never another host's data", async () => {
    const host = await signedInHost("Quiet Host");
    await insertPool(host.id);
    const res = await get("/prize-pool-management", { cookie: host.cookie });
    expect(res.status).toBe(200);
    const text = await pageText(res);
    for (const label of ["Store Sales", "Entry Fees", "Ad Revenue", "Group Buy Entries", "Host Deposits"]) {
      expect(text).toMatch(new RegExp(`${label} USD 0\\.00 \\( ?0\\.0 ?%\\)`));
    }
    expect(text).toContain("No winners yet");
    expect(text).toContain("Start playing to see winners!");
    expect(text).not.toContain("Alya Main");
  });
});

describe("/prize-pool-details and /prize-pool", () => {
  it("shows the breakdown, the host's winners with their verification links and real growth metrics", async () => {
    const host = await signedInHost("Detail Host");
    const pool = await insertPool(host.id);
    await db()
      .insert(prizePoolContributions)
      .values({
        poolId: pool.id,
        hostId: host.id,
        sourceType: "ad_revenue",
        sourceKey: `ad_${crypto.randomUUID()}`,
        amountCents: 4_321,
      });
    const drawn = await insertPool(host.id, {
      status: "drawn",
      startAt: new Date(Date.now() - 90 * MS_PER_DAY),
      closeReason: "timer_expired",
      winnerEntryNumber: 0,
    });
    await db().insert(prizeWinners).values({
      poolId: drawn.id,
      winnerName: "Chen Winner",
      prizeAmountCents: 5_000,
      prizeType: "main",
      entryNumber: 0,
    });

    const details = await pageText(await get("/prize-pool-details", { cookie: host.cookie }));
    expect(details).toContain("Contribution Breakdown");
    expect(details).toMatch(/Ad Revenue 30% of each payment USD 43\.21 100\.0 ?%/);
    expect(details).toContain("Chen Winner");
    expect(details).toContain("Growth Metrics");
    expect(details).toContain("USD 43.21 from 1 contribution");
    const detailsHtml = await (await get("/prize-pool-details", { cookie: host.cookie })).text();
    expect(detailsHtml).toContain(`href="/winner-selection/${drawn.id}"`);
    expect(detailsHtml).toContain('href="/prize-pool-settings"');
    expect(detailsHtml).toContain('href="/winner-selection"');

    const historyHtml = await (await get("/prize-pool", { cookie: host.cookie })).text();
    expect(historyHtml).toContain(`href="/winner-selection/${drawn.id}"`);
    expect(historyHtml).not.toContain(`href="/winner-selection/${pool.id}"`);
    const history = await pageText(new Response(historyHtml));
    expect(history).toContain("Timer expired");
    expect(history).toContain("Entry #0");
    expect(history).toContain("Chen Winner");
  });
});

describe("/prize-pool status", () => {
  it("shows each pool's status once, with the draw's detail beside a closed one", async () => {
    const host = await signedInHost("Status Host");
    await insertPool(host.id);
    const closedStart = new Date(Date.now() - 90 * MS_PER_DAY);
    await insertPool(host.id, {
      status: "closed",
      startAt: closedStart,
      closeReason: "timer_expired",
      closedAt: new Date(closedStart.getTime() + 30 * MS_PER_DAY),
    });
    const html = await (await get("/prize-pool", { cookie: host.cookie })).text();
    const body = html.slice(html.indexOf("<tbody"), html.indexOf("</tbody>"));
    const rows = await Promise.all(
      body
        .split("</tr>")
        .slice(0, -1)
        .map((row) => pageText(new Response(row))),
    );
    expect(rows).toHaveLength(2);
    const open = rows.find((row) => row.includes("Open"))!;
    const closed = rows.find((row) => row.includes("Closed"))!;
    expect(open.match(/\bOpen\b/g)).toHaveLength(1);
    expect(closed.match(/\bClosed\b/g)).toHaveLength(1);
    expect(closed).toContain("No entries");
  });
});

describe("/winner-selection/{poolId}", () => {
  async function drawnPool(entryCount: number, opts: { drawn?: boolean; height?: number | null } = {}) {
    const host = await makeUser({ name: "Verified Host" });
    const fan = await makeUser({ name: "Lucky Fan" });
    const poolId = crypto.randomUUID();
    const entries: DrawEntry[] = Array.from({ length: entryCount }, (_, i) => ({
      entryNumber: i,
      sourceKey: `pi_verify_${poolId.slice(0, 8)}_${i}`,
    }));
    // A list frozen before entries.txt named sources (form 1, the column's default): it still verifies (decision 530).
    const digest = await entriesDigest(entries, 1);
    const drawn = opts.drawn ?? true;
    const winner = drawn ? winnerIndex(BLOCK.id, entryCount) : null;
    const closedAt = new Date(Date.now() - 2 * MS_PER_DAY);
    await insertPool(host.id, {
      id: poolId,
      status: drawn ? "drawn" : "closed",
      startAt: new Date(Date.now() - 40 * MS_PER_DAY),
      closedAt,
      closeReason: "timer_expired",
      entriesCount: entryCount,
      amountCents: 250_000,
      entriesDigest: digest,
      drawBlockHeight: opts.height === undefined ? BLOCK.height : opts.height,
      drawBlockHash: drawn ? BLOCK.id : null,
      winnerEntryNumber: winner,
      winnerUserId: drawn ? fan.id : null,
      drawnAt: drawn ? new Date(closedAt.getTime() + 3_600_000) : null,
    });
    // D1 binds at most 100 parameters per statement: 15 rows of 6 values per insert.
    for (let i = 0; i < entries.length; i += 15) {
      await db()
        .insert(prizeEntries)
        .values(
          entries.slice(i, i + 15).map((e) => ({
            poolId,
            entryNumber: e.entryNumber,
            sourceKey: e.sourceKey,
            userId: e.entryNumber === winner ? fan.id : null,
          })),
        );
    }
    if (drawn) {
      await db().insert(prizeWinners).values({
        poolId,
        userId: fan.id,
        winnerName: "Lucky Fan",
        prizeAmountCents: 150_000,
        prizeType: "main",
        entryNumber: winner,
      });
    }
    return { poolId, entries, digest, winner };
  }

  it("shows every input of a drawn pool's draw: digest, height, hash, count, winning entry and winner", async () => {
    const { poolId, digest, winner } = await drawnPool(37);
    const res = await get(`/winner-selection/${poolId}`);
    expect(res.status).toBe(200);
    const text = await pageText(res);
    expect(text).toContain(poolId);
    expect(text).toContain("Verified Host");
    expect(text).toContain(digest);
    expect(text).toContain(`#${BLOCK.height}`);
    expect(text).toContain(BLOCK.id);
    expect(text).toContain(BigInt(`0x${BLOCK.id}`).toString(10));
    expect(text).toMatch(/Entry count 37\b/);
    expect(text).toContain(`#${winner} = the valid entry at position hash mod (valid entries), in entry-number order`);
    expect(text).toContain("Lucky Fan");
    expect(text).toContain("Timer expired");
    expect(text).toContain("Verify in your browser");
    // Entries are listed by their opaque key, as entries.txt publishes them: never the private source key.
    expect(text).toContain(await sha256Hex(`pi_verify_${poolId.slice(0, 8)}_36`));
    expect(text).not.toContain(`pi_verify_${poolId.slice(0, 8)}_36`);
  });

  it("serves the canonical entry list as text/plain, hashing to the published digest", async () => {
    const { poolId, entries, digest } = await drawnPool(12);
    const res = await get(`/winner-selection/${poolId}/entries.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toBe(canonicalEntriesText(await frozenEntryList(entries, 1)));
    expect(await sha256Hex(text)).toBe(digest);
  });

  it("pages a long entry list", async () => {
    const { poolId } = await drawnPool(130);
    // Each line by its opaque key (SHA-256 of the source key), as entries.txt publishes it.
    const key = (i: number) => sha256Hex(`pi_verify_${poolId.slice(0, 8)}_${i}`);
    const first = await pageText(await get(`/winner-selection/${poolId}`));
    expect(first).toContain(await key(99));
    expect(first).not.toContain(await key(100));
    const second = await pageText(await get(`/winner-selection/${poolId}?page=2`));
    expect(second).toContain(await key(129));
    expect(second).not.toContain(await key(5));
  });

  it("says a closed pool is waiting for its block", async () => {
    const { poolId } = await drawnPool(5, { drawn: false, height: 900_001 });
    const res = await get(`/winner-selection/${poolId}`);
    expect(res.status).toBe(200);
    expect(await pageText(res)).toContain("Waiting for Bitcoin block #900001 and its confirmations");
  });

  it("says an open pool is still open and has no entry list yet; unknown pools are 404", async () => {
    const host = await makeUser({ name: "Open Host" });
    const pool = await insertPool(host.id);
    const res = await get(`/winner-selection/${pool.id}`);
    expect(res.status).toBe(200);
    expect(await pageText(res)).toContain("This pool is still open");
    expect((await get(`/winner-selection/${pool.id}/entries.txt`)).status).toBe(404);
    expect((await get("/winner-selection/00000000-0000-0000-0000-000000000000")).status).toBe(404);
    expect((await get("/winner-selection/00000000-0000-0000-0000-000000000000/entries.txt")).status).toBe(404);
    expect((await get("/winner-selection/%27%3B--")).status).toBe(404);
  });

  it("lists recent draws on /winner-selection, linking to their verification pages, beside the demo", async () => {
    const { poolId } = await drawnPool(3);
    const res = await get("/winner-selection");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`href="/winner-selection/${poolId}"`);
    for (const href of [
      'href="/"',
      'href="/guess-win"',
      'href="/official-rules"',
      "https://blockstream.info/",
      "https://mempool.space/",
    ]) {
      expect(html).toContain(href);
    }
    const text = await pageText(new Response(html));
    expect(text).toContain("Run demo");
    expect(text).toContain("Number of participants");
  });
});

describe("ownership", () => {
  it("shows a host only their own pools on the history page", async () => {
    const a = await signedInHost("Owner A");
    const b = await signedInHost("Owner B");
    const poolA = await insertPool(a.id, { status: "closed", closedAt: new Date(), closeReason: "target_reached" });
    const html = await (await get("/prize-pool", { cookie: b.cookie })).text();
    expect(html).not.toContain(poolA.id);
    const own = await (await get("/prize-pool", { cookie: a.cookie })).text();
    expect(own).toContain(poolA.id);
    expect(
      await db()
        .select()
        .from(prizePools)
        .where(and(eq(prizePools.hostId, b.id))),
    ).toEqual([]);
  });
});
