import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "~/db/client.server";
import {
  notificationDeliveries,
  notifications,
  poolNotices,
  prizeEntries,
  prizePools,
  pushSubscriptions,
  userProfiles,
  users,
} from "~/db/schema";
import {
  DEFAULT_NOTIFICATION_SWITCHES,
  DELIVERY_LEASE_MS,
  MAX_DELIVERY_ATTEMPTS,
  type DeliveryChannel,
  type NotificationKind,
  type NotificationSwitches,
} from "~/domain/notifications";

// Notifications: the inbox rows, each channel's delivery rows (claimed before sending), and the cron's progress
// telling a pool's entrants (decision 570).

/** D1 binds at most 100 parameters a statement: ids per IN list. */
const IN_CHUNK = 90;

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export type NotificationTarget = { userId: string; email: string; switches: NotificationSwitches };

/** Whom to notify and how, for each live account among `userIds` (deleted or unknown accounts are left out). */
export async function getNotificationTargets(db: Db, userIds: readonly string[]): Promise<NotificationTarget[]> {
  const out: NotificationTarget[] = [];
  for (const ids of chunks([...new Set(userIds)], IN_CHUNK)) {
    const rows = await db
      .select({
        userId: users.id,
        email: users.email,
        emailNotifications: userProfiles.emailNotifications,
        pushNotifications: userProfiles.pushNotifications,
        winnerNotifications: userProfiles.winnerNotifications,
        salesNotifications: userProfiles.salesNotifications,
        poolNotifications: userProfiles.poolNotifications,
      })
      .from(users)
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .where(and(inArray(users.id, ids), isNull(users.deletedAt)));
    for (const row of rows) {
      const d = DEFAULT_NOTIFICATION_SWITCHES;
      out.push({
        userId: row.userId,
        email: row.email,
        switches: {
          emailNotifications: row.emailNotifications ?? d.emailNotifications,
          pushNotifications: row.pushNotifications ?? d.pushNotifications,
          winnerNotifications: row.winnerNotifications ?? d.winnerNotifications,
          salesNotifications: row.salesNotifications ?? d.salesNotifications,
          poolNotifications: row.poolNotifications ?? d.poolNotifications,
        },
      });
    }
  }
  return out;
}

/** The push endpoints of each of the accounts (at most 20 browsers an account). */
export async function listPushEndpoints(db: Db, userIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const ids of chunks([...new Set(userIds)], IN_CHUNK)) {
    const rows = await db
      .select({ userId: pushSubscriptions.userId, endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(inArray(pushSubscriptions.userId, ids));
    for (const row of rows) {
      const list = out.get(row.userId) ?? [];
      if (list.length < 20) list.push(row.endpoint);
      out.set(row.userId, list);
    }
  }
  return out;
}

/** A stored push subscription's keys, when the endpoint is still the account's. */
export async function getPushSubscriptionKeys(db: Db, endpoint: string, userId: string) {
  const [row] = await db
    .select({ p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)))
    .limit(1);
  return row ?? null;
}

export type NewNotification = {
  id: string;
  userId: string;
  key: string;
  kind: NotificationKind;
  subject: string;
  text: string;
  url: string;
};

/**
 * Inserts the notifications, each only if its account has none under its key (INSERT ... ON CONFLICT DO NOTHING),
 * in one batch; answers the ids this call created (a racing or repeated call creates none).
 */
export async function insertNotifications(db: Db, rows: readonly NewNotification[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const now = new Date();
  // Eight parameters a row: eleven rows a statement stay under D1's 100.
  const statements = chunks(rows, 11).map((part) =>
    db
      .insert(notifications)
      .values(part.map((row) => ({ ...row, createdAt: now })))
      .onConflictDoNothing({ target: [notifications.userId, notifications.key] })
      .returning({ id: notifications.id }),
  );
  const results = (await db.batch(
    statements as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]],
  )) as unknown as {
    id: string;
  }[][];
  return new Set(results.flat().map((r) => r.id));
}

export type NewDelivery = { notificationId: string; channel: DeliveryChannel; target: string };

