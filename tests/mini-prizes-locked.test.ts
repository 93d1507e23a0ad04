import { env } from "cloudflare:test";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { guessWinGames, guessWinParticipants, poolContributionKeys, prizeMiniPrizes, prizePools } from "~/db/schema";
import { replaceMiniPrizes } from "~/db/queries/pool-screens.server";
import { MINI_PRIZES_LOCKED_MESSAGE } from "~/domain/mini-prizes";
import { addContribution, ensureOpenPool } from "~/lib/pools.server";
import { decodedHtml, db, get, makeSignedInUser, makeUser, pageText, postForm, withoutNetwork } from "./helpers";

// Prizes fixed once people enter (issue 29 item 7, decision 560): a pool's mini prizes cannot be added, changed or
// removed once it has an entry (or one on its way), on the server; the settings page says why its fields are locked.

withoutNetwork();

/** The toast a redirect carries in its flash cookie. */
function flashToast(res: Response): { message: string; type: string } | null {
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    if (!pair?.startsWith("__Host-toast=")) continue;
    const value = pair.slice("__Host-toast=".length).split(".")[0]!;
    return JSON.parse(decodeURIComponent(atob(value)));
  }
  return null;
}

const PRINT = { "miniPrizes.0.name": "Signed print", "miniPrizes.0.amount": "100", "miniPrizes.0.quantity": "10" };
const form = (fields: Record<string, string>, targetAmount = "5000") => ({
  intent: "save",
  targetAmount,
  durationDays: "30",
  ...fields,
});

async function miniPrizesOf(poolId: string) {
  const rows = await db()
    .select()
    .from(prizeMiniPrizes)
    .where(eq(prizeMiniPrizes.poolId, poolId))
    .orderBy(asc(prizeMiniPrizes.createdAt));
  return rows.map((r) => [r.name, r.amountText, r.quantityText]);
}

/** A host with an open pool whose mini prizes were saved through the form before anyone entered. */
async function hostWithPrizes(name: string) {
  const host = await makeSignedInUser({ name });
  const pool = await ensureOpenPool(env, host.id);
  const saved = await postForm("/prize-pool-settings", form(PRINT), { cookie: host.cookie });
  expect(saved.status).toBe(302);
  expect(flashToast(saved)?.message).toBe("Settings saved successfully");
  expect(await miniPrizesOf(pool.id)).toEqual([["Signed print", "100", "10"]]);
  return { host, pool };
}

async function enter(hostId: string, key: string) {
  const fan = await makeUser({ name: "Locked Pool Fan" });
  const result = await addContribution(env, {
    hostId,
    sourceType: "product_purchase",
    sourceKey: key,
    amountCents: 300,
    currency: "USD",
    userId: fan.id,
    earnsEntry: true,
  });
  expect(result.entryNumber).toBe(0);
}

describe("mini prizes before anyone enters", () => {
  it("can be added, edited and removed", async () => {
    const { host, pool } = await hostWithPrizes("Unlocked Host");
    const page = await pageText(await get("/prize-pool-settings", { cookie: host.cookie }));
    expect(page).not.toContain(MINI_PRIZES_LOCKED_MESSAGE);

    const added = await postForm(
      "/prize-pool-settings",
      form({ ...PRINT, "miniPrizes.1.name": "Sticker", "miniPrizes.1.amount": "5", "miniPrizes.1.quantity": "3" }),
      { cookie: host.cookie },
    );
    expect(flashToast(added)?.message).toBe("Settings saved successfully");
    expect(await miniPrizesOf(pool.id)).toEqual([
      ["Signed print", "100", "10"],
      ["Sticker", "5", "3"],
    ]);
    await postForm("/prize-pool-settings", form({ ...PRINT, "miniPrizes.0.name": "Framed print" }), {
      cookie: host.cookie,
    });
    expect(await miniPrizesOf(pool.id)).toEqual([["Framed print", "100", "10"]]);
    await postForm("/prize-pool-settings", form({}), { cookie: host.cookie });
    expect(await miniPrizesOf(pool.id)).toEqual([]);
  });
});

