import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { authThrottle } from "~/db/schema";

/** Failed sign-ins allowed per window before a key is locked, and for how long. */
export const THROTTLE_RULES = {
  email: { maxFailures: 5, windowMs: 15 * 60 * 1000, lockMs: 15 * 60 * 1000 },
  ip: { maxFailures: 20, windowMs: 15 * 60 * 1000, lockMs: 15 * 60 * 1000 },
} as const;

type Kind = keyof typeof THROTTLE_RULES;

export function throttleKeys(request: Request, email: string): { kind: Kind; key: string }[] {
  const ip = request.headers.get("CF-Connecting-IP") ?? "unknown";
  return [
    { kind: "email", key: `email:${email.toLowerCase()}` },
    { kind: "ip", key: `ip:${ip}` },
  ];
}

/** Milliseconds until the first locked key opens again, or 0 when sign-in may proceed. */
export async function lockedForMs(db: Db, keys: { key: string }[], now: Date): Promise<number> {
  let wait = 0;
  for (const { key } of keys) {
    const [row] = await db.select().from(authThrottle).where(eq(authThrottle.key, key)).limit(1);
    if (row?.lockedUntil && row.lockedUntil.getTime() > now.getTime()) {
      wait = Math.max(wait, row.lockedUntil.getTime() - now.getTime());
    }
  }
  return wait;
}

/** Counts one failed attempt against every key; a key that reaches its limit is locked. */
export async function recordFailure(db: Db, keys: { kind: Kind; key: string }[], now: Date): Promise<void> {
  for (const { kind, key } of keys) {
    const rule = THROTTLE_RULES[kind];
    const windowStart = new Date(now.getTime() - rule.windowMs);
    // One statement per key: a fresh window restarts the count, otherwise it grows; the lock is set on the limit.
    await db
      .insert(authThrottle)
      .values({ key, failures: 1, windowStartedAt: now, lockedUntil: null })
      .onConflictDoUpdate({
        target: authThrottle.key,
        set: {
          failures: sql`CASE WHEN ${authThrottle.windowStartedAt} < ${windowStart.getTime()} THEN 1 ELSE ${authThrottle.failures} + 1 END`,
          windowStartedAt: sql`CASE WHEN ${authThrottle.windowStartedAt} < ${windowStart.getTime()} THEN ${now.getTime()} ELSE ${authThrottle.windowStartedAt} END`,
          lockedUntil: sql`CASE WHEN ${authThrottle.windowStartedAt} >= ${windowStart.getTime()} AND ${authThrottle.failures} + 1 >= ${rule.maxFailures} THEN ${now.getTime() + rule.lockMs} ELSE ${authThrottle.lockedUntil} END`,
        },
      });
  }
}

/** A successful sign-in clears the account's counter (the address keeps its own). */
export async function clearFailures(db: Db, email: string): Promise<void> {
  await db.delete(authThrottle).where(eq(authThrottle.key, `email:${email.toLowerCase()}`));
}
