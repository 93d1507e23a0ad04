import { env } from "cloudflare:test";
import { and, asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  adminAuditLog,
  freeEntries,
  postalEntries,
  prizeEntries,
  prizePoolContributions,
  prizePools,
  users,
} from "~/db/schema";
import { sha256Hex } from "~/domain/draw";
import {
  FREE_ENTRIES_PER_ADDRESS_PER_DAY,
  FREE_ENTRY_MESSAGES,
  FREE_ENTRY_VOID_MESSAGES,
  LOCAL_BOT_CHECK_TOKEN,
  POSTAL_ENTRY_MESSAGES,
} from "~/domain/free-entries";
import { ENTRY_REFUSAL_MESSAGES } from "~/domain/eligibility";
import { botCheckWidget, botVerifier, turnstileVerifier } from "~/lib/bot-check.server";
import { enterForFree } from "~/lib/free-entries.server";
import { addContribution, closePool, openPool, poolStub, publicPoolState } from "~/lib/pools.server";
import { drawPool } from "~/lib/draw.server";
import { verifyPublishedDraw } from "~/domain/draw-verification";
import { commitToParent } from "./support/draw";
import { DRAW_BLOCKS, FakeExplorer } from "./model/world";
import { db, get, makeSignedInUser, makeUser, pageText, postForm, randomIp, sessionUserOf, signIn } from "./helpers";

