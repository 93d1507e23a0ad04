// Account security rules (ASVS 5.0 level 2; decision 410): password length, session lifetimes, sign-in throttling,
// the one-mail-per-window rule of the account forms, and what keeps an order's buyer data after an account goes.

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

// --- passwords -----------------------------------------------------------------------------------------------------

/** The shortest password accepted (ASVS 5.0 6.2.1: at least 8, 15 recommended; we ask for 12). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
/** The rule as the forms state it, under the password field. */
export const PASSWORD_RULE_TEXT = `At least ${PASSWORD_MIN_LENGTH} characters, and not a common password.`;
export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
export const PASSWORD_TOO_COMMON = "This password is too common. Please choose one that is harder to guess.";

/** How a password is compared with the list of common passwords: case and surrounding spaces do not matter. */
export function commonPasswordKey(password: string): string {
  return password.normalize("NFKC").trim().toLowerCase();
}

// --- sessions ------------------------------------------------------------------------------------------------------

/** A session ends after this long without a request (ASVS 5.0 7.3.1). */
export const SESSION_IDLE_MS = 3 * DAY_MS;
/** A session ends this long after sign-in, however active (ASVS 5.0 7.3.2). */
export const SESSION_ABSOLUTE_MS = 14 * DAY_MS;
/** An active session's idle deadline is pushed forward at most once per this interval (one write, not one per page). */
export const SESSION_TOUCH_INTERVAL_MS = HOUR_MS;

/** When a session used at `now` ends: idle lifetime from now, never past the absolute one from its creation. */
export function sessionExpiry(createdAt: Date, now: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_IDLE_MS, createdAt.getTime() + SESSION_ABSOLUTE_MS));
}

/** Whether a session expiring at `expiresAt` should be extended now (its idle deadline is over an interval old). */
export function sessionNeedsTouch(createdAt: Date, expiresAt: Date, now: Date): boolean {
  const target = sessionExpiry(createdAt, now).getTime();
  return target - expiresAt.getTime() >= SESSION_TOUCH_INTERVAL_MS;
}

// --- sign-in throttling --------------------------------------------------------------------------------------------

/**
 * A progressive delay: the first `free` failures cost nothing; after that each failure makes the next attempt wait
 * `baseMs`, doubled per further failure, at most `maxMs`. Failures are forgotten `windowMs` after the first one.
 */
export type DelayRule = { free: number; baseMs: number; maxMs: number; windowMs: number };

export const SIGN_IN_THROTTLE = {
  /** One address trying one account: the attacker's own lane, so it can slow down hard. */
  pair: { free: 4, baseMs: 2 * SECOND_MS, maxMs: 15 * MINUTE_MS, windowMs: DAY_MS },
  /** One address trying any accounts (shared addresses exist: carriers, venues, so it starts later). */
  address: { free: 30, baseMs: 5 * SECOND_MS, maxMs: 5 * MINUTE_MS, windowMs: HOUR_MS },
} as const satisfies Record<string, DelayRule>;

/** Failed sign-ins an account takes from all addresses in an hour before a password alone no longer signs in. */
export const SIGN_IN_ACCOUNT_CEILING = { maxFailures: 100, windowMs: HOUR_MS } as const;

/** How long a mailed sign-in link works. */
export const SIGN_IN_LINK_TTL_MS = 15 * MINUTE_MS;
/** How long a mailed link to claim guest orders works. */
export const ORDER_CLAIM_LINK_TTL_MS = DAY_MS;

export const USER_ROLES = ["user", "admin"] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** What user_activity.activity_type records. */
export const ACTIVITY_TYPES = [
  "signup",
  "login",
  "product_created",
  "product_sold",
  "game_created",
  "prize_won",
  "guess_submitted",
  "tribe_joined",
  "game_shared",
  "order_placed",
  "voucher_redeemed",
  "group_buy_created",
  "payout_requested",
  "settings_updated",
] as const;

/** What a one-time link mailed to an account's owner does. */
export const ACCOUNT_LINK_PURPOSES = ["sign_in", "order_claim"] as const;
export type AccountLinkPurpose = (typeof ACCOUNT_LINK_PURPOSES)[number];

// --- account mail --------------------------------------------------------------------------------------------------

/**
 * Sign-up, password reset and e-mail change each mail an address at most once per window, whatever is asked
 * (and answer the same whether or not an account has the address).
 */
export const ACCOUNT_MAIL_WINDOW_MS = 15 * MINUTE_MS;
export const ACCOUNT_MAIL_KINDS = ["signup", "reset", "email_change", "sign_in_link", "order_claim"] as const;
export type AccountMailKind = (typeof ACCOUNT_MAIL_KINDS)[number];

// --- a deleted account's orders --------------------------------------------------------------------------------------

/**
 * Order statuses in which the host still needs the buyer's name and address (not yet delivered). A deleted account's
 * personal data leaves its orders at once unless an order is in one of these, inside its return window, or has an
 * open return request or dispute; then the cron erases it when the order closes. Money records stay.
 */
export const BUYER_DATA_KEPT_STATUSES = ["pending", "paid", "processing", "pending_shipping", "shipped"] as const;
