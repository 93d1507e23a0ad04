import { and, eq, lt, or, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { authThrottle } from "~/db/schema";
import type { DelayRule } from "~/domain/accounts";

export type ThrottleRule = { maxAttempts: number; windowMs: number };

/**
 * Counts one attempt against every key and returns the counts, in one atomic D1 batch, before the attempt is
 * checked: parallel requests each see a different count, so a burst cannot get more checks than the limit. A key
 * whose window has passed starts again at 1. `lockedUntil` is set while a key is over its limit (the window's end).
 */
export async function countThrottleAttempts(
  db: Db,
  entries: readonly { key: string; rule: ThrottleRule }[],
  now: Date,
) {
  const [first, ...rest] = entries.map(({ key, rule }) => {
    const windowStart = now.getTime() - rule.windowMs;
    const fresh = sql`${authThrottle.windowStartedAt} < ${windowStart}`;
    return db
      .insert(authThrottle)
      .values({
        key,
        failures: 1,
        windowStartedAt: now,
        lockedUntil: rule.maxAttempts < 1 ? new Date(now.getTime() + rule.windowMs) : null,
      })
      .onConflictDoUpdate({
        target: authThrottle.key,
        // SET reads the row as it was: each expression sees the old count and window.
        set: {
          failures: sql`CASE WHEN ${fresh} THEN 1 ELSE ${authThrottle.failures} + 1 END`,
          windowStartedAt: sql`CASE WHEN ${fresh} THEN ${now.getTime()} ELSE ${authThrottle.windowStartedAt} END`,
          lockedUntil: sql`CASE
            WHEN ${fresh} THEN (CASE WHEN 1 > ${rule.maxAttempts} THEN ${now.getTime() + rule.windowMs} ELSE NULL END)
            WHEN ${authThrottle.failures} + 1 > ${rule.maxAttempts} THEN ${authThrottle.windowStartedAt} + ${rule.windowMs}
            ELSE NULL END`,
        },
      })
      .returning({ key: authThrottle.key, attempts: authThrottle.failures, lockedUntil: authThrottle.lockedUntil });
  });
  if (!first) return [];
  const results = await db.batch([first, ...rest]);
  return results.map((rows) => rows[0]!);
}

/**
 * Takes one attempt under a progressive delay, atomically (one batch): it goes on only when the key's wait is over,
 * and then counts as a failure and sets the next wait until it is refunded: none below the rule's free failures, then
 * its base, doubling with each further failure up to its maximum.
 * Returns 0 when the attempt may go on, else the milliseconds left to wait (the attempt is not counted).
 */
export async function takeDelayedAttempt(db: Db, key: string, rule: DelayRule, now: Date): Promise<number> {
  const at = now.getTime();
  const fresh = sql`${authThrottle.windowStartedAt} < ${at - rule.windowMs}`;
  const next = sql`(CASE WHEN ${fresh} THEN 1 ELSE ${authThrottle.failures} + 1 END)`;
  const delay = sql`(CASE WHEN ${next} < ${rule.free} THEN 0 ELSE min(${rule.baseMs} << min(${next} - ${rule.free}, 30), ${rule.maxMs}) END)`;
  const [, taken, [row]] = await db.batch([
    db.insert(authThrottle).values({ key, failures: 0, windowStartedAt: now, lockedUntil: null }).onConflictDoNothing(),
    db
      .update(authThrottle)
      .set({
        // SET reads the row as it was: each expression sees the old count and window.
        failures: next,
        windowStartedAt: sql`CASE WHEN ${fresh} THEN ${at} ELSE ${authThrottle.windowStartedAt} END`,
        lockedUntil: sql`${at} + ${delay}`,
      })
      .where(
        and(eq(authThrottle.key, key), or(isNull(authThrottle.lockedUntil), sql`${authThrottle.lockedUntil} <= ${at}`)),
      )
      .returning({ failures: authThrottle.failures }),
    db.select({ lockedUntil: authThrottle.lockedUntil }).from(authThrottle).where(eq(authThrottle.key, key)),
  ]);
  if (taken.length > 0) return 0;
  return Math.max(1000, (row?.lockedUntil?.getTime() ?? at) - at);
}

/** Takes back one counted attempt (it succeeded), never below zero; its wait is lifted. */
export async function refundThrottleAttempt(db: Db, key: string): Promise<void> {
  await db
    .update(authThrottle)
    .set({ failures: sql`MAX(${authThrottle.failures} - 1, 0)`, lockedUntil: null })
    .where(eq(authThrottle.key, key));
}

export async function deleteThrottleKey(db: Db, key: string): Promise<void> {
  await db.delete(authThrottle).where(eq(authThrottle.key, key));
}

/** The cron's clean-up: keys untouched for a day whose wait is over. */
export function purgeStaleThrottleKeys(db: Db, now: Date) {
  const dayAgo = now.getTime() - 24 * 60 * 60 * 1000;
  return db
    .delete(authThrottle)
    .where(
      and(
        lt(authThrottle.windowStartedAt, new Date(dayAgo)),
        or(isNull(authThrottle.lockedUntil), lt(authThrottle.lockedUntil, now)),
      ),
    )
    .returning({ key: authThrottle.key });
}
