import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { authThrottle } from "~/db/schema";

export type ThrottleRule = { maxAttempts: number; windowMs: number };

/**
 * Counts one attempt against every key and returns the counts, in one atomic D1 batch, before the attempt is
 * checked: parallel requests each see a different count, so a burst cannot get more checks than the limit. A key
 * whose window has passed starts again at 1. `lockedUntil` is set while a key is over its limit (the window's end).
 */
export async function countThrottleAttempts(db: Db, entries: readonly { key: string; rule: ThrottleRule }[], now: Date) {
  const [first, ...rest] = entries.map(({ key, rule }) => {
    const windowStart = now.getTime() - rule.windowMs;
    const fresh = sql`${authThrottle.windowStartedAt} < ${windowStart}`;
    return db
      .insert(authThrottle)
      .values({ key, failures: 1, windowStartedAt: now, lockedUntil: rule.maxAttempts < 1 ? new Date(now.getTime() + rule.windowMs) : null })
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

/** Takes back one counted attempt (it succeeded), never below zero. */
export async function refundThrottleAttempt(db: Db, key: string): Promise<void> {
  await db
    .update(authThrottle)
    .set({ failures: sql`MAX(${authThrottle.failures} - 1, 0)` })
    .where(eq(authThrottle.key, key));
}

export async function deleteThrottleKey(db: Db, key: string): Promise<void> {
  await db.delete(authThrottle).where(eq(authThrottle.key, key));
}