/** Inserts pending deliveries (a repeat of one for the same notification, channel and target inserts nothing). */
export async function insertDeliveries(db: Db, rows: readonly NewDelivery[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  const statements = chunks(rows, 16).map((part) =>
    db
      .insert(notificationDeliveries)
      .values(part.map((row) => ({ id: crypto.randomUUID(), ...row, nextAttemptAt: now, createdAt: now })))
      .onConflictDoNothing(),
  );
  await db.batch(statements as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

export type ClaimedDelivery = {
  id: string;
  channel: DeliveryChannel;
  target: string;
  attempts: number;
  notification: { userId: string; kind: NotificationKind; subject: string; text: string; url: string };
};

/**
 * Claims due deliveries by one conditional update (pending and due, or claimed by a sender whose claim ran out):
 * they become "sending" with one more attempt and a claim that ends after the lease, so no other run sends them
 * meanwhile. Only `notificationId`'s when given (its first delivery, right after it was created), else the oldest
 * due, at most `limit`. A delivery that used its last attempt under a lost claim is given up first.
 */
export async function claimDueDeliveries(
  db: Db,
  opts: { now: Date; limit: number; notificationId?: string },
): Promise<ClaimedDelivery[]> {
  const { now } = opts;
  const due = and(
    or(eq(notificationDeliveries.status, "pending"), eq(notificationDeliveries.status, "sending")),
    lte(notificationDeliveries.nextAttemptAt, now),
    opts.notificationId ? eq(notificationDeliveries.notificationId, opts.notificationId) : undefined,
  );
  if (!opts.notificationId) {
    await db
      .update(notificationDeliveries)
      .set({ status: "failed", lastError: "claim lost after the last attempt" })
      .where(
        and(
          eq(notificationDeliveries.status, "sending"),
          lte(notificationDeliveries.nextAttemptAt, now),
          sql`${notificationDeliveries.attempts} >= ${MAX_DELIVERY_ATTEMPTS}`,
        ),
      );
  }
  const picked = db
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .where(and(due, lt(notificationDeliveries.attempts, MAX_DELIVERY_ATTEMPTS)))
    .orderBy(asc(notificationDeliveries.nextAttemptAt))
    .limit(opts.limit);
  const claimed = await db
    .update(notificationDeliveries)
    .set({
      status: "sending",
      attempts: sql`${notificationDeliveries.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + DELIVERY_LEASE_MS),
    })
    .where(and(inArray(notificationDeliveries.id, picked), due))
    .returning({
      id: notificationDeliveries.id,
      notificationId: notificationDeliveries.notificationId,
      channel: notificationDeliveries.channel,
      target: notificationDeliveries.target,
      attempts: notificationDeliveries.attempts,
    });
  if (claimed.length === 0) return [];
  const byId = new Map<string, ClaimedDelivery["notification"]>();
  for (const ids of chunks([...new Set(claimed.map((c) => c.notificationId))], IN_CHUNK)) {
    const rows = await db
      .select({
        id: notifications.id,
        userId: notifications.userId,
        kind: notifications.kind,
        subject: notifications.subject,
        text: notifications.text,
        url: notifications.url,
      })
      .from(notifications)
      .where(inArray(notifications.id, ids));
    for (const { id, ...rest } of rows) byId.set(id, rest);
  }
  return claimed.flatMap((c) => {
    const notification = byId.get(c.notificationId);
    return notification ? [{ ...c, notification }] : [];
  });
}

export type DeliveryOutcome =
  | { id: string; result: "sent" }
  | { id: string; result: "skipped"; reason: string }
  | { id: string; result: "retry"; at: Date; error: string }
  | { id: string; result: "failed"; error: string };

/** Records what each claimed delivery came to, in one batch (only while it is still claimed). */
export async function finishDeliveries(db: Db, outcomes: readonly DeliveryOutcome[], now: Date): Promise<void> {
  if (outcomes.length === 0) return;
  const statements = outcomes.map((o) =>
    db
      .update(notificationDeliveries)
      .set(
        o.result === "sent"
          ? { status: "sent", sentAt: now, lastError: null }
          : o.result === "skipped"
            ? { status: "skipped", lastError: o.reason }
            : o.result === "retry"
              ? { status: "pending", nextAttemptAt: o.at, lastError: o.error.slice(0, 500) }
              : { status: "failed", lastError: o.error.slice(0, 500) },
      )
      .where(and(eq(notificationDeliveries.id, o.id), eq(notificationDeliveries.status, "sending"))),
  );
  await db.batch(statements as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

// --- the inbox ---------------------------------------------------------------------------------------------------

/** The account's notifications, newest first, a page at a time (one more row than asked, to know if there is more). */
export function listNotifications(db: Db, userId: string, opts: { limit: number; offset: number }) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      subject: notifications.subject,
      text: notifications.text,
      url: notifications.url,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(opts.limit + 1)
    .offset(opts.offset);
}

/** Marks one of the account's notifications read (another account's is untouched): its link, or null if not theirs. */
export async function markNotificationRead(db: Db, userId: string, id: string, now: Date): Promise<string | null> {
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now.getTime()})` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ url: notifications.url });
  return row?.url ?? null;
}

export async function markAllNotificationsRead(db: Db, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** The SQL of an account's unread count for the nav bar's read (capped: the bell shows 99+). */
export const unreadNotificationsSql = (userId: unknown) =>
  sql<number>`(select count(*) from (select 1 from ${notifications} where ${notifications.userId} = ${userId} and ${notifications.readAt} is null limit 100))`;

// --- a pool's close and draw, told a chunk per cron run ------------------------------------------------------------

/** How far back a pool's close or draw is still told (older ones, like the seeded history, are not). */
const POOL_NOTICE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** Pools closed (or drawn) within the window whose entrants have not all been told yet, a few at a time. */
export async function listPoolsToTell(db: Db, event: "closed" | "drawn", now: Date, limit = 5) {
  const at = event === "closed" ? prizePools.closedAt : prizePools.drawnAt;
  return db
    .select({
      poolId: prizePools.id,
      hostId: prizePools.hostId,
      currency: prizePools.currency,
      amountCents: prizePools.amountCents,
      entriesCount: prizePools.entriesCount,
      drawBlockHeight: prizePools.drawBlockHeight,
      winnerEntryNumber: prizePools.winnerEntryNumber,
      hostName: userProfiles.creatorName,
      afterUserId: poolNotices.afterUserId,
    })
    .from(prizePools)
    .leftJoin(userProfiles, eq(userProfiles.userId, prizePools.hostId))
    .leftJoin(poolNotices, and(eq(poolNotices.poolId, prizePools.id), eq(poolNotices.event, event)))
    .where(
      and(
        event === "closed" ? inArray(prizePools.status, ["closed", "drawn"]) : eq(prizePools.status, "drawn"),
        gt(at, new Date(now.getTime() - POOL_NOTICE_WINDOW_MS)),
        isNull(poolNotices.doneAt),
      ),
    )
    .orderBy(asc(at))
    .limit(limit);
}

/** The next accounts (by id, after `afterUserId`) holding entries in the pool, with their entry numbers. */
export async function listPoolEntrants(db: Db, poolId: string, afterUserId: string, limit: number) {
  const rows = await db
    .select({
      userId: sql<string>`${prizeEntries.userId}`,
      numbers: sql<string>`group_concat(${prizeEntries.entryNumber})`,
    })
    .from(prizeEntries)
    .where(and(eq(prizeEntries.poolId, poolId), gt(prizeEntries.userId, afterUserId), isNull(prizeEntries.voidedAt)))
    .groupBy(prizeEntries.userId)
    .orderBy(asc(prizeEntries.userId))
    .limit(limit);
  return rows.map((r) => ({
    userId: r.userId,
    entryNumbers: r.numbers
      .split(",")
      .map(Number)
      .sort((a, b) => a - b),
  }));
}

/** Records how far the pool's notice got (done when the last chunk was told). */
export async function recordPoolNoticeProgress(
  db: Db,
  progress: { poolId: string; event: "closed" | "drawn"; afterUserId: string; done: boolean },
  now: Date,
): Promise<void> {
  const doneAt = progress.done ? now : null;
  await db
    .insert(poolNotices)
    .values({ poolId: progress.poolId, event: progress.event, afterUserId: progress.afterUserId, doneAt })
    .onConflictDoUpdate({
      target: [poolNotices.poolId, poolNotices.event],
      set: { afterUserId: progress.afterUserId, doneAt },
    });
}

/** Sets one notification switch of an account (an unsubscribe link turns its category's off). */
export async function updateNotificationSwitch(
  db: Db,
  userId: string,
  name: keyof NotificationSwitches,
  on: boolean,
): Promise<void> {
  await db
    .update(userProfiles)
    .set({ [name]: on, updatedAt: new Date() })
    .where(eq(userProfiles.userId, userId));
}
