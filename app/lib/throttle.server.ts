import type { Db } from "~/db/client.server";
import {
  countThrottleAttempts,
  deleteThrottleKey,
  refundThrottleAttempt,
  takeDelayedAttempt,
} from "~/db/queries/throttle.server";
import {
  ACCOUNT_MAIL_WINDOW_MS,
  SIGN_IN_ACCOUNT_CEILING,
  SIGN_IN_THROTTLE,
  type AccountMailKind,
} from "~/domain/accounts";

/**
 * Sign-in throttling (decision 410), kept in D1: a progressive delay per address and account (the attacker's own
 * lane) and per address, and a ceiling per account across all addresses past which a password alone no longer signs
 * in (a one-time link mailed to the owner does). Nothing here ever refuses the owner from another address.
 */
export type SignInKeys = { pair: string; address: string; account: string };

export function signInKeys(request: Request, email: string): SignInKeys {
  const ip = request.headers.get("CF-Connecting-IP") ?? "unknown";
  const account = email.trim().toLowerCase();
  return { pair: `pair:${account}|${ip}`, address: `ip:${ip}`, account: `account:${account}` };
}

export type SignInGate = { ok: true } | { ok: false; reason: "wait"; waitMs: number } | { ok: false; reason: "link" };

/**
 * Counts this sign-in attempt before the password is checked (atomic per key, so a burst gets no extra tries):
 * refused while this address must wait for this account or for any account; past the account's ceiling of failures
 * in the hour, "link": the password is not checked and the owner signs in through a mailed link.
 */
export async function takeSignInAttempt(db: Db, keys: SignInKeys, now: Date): Promise<SignInGate> {
  const pairWait = await takeDelayedAttempt(db, keys.pair, SIGN_IN_THROTTLE.pair, now);
  if (pairWait > 0) return { ok: false, reason: "wait", waitMs: pairWait };
  const addressWait = await takeDelayedAttempt(db, keys.address, SIGN_IN_THROTTLE.address, now);
  if (addressWait > 0) return { ok: false, reason: "wait", waitMs: addressWait };
  const [account] = await countThrottleAttempts(
    db,
    [
      {
        key: keys.account,
        rule: { maxAttempts: SIGN_IN_ACCOUNT_CEILING.maxFailures, windowMs: SIGN_IN_ACCOUNT_CEILING.windowMs },
      },
    ],
    now,
  );
  if (account && account.attempts > SIGN_IN_ACCOUNT_CEILING.maxFailures) return { ok: false, reason: "link" };
  return { ok: true };
}

/** A successful sign-in: this address starts afresh for the account, and the address and account get the attempt back. */
export async function signInSucceeded(db: Db, keys: SignInKeys): Promise<void> {
  await deleteThrottleKey(db, keys.pair);
  await refundThrottleAttempt(db, keys.address);
  await refundThrottleAttempt(db, keys.account);
}

/**
 * Whether an account mail of this kind may go to `email` now: the first ask in a window says yes, every other
 * no (counted atomically). The form answers the same either way.
 */
export async function mayMailAccount(db: Db, kind: AccountMailKind, email: string, now = new Date()): Promise<boolean> {
  const [count] = await countThrottleAttempts(
    db,
    [{ key: `mail:${kind}:${email.trim().toLowerCase()}`, rule: { maxAttempts: 1, windowMs: ACCOUNT_MAIL_WINDOW_MS } }],
    now,
  );
  return (count?.attempts ?? 2) <= 1;
}
