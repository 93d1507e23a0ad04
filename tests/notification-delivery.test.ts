import { env } from "cloudflare:test";
import { asc, eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mailOutbox, notificationDeliveries, notifications, prizeEntries, prizePools } from "~/db/schema";
import { MAX_DELIVERY_ATTEMPTS } from "~/domain/notifications";
import { createNotifications, deliverDueNotifications, notify } from "~/lib/notify.server";
import { tellPoolEntrants } from "~/lib/pool-notices.server";
import { excludeSelf } from "~/lib/self-exclusion.server";
import { db, makeUser } from "./helpers";
import { subscribe, vapidEnv } from "./support/push";

// Each channel's delivery is its own row: claimed by a conditional update before sending (two senders never send
// one twice), retried with backoff when it fails, given up after its last attempt, and taken by the cron in bounded
// chunks; a closed pool's entrants are enqueued a chunk of accounts per run (decision 570).

afterEach(() => {
  vi.restoreAllMocks();
});

const MINUTE = 60_000;

async function deliveriesOf(userId: string) {
  return db()
    .select({
      channel: notificationDeliveries.channel,
      status: notificationDeliveries.status,
      attempts: notificationDeliveries.attempts,
      nextAttemptAt: notificationDeliveries.nextAttemptAt,
      target: notificationDeliveries.target,
    })
    .from(notificationDeliveries)
    .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notificationDeliveries.channel));
}

const payout = (key: string) => ({
  key,
  subject: "Your withdrawal is on its way",
  text: "USD 10.00 sent.",
  url: "/payouts",
});

describe("channels", () => {
  it("one push per subscribed browser with push on, one mail, and none of either for a repeated key", async () => {
    const pushEnv = await vapidEnv();
    const fan = await makeUser({ name: "Two Phones" });
    const endpoints = [await subscribe(fan.id), await subscribe(fan.id)];
    const posted: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL) => {
      posted.push(input instanceof Request ? input.url : String(input));
      return new Response(null, { status: 201 });
    });
    expect(await notify(pushEnv, fan.id, "payout_result", payout("payout-sent:p1:0"))).toEqual({
      created: true,
      emailed: true,
      pushed: 2,
    });
    expect(await notify(pushEnv, fan.id, "payout_result", payout("payout-sent:p1:0"))).toEqual({
      created: false,
      emailed: false,
      pushed: 0,
    });
    expect(posted.sort()).toEqual([...endpoints].sort());
    expect((await deliveriesOf(fan.id)).map((d) => [d.channel, d.status])).toEqual([
      ["email", "sent"],
      ["push", "sent"],
      ["push", "sent"],
    ]);
  });
});

describe("retries", () => {
  it("retries a failed push with growing waits and records it sent once it goes through", async () => {
    const pushEnv = await vapidEnv();
    const fan = await makeUser({ name: "Flaky Push" });
    await subscribe(fan.id);
    let answer = 503;
    const fetchSpy = vi
      .spyOn(globalThis, "fetch")
      .mockImplementation(async () => new Response(null, { status: answer }));
    const t0 = Date.now();
    expect((await notify(pushEnv, fan.id, "payout_result", payout("payout-sent:p2:0"))).pushed).toBe(0);
    let [, push] = await deliveriesOf(fan.id);
    expect(push).toMatchObject({ status: "pending", attempts: 1 });
    const firstWait = push!.nextAttemptAt.getTime() - t0;
    expect(firstWait).toBeGreaterThanOrEqual(MINUTE - 1000);

    // Not due yet: the cron leaves it.
    expect((await deliverDueNotifications(pushEnv, new Date(t0 + 30_000))).claimed).toBe(0);
    // Due: tried again, fails again, waits longer.
    const second = new Date(push!.nextAttemptAt.getTime() + 1);
    expect(await deliverDueNotifications(pushEnv, second)).toMatchObject({ claimed: 1, retrying: 1 });
    [, push] = await deliveriesOf(fan.id);
    expect(push).toMatchObject({ status: "pending", attempts: 2 });
    expect(push!.nextAttemptAt.getTime() - second.getTime()).toBeGreaterThan(firstWait);

    answer = 201;
    expect(await deliverDueNotifications(pushEnv, new Date(push!.nextAttemptAt.getTime() + 1))).toMatchObject({
      claimed: 1,
      sent: 1,
    });
    [, push] = await deliveriesOf(fan.id);
    expect(push).toMatchObject({ status: "sent", attempts: 3 });
    expect(fetchSpy).toHaveBeenCalledTimes(3);
  });

  it("gives a delivery up after its last attempt", async () => {
    const pushEnv = await vapidEnv();
    const fan = await makeUser({ name: "Dead Push" });
    await subscribe(fan.id);
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 500 }));
    await notify(pushEnv, fan.id, "payout_result", payout("payout-failed:p3:0"));
    let at = Date.now();
    for (let attempt = 2; attempt <= MAX_DELIVERY_ATTEMPTS + 1; attempt++) {
      at += 24 * 60 * MINUTE;
      await deliverDueNotifications(pushEnv, new Date(at));
    }
    const [, push] = await deliveriesOf(fan.id);
    expect(push).toMatchObject({ status: "failed", attempts: MAX_DELIVERY_ATTEMPTS });
  });
});

