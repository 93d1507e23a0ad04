import type { Db } from "~/db/client.server";
import { countThrottleAttempts, deleteThrottleKey, refundThrottleAttempt } from "~/db/queries/throttle.server";

/** Sign-in attempts allowed per window for an account and for an address; a successful one does not count. */
export const THROTTLE_RULES = {
  email: { maxAttempts: 5, windowMs: 15 * 60 * 1000 },
  ip: { maxAttempts: 20, windowMs: 15 * 60 * 1000 },
} as const;

type Kind = keyof typeof THROTTLE_RULES;
export type ThrottleKey = { kind: Kind; key: string };

export function throttleKeys(request: Request, email: string): ThrottleKey[] {
  const ip = request.headers.get("CF-Connecting-IP") ?? "unknown";
  return [
    { kind: "email", key: `email:${email.toLowerCase()}` },
    { kind: "ip", key: `ip:${ip}` },
  ];
}

/**
 * Counts this sign-in attempt against the account and the address in one atomic step, before the password is
 * checked. Returns 0 when the attempt may go on, else the milliseconds until the first key over its limit opens.
 */
export async function takeSignInAttempt(db: Db, keys: readonly ThrottleKey[], now: Date): Promise<number> {
  const counts = await countThrottleAttempts(
    db,
    keys.map(({ kind, key }) => ({ key, rule: THROTTLE_RULES[kind] })),
    now,
  );
  let waitMs = 0;
  counts.forEach((count, i) => {
    const rule = THROTTLE_RULES[keys[i]!.kind];
    if (count.attempts > rule.maxAttempts) {
      const until = count.lockedUntil?.getTime() ?? now.getTime() + rule.windowMs;
      waitMs = Math.max(waitMs, until - now.getTime(), 1000);
    }
  });
  return waitMs;
}

/** A successful sign-in: the account starts afresh, and the address gets its attempt back. */
export async function signInSucceeded(db: Db, keys: readonly ThrottleKey[]): Promise<void> {
  for (const { kind, key } of keys) {
    if (kind === "email") await deleteThrottleKey(db, key);
    else await refundThrottleAttempt(db, key);
  }
}