// The free entry routes (issue 29 item 1, decision 530): the form, its checks, the admin's voids and postal cards,
// and entries.txt naming each entry's source. The network is off: a close waits to commit its block.
beforeEach(() => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
    throw new TypeError("network disabled in tests");
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const DAY = 86_400_000;

/** A host with an open pool (a target no test reaches). */
async function hostWithPool(name = "Free Host") {
  const host = await makeUser({ name });
  const pool = await openPool(env, { hostId: host.id, targetCents: 10_000_000 });
  return { host, pool };
}

/** A fan whose account is two days old (confirmed unless told otherwise), signed in. */
async function agedFan(opts: { emailConfirmed?: boolean; ageMs?: number; role?: "user" | "admin" } = {}) {
  const fan = await makeUser({ name: "Free Fan", emailConfirmed: opts.emailConfirmed ?? true, role: opts.role });
  await db()
    .update(users)
    .set({ createdAt: new Date(Date.now() - (opts.ageMs ?? 2 * DAY)) })
    .where(eq(users.id, fan.id));
  return { ...fan, cookie: await signIn(fan.email) };
}

function enter(hostId: string, cookie: string, fields: Record<string, string> = {}, ip = randomIp()) {
  return postForm(`/enter-free/${hostId}`, { botToken: LOCAL_BOT_CHECK_TOKEN, ...fields }, { cookie, ip });
}

async function poolRow(poolId: string) {
  const [row] = await db().select().from(prizePools).where(eq(prizePools.id, poolId));
  return row!;
}

async function entriesOf(poolId: string) {
  return db().select().from(prizeEntries).where(eq(prizeEntries.poolId, poolId)).orderBy(asc(prizeEntries.entryNumber));
}

describe("the free entry form", () => {
  it("says before entry that winners' names are published, then enters with the same weight as a paid entry", async () => {
    const { host, pool } = await hostWithPool();
    const fan = await agedFan();
    const page = await pageText(await get(`/enter-free/${host.id}`, { cookie: fan.cookie }));
    expect(page).toContain("Enter for free");
    expect(page).toContain(FREE_ENTRY_MESSAGES.publication);
    expect(page).toContain("Withhold my name if I win");

    const res = await enter(host.id, fan.cookie, { withholdName: "on" });
    expect(res.status).toBe(200);
    expect(await pageText(res)).toContain("Your entry number is #0 in Free Host's pool.");

    // A paid entry after it: numbers continue, the amount is the paid share only, both entries count alike.
    const buyer = await makeUser({ name: "Paying Fan" });
    const paid = await addContribution(env, {
      hostId: host.id,
      sourceType: "product_purchase",
      sourceKey: `pi_free_${pool.id}`,
      amountCents: 250,
      currency: "USD",
      userId: buyer.id,
      earnsEntry: true,
    });
    expect(paid.entryNumber).toBe(1);
    const row = await poolRow(pool.id);
    expect(row).toMatchObject({ amountCents: 250, entriesCount: 2 });
    const entries = await entriesOf(pool.id);
    expect(entries.map((e) => [e.entryNumber, e.sourceType, e.userId])).toEqual([
      [0, "free_entry", fan.id],
      [1, "product_purchase", buyer.id],
    ]);
    const [contribution] = await db()
      .select()
      .from(prizePoolContributions)
      .where(eq(prizePoolContributions.sourceKey, entries[0]!.sourceKey));
    expect(contribution).toMatchObject({ amountCents: 0, sourceType: "free_entry", entryNumber: 0 });
    const [account] = await db().select().from(users).where(eq(users.id, fan.id));
    expect(account!.withholdWinnerName).toBe(true);
  });

  it("refuses a second free entry the same UTC day and allows one the next day", async () => {
    const { host, pool } = await hostWithPool();
    const fan = await agedFan();
    expect((await enter(host.id, fan.cookie)).status).toBe(200);
    const again = await enter(host.id, fan.cookie);
    expect(again.status).toBe(409);
    expect(await pageText(again)).toContain(FREE_ENTRY_MESSAGES.alreadyToday);
    expect((await poolRow(pool.id)).entriesCount).toBe(1);

    const tomorrow = new Date(Date.now() + DAY);
    const form = new FormData();
    form.set("botToken", LOCAL_BOT_CHECK_TOKEN);
    const next = await enterForFree(env, {
      user: sessionUserOf(fan),
      hostId: host.id,
      form,
      address: randomIp(),
      now: tomorrow,
    });
    expect(next).toMatchObject({ ok: true, poolId: pool.id, entryNumber: 1 });
    expect((await poolRow(pool.id)).entriesCount).toBe(2);
  });

  it("refuses an account younger than a day and an unconfirmed one, and a host in their own pool", async () => {
    const { host, pool } = await hostWithPool();
    const young = await agedFan({ ageMs: 23 * 60 * 60 * 1000 });
    const res = await enter(host.id, young.cookie);
    expect(res.status).toBe(403);
    expect(await pageText(res)).toContain(FREE_ENTRY_MESSAGES.tooNew);

    const unconfirmed = await agedFan({ emailConfirmed: false });
    const refused = await enter(host.id, unconfirmed.cookie);
    expect(refused.status).toBe(403);
    expect(await pageText(refused)).toContain(FREE_ENTRY_MESSAGES.unconfirmed);

    await db()
      .update(users)
      .set({ createdAt: new Date(Date.now() - 2 * DAY) })
      .where(eq(users.id, host.id));
    const own = await enter(host.id, await signIn(host.email));
    expect(own.status).toBe(403);
    expect(await pageText(own)).toContain(ENTRY_REFUSAL_MESSAGES.own_pool);

    const staff = await agedFan({ role: "admin" });
    const staffEntry = await enter(host.id, staff.cookie);
    expect(staffEntry.status).toBe(403);
    expect(await pageText(staffEntry)).toContain(ENTRY_REFUSAL_MESSAGES.staff);
    expect((await poolRow(pool.id)).entriesCount).toBe(0);
  });

  it("sends a visitor to sign in", async () => {
    const { host } = await hostWithPool();
    const res = await get(`/enter-free/${host.id}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain(`/signin?redirectTo=${encodeURIComponent(`/enter-free/${host.id}`)}`);
  });

  it("refuses a failed bot check and records nothing", async () => {
    const { host, pool } = await hostWithPool();
    const fan = await agedFan();
    for (const token of ["", "a-guessed-token"]) {
      const res = await enter(host.id, fan.cookie, { botToken: token });
      expect(res.status).toBe(400);
      expect(await pageText(res)).toContain(FREE_ENTRY_MESSAGES.botCheck);
    }
    expect((await poolRow(pool.id)).entriesCount).toBe(0);
    expect(await db().select().from(freeEntries).where(eq(freeEntries.userId, fan.id))).toEqual([]);
  });

  it("limits the free entries one address makes in a UTC day", async () => {
    const address = randomIp();
    const { host, pool } = await hostWithPool();
    for (let i = 0; i < FREE_ENTRIES_PER_ADDRESS_PER_DAY; i++) {
      const fan = await agedFan();
      expect((await enter(host.id, fan.cookie, {}, address)).status).toBe(200);
    }
    const fan = await agedFan();
    const over = await enter(host.id, fan.cookie, {}, address);
    expect(over.status).toBe(429);
    expect(await pageText(over)).toContain(FREE_ENTRY_MESSAGES.addressLimit);
    // Another address is not held back.
    expect((await enter(host.id, fan.cookie)).status).toBe(200);
    expect((await poolRow(pool.id)).entriesCount).toBe(FREE_ENTRIES_PER_ADDRESS_PER_DAY + 1);
  });
});

describe("the bot check's verifiers", () => {
  const okJson = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

  it("passes Turnstile's answer through and fails closed on a refusal, an error, a bad answer or a timeout", async () => {
    const calls: { url: string; body: FormData }[] = [];
    const answering = (response: () => Promise<Response>) =>
      (async (input: RequestInfo | URL, init?: RequestInit) => {
        calls.push({ url: String(input), body: init?.body as FormData });
        return response();
      }) as typeof fetch;
    expect(
      await turnstileVerifier(
        "secret",
        answering(async () => okJson({ success: true })),
      ).verify("tok", "1.2.3.4"),
    ).toBe(true);
    expect(calls[0]!.url).toBe("https://challenges.cloudflare.com/turnstile/v0/siteverify");
    expect(calls[0]!.body.get("secret")).toBe("secret");
    expect(calls[0]!.body.get("response")).toBe("tok");
    expect(calls[0]!.body.get("remoteip")).toBe("1.2.3.4");

    const refusals: (() => Promise<Response>)[] = [
      async () => okJson({ success: false, "error-codes": ["invalid-input-response"] }),
      async () => okJson({ success: true }, 500),
      async () => new Response("not json", { status: 200 }),
      async () => {
        throw new TypeError("network error");
      },
    ];
    for (const response of refusals) {
      expect(await turnstileVerifier("secret", answering(response)).verify("tok", null)).toBe(false);
    }
    // A siteverify that never answers: refused once the timeout passes.
    const hanging = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
      })) as typeof fetch;
    expect(await turnstileVerifier("secret", hanging, 50).verify("tok", null)).toBe(false);
    // No token: refused without asking.
    expect(
      await turnstileVerifier(
        "secret",
        answering(async () => okJson({ success: true })),
      ).verify("", null),
    ).toBe(false);
  });

  it("is chosen by configuration: Turnstile with both keys, the local check only in demo mode, else refusing", async () => {
    expect(botCheckWidget({ DEMO_MODE: "false", TURNSTILE_SITE_KEY: "site", TURNSTILE_SECRET_KEY: "s" })).toEqual({
      kind: "turnstile",
      siteKey: "site",
    });
    expect(botCheckWidget({ DEMO_MODE: "true" }).kind).toBe("local");
    expect(botCheckWidget({ DEMO_MODE: "false", TURNSTILE_SITE_KEY: "site" }).kind).toBe("off");
    // Production without keys: even the local token is refused.
    expect(await botVerifier({ DEMO_MODE: "false" }).verify(LOCAL_BOT_CHECK_TOKEN, null)).toBe(false);
    // Configured Turnstile in production, siteverify down: refused.
    const down = (async () => {
      throw new TypeError("down");
    }) as typeof fetch;
    const configured = { DEMO_MODE: "false", TURNSTILE_SITE_KEY: "site", TURNSTILE_SECRET_KEY: "s" };
    expect(await botVerifier(configured, down).verify(LOCAL_BOT_CHECK_TOKEN, null)).toBe(false);
  });
});

describe("voiding a free entry", () => {
  it("voids before the freeze with a logged reason: the entry keeps its number, is not drawn, and entries.txt marks it", async () => {
    const { host, pool } = await hostWithPool();
    const fans = [await agedFan(), await agedFan()];
    for (const fan of fans) expect((await enter(host.id, fan.cookie)).status).toBe(200);
    const admin = await makeSignedInUser({ role: "admin" });
    const [entry] = await db().select().from(freeEntries).where(eq(freeEntries.userId, fans[0]!.id));

    const noReason = await postForm(
      "/admin",
      { intent: "void-free-entry", freeEntryId: entry!.id, reason: "" },
      { cookie: admin.cookie },
    );
    expect(noReason.status).toBe(400);
    expect((await poolRow(pool.id)).entriesCount).toBe(2);

    const page = await pageText(await get("/admin", { cookie: admin.cookie }));
    expect(page).toContain("Free entries by address");
    expect(page).toContain(entry!.address);

    const voided = await postForm(
      "/admin",
      { intent: "void-free-entry", freeEntryId: entry!.id, reason: "Same person as another account" },
      { cookie: admin.cookie },
    );
    expect(voided.status).toBe(200);
    expect(await pageText(voided)).toContain("Free entry #0 voided");
    expect((await poolRow(pool.id)).entriesCount).toBe(1);
    const entries = await entriesOf(pool.id);
    expect(entries.map((e) => [e.entryNumber, e.voidedAt !== null])).toEqual([
      [0, true],
      [1, false],
    ]);
    const [audit] = await db()
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, "free_entry_voided"), eq(adminAuditLog.targetUserId, fans[0]!.id)));
    expect(audit).toMatchObject({
      adminId: admin.id,
      detail: { reason: "Same person as another account", entryNumber: 0 },
    });
    const again = await postForm(
      "/admin",
      { intent: "void-free-entry", freeEntryId: entry!.id, reason: "again" },
      { cookie: admin.cookie },
    );
    expect(again.status).toBe(409);

    await closePool(env, pool.id, "closed_early");
    const text = await (await get(`/winner-selection/${pool.id}/entries.txt`)).text();
    const lines = text.trim().split("\n");
    expect(lines[0]).toMatch(/^0:[0-9a-f]{64}:free:void$/);
    expect(lines[1]).toMatch(/^1:[0-9a-f]{64}:free$/);
  });

  it("refuses a void once the pool has closed", async () => {
    const { host, pool } = await hostWithPool();
    const fan = await agedFan();
    expect((await enter(host.id, fan.cookie)).status).toBe(200);
    await closePool(env, pool.id, "closed_early");
    const admin = await makeSignedInUser({ role: "admin" });
    const [entry] = await db().select().from(freeEntries).where(eq(freeEntries.userId, fan.id));
    const res = await postForm(
      "/admin",
      { intent: "void-free-entry", freeEntryId: entry!.id, reason: "Too late" },
      { cookie: admin.cookie },
    );
    expect(res.status).toBe(409);
    expect(await pageText(res)).toContain(FREE_ENTRY_VOID_MESSAGES.closed);
    expect((await entriesOf(pool.id))[0]!.voidedAt).toBeNull();
    expect((await poolStub(env, pool.id).entries())[0]!.voided).toBe(false);
  });
});

describe("postal entries", () => {
  const card = (hostEmail: string, entrantEmail: string, cardReference: string, receivedOn: string) => ({
    intent: "record-postal-entry",
    hostEmail,
    entrantEmail,
    cardReference,
    receivedOn,
  });
  const today = () => new Date().toISOString().slice(0, 10);

  it("records a card once into the host's open pool, with its reference, date and admin", async () => {
    const { host, pool } = await hostWithPool("Postal Host");
    const fan = await makeUser({ name: "Card Sender" });
    const admin = await makeSignedInUser({ role: "admin" });
    const reference = `PC-${crypto.randomUUID().slice(0, 8)}`.toUpperCase();
    const first = await postForm("/admin", card(host.email, fan.email, reference.toLowerCase(), today()), {
      cookie: admin.cookie,
    });
    expect(first.status).toBe(200);
    expect(await pageText(first)).toContain(`Card ${reference} recorded: entry #0 in Postal Host's pool.`);
    const second = await postForm("/admin", card(host.email, fan.email, reference, today()), { cookie: admin.cookie });
    expect(second.status).toBe(409);
    expect(await pageText(second)).toContain(POSTAL_ENTRY_MESSAGES.alreadyRecorded);

    const entries = await entriesOf(pool.id);
    expect(entries.map((e) => [e.entryNumber, e.sourceType, e.userId])).toEqual([[0, "postal_entry", fan.id]]);
    const [row] = await db().select().from(postalEntries).where(eq(postalEntries.cardReference, reference));
    expect(row).toMatchObject({
      poolId: pool.id,
      userId: fan.id,
      receivedOn: today(),
      recordedBy: admin.id,
      entryNumber: 0,
    });
    expect((await poolRow(pool.id)).amountCents).toBe(0);
  });

  it("refuses an admin entrant, the host, an unknown entrant, a card for a closed pool and a future date", async () => {
    const { host, pool } = await hostWithPool("Strict Host");
    const admin = await makeSignedInUser({ role: "admin" });
    const ref = () => `PC-${crypto.randomUUID().slice(0, 8)}`;
    const staff = await postForm("/admin", card(host.email, admin.email, ref(), today()), { cookie: admin.cookie });
    expect(staff.status).toBe(409);
    expect(await pageText(staff)).toContain(ENTRY_REFUSAL_MESSAGES.staff);
    const own = await postForm("/admin", card(host.email, host.email, ref(), today()), { cookie: admin.cookie });
    expect(own.status).toBe(409);
    const unknown = await postForm("/admin", card(host.email, "nobody@example.com", ref(), today()), {
      cookie: admin.cookie,
    });
    expect(unknown.status).toBe(404);
    expect(await pageText(unknown)).toContain(POSTAL_ENTRY_MESSAGES.entrantNotFound);

    // The open pool started today: a card received yesterday arrived for the pool before it, which has closed.
    const fan = await makeUser({ name: "Late Card" });
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const late = await postForm("/admin", card(host.email, fan.email, ref(), yesterday), { cookie: admin.cookie });
    expect(late.status).toBe(409);
    expect(await pageText(late)).toContain(POSTAL_ENTRY_MESSAGES.beforeOpenPool);
    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    const future = await postForm("/admin", card(host.email, fan.email, ref(), tomorrow), { cookie: admin.cookie });
    expect(future.status).toBe(400);
    const malformed = await postForm("/admin", card(host.email, fan.email, "no spaces allowed", "26/11/2026"), {
      cookie: admin.cookie,
    });
    expect(malformed.status).toBe(400);
    expect((await poolRow(pool.id)).entriesCount).toBe(0);

    // A fan may not record a card.
    const fanSession = await makeSignedInUser({ name: "Not Admin" });
    expect(
      (await postForm("/admin", card(host.email, fan.email, ref(), today()), { cookie: fanSession.cookie })).status,
    ).toBe(403);
    expect(await db().select().from(postalEntries).where(eq(postalEntries.poolId, pool.id))).toEqual([]);
  });
});

describe("entries.txt names each entry's source", () => {
  it("freezes paid, free and postal entries in form 2 and the digest covers the sources", async () => {
    const { host, pool } = await hostWithPool("Mixed Host");
    const buyer = await makeUser({ name: "Mixed Buyer" });
    await addContribution(env, {
      hostId: host.id,
      sourceType: "product_purchase",
      sourceKey: `pi_mixed_${pool.id}`,
      amountCents: 1_000,
      currency: "USD",
      userId: buyer.id,
      earnsEntry: true,
    });
    const fan = await agedFan();
    expect((await enter(host.id, fan.cookie)).status).toBe(200);
    const admin = await makeSignedInUser({ role: "admin" });
    const sender = await makeUser({ name: "Mixed Sender" });
    expect(
      (
        await postForm("/admin", card(host.email, sender.email, `PC-${pool.id.slice(0, 8)}`, today()), {
          cookie: admin.cookie,
        })
      ).status,
    ).toBe(200);
    await closePool(env, pool.id, "closed_early");
    const row = await poolRow(pool.id);
    expect(row).toMatchObject({ entriesFormat: 2, entriesCount: 3, amountCents: 1_000 });
    const text = await (await get(`/winner-selection/${pool.id}/entries.txt`)).text();
    expect(
      text
        .trim()
        .split("\n")
        .map((line) => line.split(":")[2]),
    ).toEqual(["paid", "free", "postal"]);
    expect(await sha256Hex(text)).toBe(row.entriesDigest);
  });

  it("draws the mixed pool on a real block, and the browser's check recomputes its winner from entries.txt", async () => {
    const { host, pool } = await hostWithPool("Drawn Mixed Host");
    const buyer = await makeUser({ name: "Drawn Buyer" });
    await addContribution(env, {
      hostId: host.id,
      sourceType: "product_purchase",
      sourceKey: `pi_drawn_${pool.id}`,
      amountCents: 2_000,
      currency: "USD",
      userId: buyer.id,
      earnsEntry: true,
    });
    const fans = [await agedFan(), await agedFan()];
    for (const fan of fans) expect((await enter(host.id, fan.cookie)).status).toBe(200);
    const admin = await makeSignedInUser({ role: "admin" });
    const sender = await makeUser({ name: "Drawn Sender" });
    const reference = `PC-D-${pool.id.slice(0, 8)}`;
    expect(
      (await postForm("/admin", card(host.email, sender.email, reference, today()), { cookie: admin.cookie })).status,
    ).toBe(200);
    await closePool(env, pool.id, "closed_early");

    const explorer = new FakeExplorer();
    explorer.install();
    await commitToParent(pool.id, DRAW_BLOCKS[0]);
    explorer.confirm();
    const outcome = await drawPool(env, pool.id);
    expect(outcome.status).toBe("drawn");
    const state = await publicPoolState(env, pool.id);
    const text = await (await get(`/winner-selection/${pool.id}/entries.txt`)).text();
    expect(text).not.toMatch(/free:|postal:|pi_/);
    const report = await verifyPublishedDraw({
      entriesText: text,
      publishedDigest: state!.entriesDigest,
      draws: state!.draws,
      log: state!.log,
    });
    expect(report).toMatchObject({ digestMatches: true, parsed: true, entries: 4, validEntries: 4 });
    expect(report.sources).toEqual([
      { source: "paid", count: 1 },
      { source: "free", count: 2 },
      { source: "postal", count: 1 },
    ]);
    // The winner is recomputed from the list alone, whatever the winning entry's source.
    expect(report.draws).toHaveLength(1);
    expect(report.draws[0]).toMatchObject({ matches: true, header: { ok: true } });
    expect(report.draws[0]!.entryNumber).toBe((outcome as { entryNumber: number }).entryNumber);
  });

  function card(hostEmail: string, entrantEmail: string, cardReference: string, receivedOn: string) {
    return { intent: "record-postal-entry", hostEmail, entrantEmail, cardReference, receivedOn };
  }
  function today() {
    return new Date().toISOString().slice(0, 10);
  }
});