describe("the cron's chunks", () => {
  it("sends due deliveries a bounded chunk per run, and two racing runs never send one twice", async () => {
    const fans = await Promise.all([1, 2, 3, 4, 5].map((i) => makeUser({ name: `Chunk Fan ${i}` })));
    const key = `payout-sent:chunk-${crypto.randomUUID()}:0`;
    const created = await createNotifications(
      env,
      "payout_result",
      fans.map((f) => ({ userId: f.id, ...payout(key) })),
    );
    expect(created).toHaveLength(5);
    // Created only: nothing sent until a run takes them.
    const outbox = () =>
      db()
        .select()
        .from(mailOutbox)
        .where(
          inArray(
            mailOutbox.toAddress,
            fans.map((f) => f.email),
          ),
        );
    expect(await outbox()).toHaveLength(0);
    const now = new Date(Date.now() + 1000);
    expect((await deliverDueNotifications(env, now, 2)).sent).toBe(2);
    expect(await outbox()).toHaveLength(2);
    const [a, b] = await Promise.all([deliverDueNotifications(env, now, 2), deliverDueNotifications(env, now, 2)]);
    expect(a.sent + b.sent).toBe(3);
    expect(await deliverDueNotifications(env, now, 2)).toMatchObject({ claimed: 0 });
    const mails = await outbox();
    expect(mails).toHaveLength(5);
    expect(new Set(mails.map((m) => m.toAddress))).toEqual(new Set(fans.map((f) => f.email)));
    expect(mails[0]!.htmlBody).toContain("<p");
  });

  it("tells a closed pool's entrants a chunk of accounts per run, each once with their entry numbers", async () => {
    const host = await makeUser({ name: "Pool Host" });
    const fans = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => makeUser({ name: `Entrant ${i}` })));
    const now = new Date();
    const [pool] = await db()
      .insert(prizePools)
      .values({
        hostId: host.id,
        status: "closed",
        targetCents: 100_000,
        amountCents: 12_345,
        entriesCount: 8,
        endAt: now,
        closedAt: now,
        drawBlockHeight: 900_003,
      })
      .returning();
    // Fan 1 holds two entries.
    const holders = [fans[0]!, ...fans];
    await db()
      .insert(prizeEntries)
      .values(
        holders.map((f, entryNumber) => ({
          poolId: pool!.id,
          entryNumber,
          userId: f.id,
          sourceKey: `src-${crypto.randomUUID()}`,
        })),
      );
    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await tellPoolEntrants(env, now, 3));
    expect(runs.map((r) => r.told)).toEqual([3, 3, 1, 0]);
    await tellPoolEntrants(env, now, 3);

    const told = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.key, `pool-closed:${pool!.id}`));
    expect(told).toHaveLength(8); // seven fans and the host
    const first = told.find((n) => n.userId === fans[0]!.id)!;
    expect(first.text).toContain("Your entries: #0, #1.");
    expect(first.text).toContain(`/winner-selection/${pool!.id}`);
    expect(first.url).toBe(`/winner-selection/${pool!.id}`);
    expect(told.find((n) => n.userId === host.id)!.subject).toBe("Your prize pool closed");

    // Drawn: told the same way, once.
    await db()
      .update(prizePools)
      .set({ status: "drawn", drawnAt: now, winnerEntryNumber: 4 })
      .where(eq(prizePools.id, pool!.id));
    for (let i = 0; i < 5; i++) await tellPoolEntrants(env, now, 5);
    const drawn = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.key, `pool-drawn:${pool!.id}`));
    expect(drawn).toHaveLength(8);
    expect(drawn.find((n) => n.userId === fans[3]!.id)!.text).toContain("entry #4 won the main prize (that's yours!)");
  });

  it("tells no self-excluded fan of a pool (promotional), and every notice carries the pool's log stamp", async () => {
    const host = await makeUser({ name: "Stamp Host" });
    const [fan, excluded] = await Promise.all([makeUser({ name: "Told Fan" }), makeUser({ name: "Excluded Fan" })]);
    const now = new Date();
    await excludeSelf(
      env,
      { userId: excluded.id, email: excluded.email, names: ["Excluded Fan"], dateOfBirth: null },
      "6_months",
      now,
    );
    const [pool] = await db()
      .insert(prizePools)
      .values({
        hostId: host.id,
        status: "closed",
        targetCents: 100_000,
        amountCents: 5_000,
        entriesCount: 2,
        endAt: now,
        closedAt: now,
        drawBlockHeight: 900_003,
      })
      .returning();
    await db()
      .insert(prizeEntries)
      .values(
        [fan, excluded].map((f, entryNumber) => ({
          poolId: pool!.id,
          entryNumber,
          userId: f.id,
          sourceKey: `src-${crypto.randomUUID()}`,
        })),
      );
    await tellPoolEntrants(env, now, 10);
    const told = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.key, `pool-closed:${pool!.id}`));
    expect(told.map((n) => n.userId).sort()).toEqual([fan.id, host.id].sort());
    for (const n of told) {
      expect(n.text).toMatch(/The log's head when this was sent: #\d+, SHA-256 [0-9a-f]{64}\./);
    }
    // A transactional notice still reaches the self-excluded fan.
    await notify(env, excluded.id, "refund", { key: `refund:${crypto.randomUUID()}`, subject: "Refund", text: "Sent" });
    const mine = await db().select().from(notifications).where(eq(notifications.userId, excluded.id));
    expect(mine.map((n) => n.kind)).toEqual(["refund"]);
  });
});