describe("mini prizes once the pool has an entry", () => {
  it("refuse an addition, an edit and a removal with a clear message, changing nothing", async () => {
    const { host, pool } = await hostWithPrizes("Locked Host");
    await enter(host.id, `pi_locked_${pool.id}`);

    for (const fields of [
      { ...PRINT, "miniPrizes.1.name": "Sticker", "miniPrizes.1.amount": "5", "miniPrizes.1.quantity": "3" },
      { ...PRINT, "miniPrizes.0.name": "Framed print" },
      { ...PRINT, "miniPrizes.0.quantity": "unlimited" },
      {},
    ]) {
      const res = await postForm("/prize-pool-settings", form(fields, "7000"), { cookie: host.cookie });
      expect(res.status).toBe(409);
      expect(await pageText(res)).toContain(MINI_PRIZES_LOCKED_MESSAGE);
      expect(await miniPrizesOf(pool.id)).toEqual([["Signed print", "100", "10"]]);
      const [row] = await db().select().from(prizePools).where(eq(prizePools.id, pool.id));
      expect(row!.targetCents).toBe(500_000);
    }
    // The query refuses too, whoever calls it.
    expect(await replaceMiniPrizes(db(), pool.id, host.id, [])).toBe("entered");
    expect(await miniPrizesOf(pool.id)).toEqual([["Signed print", "100", "10"]]);
  });

  it("shows the fields locked and why, and still saves the rest of the form with them unchanged", async () => {
    const { host, pool } = await hostWithPrizes("Locked Page Host");
    await enter(host.id, `pi_lockedpage_${pool.id}`);

    const res = await get("/prize-pool-settings", { cookie: host.cookie });
    const text = await pageText(res.clone());
    expect(text).toContain(`${MINI_PRIZES_LOCKED_MESSAGE} They stay as they are until the pool closes.`);
    const html = await decodedHtml(res);
    const nameInput = /<input[^>]*name="miniPrizes\.0\.name"[^>]*>/.exec(html)?.[0] ?? "";
    expect(nameInput).toContain('value="Signed print"');
    expect(nameInput.toLowerCase()).toContain('readonly=""');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Add mini prize<\/button>/);

    const saved = await postForm("/prize-pool-settings", form(PRINT, "8000"), { cookie: host.cookie });
    expect(saved.status).toBe(302);
    expect(flashToast(saved)?.message).toBe("Settings saved successfully");
    const [row] = await db().select().from(prizePools).where(eq(prizePools.id, pool.id));
    expect(row!.targetCents).toBe(800_000);
    expect(await miniPrizesOf(pool.id)).toEqual([["Signed print", "100", "10"]]);
  });

  it("are locked by an entry on its way: a paid purchase reserved for the pool, or a correct guess of an ended game", async () => {
    const { host, pool } = await hostWithPrizes("In Flight Host");
    const fan = await makeUser({ name: "In Flight Fan" });
    await db()
      .insert(poolContributionKeys)
      .values({
        sourceKey: `pi_inflight_${pool.id}`,
        hostId: host.id,
        poolId: pool.id,
        sourceType: "product_purchase",
        amountCents: 300,
        currency: "USD",
        userId: fan.id,
        earnsEntry: true,
      });
    const res = await postForm("/prize-pool-settings", form({}), { cookie: host.cookie });
    expect(res.status).toBe(409);
    expect(await miniPrizesOf(pool.id)).toEqual([["Signed print", "100", "10"]]);

    const other = await hostWithPrizes("Guess Flight Host");
    const [game] = await db()
      .insert(guessWinGames)
      .values({
        hostId: other.host.id,
        question: "Which way does the river bend?",
        options: ["Left", "Right"],
        correctAnswer: "Left",
        entryFeeCents: 0,
        status: "completed",
        endedAt: new Date(),
      })
      .returning();
    await db()
      .insert(guessWinParticipants)
      .values({
        gameId: game!.id,
        userId: fan.id,
        answer: "Left",
        isCorrect: true,
        kind: "free",
        paymentStatus: "paid",
        confirmedAt: new Date(Date.now() - 1000),
      });
    const guessed = await postForm("/prize-pool-settings", form({}), { cookie: other.host.cookie });
    expect(guessed.status).toBe(409);
    expect(await pageText(guessed)).toContain(MINI_PRIZES_LOCKED_MESSAGE);
  });
});
