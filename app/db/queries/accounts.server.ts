import { and, desc, eq, gt, isNull, lt, lte, ne, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { containsText } from "~/db/text-match.server";
import {
  accountLinkTokens,
  emailChangeTokens,
  emailConfirmationTokens,
  mailOutbox,
  passwordResetTokens,
  sessions,
  userActivity,
  userProfiles,
  users,
} from "~/db/schema";
import type { AccountLinkPurpose, UserRole } from "~/domain/accounts";
import { purgeStaleThrottleKeys } from "./throttle.server";
import { currencyForCountry, DEFAULT_COUNTRY_CODE } from "~/domain/currency";

export type NewAccount = {
  email: string;
  passwordHash: string;
  role?: UserRole;
  name?: string | null;
  category?: string | null;
  website?: string | null;
  country?: string | null;
  /** Accounts made by the platform (seed, tests, admin tools) may start confirmed; sign-ups never do. */
  emailConfirmed?: boolean;
  /** YYYY-MM-DD (seed and tests); a fan who signs up gives it in Settings > Responsible play before a first entry. */
  dateOfBirth?: string | null;
};

/** A new profile's default name: the part of the e-mail before the at-sign (docs/product.md#accounts). */
export function defaultHostName(email: string): string {
  return email.split("@")[0] || email;
}

function isUniqueViolation(error: unknown): boolean {
  const text = String((error as { cause?: unknown })?.cause ?? "") + String((error as Error)?.message ?? "");
  return text.includes("UNIQUE constraint failed");
}

/**
 * Creates the account and its profile (with its defaults, docs/product.md#accounts) in one batch.
 * Returns null when the e-mail is already registered.
 */
export async function createAccount(db: Db, account: NewAccount): Promise<{ userId: string } | null> {
  const userId = crypto.randomUUID();
  const now = new Date();
  const country = account.country || DEFAULT_COUNTRY_CODE;
  try {
    await db.batch([
      db.insert(users).values({
        id: userId,
        email: account.email.toLowerCase(),
        passwordHash: account.passwordHash,
        role: account.role ?? "user",
        emailConfirmedAt: account.emailConfirmed ? now : null,
        dateOfBirth: account.dateOfBirth ?? null,
        createdAt: now,
        updatedAt: now,
      }),
      db.insert(userProfiles).values({
        userId,
        creatorName: account.name?.trim() || defaultHostName(account.email),
        email: account.email.toLowerCase(),
        category: account.category || "General",
        website: account.website ?? null,
        country,
        currency: currencyForCountry(country),
        bio: "Welcome to my tribe! Join me for group buys, Guess & Win games and a prize pool we grow together.",
        createdAt: now,
        updatedAt: now,
      }),
      db.insert(userActivity).values({
        id: crypto.randomUUID(),
        userId,
        activityType: "signup",
        activityData: {},
        createdAt: now,
      }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
  return { userId };
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row ?? null;
}

export async function recordActivity(
  db: Db,
  userId: string,
  activityType: "login",
  data: Record<string, unknown> = {},
) {
  await db.insert(userActivity).values({ id: crypto.randomUUID(), userId, activityType, activityData: data });
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** Records a new reset link; the account's older reset links stop working (only those: anyone can ask for one). */
export async function createPasswordResetToken(
  db: Db,
  userId: string,
  tokenHash: string,
  expiresAt: Date,
  now = new Date(),
) {
  await db.batch([
    db
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt))),
    db.insert(passwordResetTokens).values({ tokenHash, userId, expiresAt, createdAt: now }),
  ]);
}

/**
 * After a password reset, a password change or an e-mail change: every outstanding reset, e-mail-change,
 * confirmation and mailed sign-in link of the account stops working, and every session but `keepSessionId` ends.
 */
export async function revokeAccountCredentials(db: Db, userId: string, keepSessionId: string | null, now = new Date()) {
  await db.batch([
    db
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt))),
    db
      .update(emailChangeTokens)
      .set({ usedAt: now })
      .where(and(eq(emailChangeTokens.userId, userId), isNull(emailChangeTokens.usedAt))),
    db
      .update(emailConfirmationTokens)
      .set({ usedAt: now })
      .where(and(eq(emailConfirmationTokens.userId, userId), isNull(emailConfirmationTokens.usedAt))),
    db
      .update(accountLinkTokens)
      .set({ usedAt: now })
      .where(and(eq(accountLinkTokens.userId, userId), isNull(accountLinkTokens.usedAt))),
    db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), keepSessionId ? ne(sessions.id, keepSessionId) : undefined)),
  ]);
}

/** Records a one-time link mailed to the owner; the account's older unused links of the same purpose stop working. */
export async function createAccountLinkToken(
  db: Db,
  link: { userId: string; purpose: AccountLinkPurpose; tokenHash: string; expiresAt: Date },
  now = new Date(),
) {
  await db.batch([
    db
      .update(accountLinkTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(accountLinkTokens.userId, link.userId),
          eq(accountLinkTokens.purpose, link.purpose),
          isNull(accountLinkTokens.usedAt),
        ),
      ),
    db.insert(accountLinkTokens).values({ ...link, createdAt: now }),
  ]);
}

function usableAccountLink(tokenHash: string, purpose: AccountLinkPurpose, now: Date) {
  return and(
    eq(accountLinkTokens.tokenHash, tokenHash),
    eq(accountLinkTokens.purpose, purpose),
    isNull(accountLinkTokens.usedAt),
    gt(accountLinkTokens.expiresAt, now),
  );
}

/** True while the mailed link exists for this purpose, is unused and has not expired. */
export async function isAccountLinkUsable(
  db: Db,
  tokenHash: string,
  purpose: AccountLinkPurpose,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: accountLinkTokens.tokenHash })
    .from(accountLinkTokens)
    .where(usableAccountLink(tokenHash, purpose, now))
    .limit(1);
  return Boolean(row);
}

/** Uses the mailed link (one conditional statement, so it works once): its account's id, or null. */
export async function consumeAccountLink(
  db: Db,
  tokenHash: string,
  purpose: AccountLinkPurpose,
  now: Date,
): Promise<string | null> {
  const rows = await db
    .update(accountLinkTokens)
    .set({ usedAt: now })
    .where(usableAccountLink(tokenHash, purpose, now))
    .returning({ userId: accountLinkTokens.userId });
  return rows[0]?.userId ?? null;
}

/** True while the token exists, is unused and has not expired. */
export async function isResetTokenUsable(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: passwordResetTokens.tokenHash })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Marks the token used in one conditional statement, so two racing requests cannot both use it.
 * Returns the user id when this call consumed it, else null.
 */
export async function consumeResetToken(db: Db, tokenHash: string, now: Date): Promise<string | null> {
  const rows = await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResetTokens.userId });
  return rows[0]?.userId ?? null;
}

/** True once the account's owner has confirmed the e-mail address (free guesses and prizes need it). */
export async function isEmailConfirmed(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ confirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return Boolean(row?.confirmedAt);
}

export async function createEmailConfirmationToken(db: Db, userId: string, tokenHash: string, expiresAt: Date) {
  await db.insert(emailConfirmationTokens).values({ tokenHash, userId, expiresAt, createdAt: new Date() });
}

/** True while the confirmation token exists, is unused and has not expired. */
export async function isEmailConfirmationTokenUsable(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: emailConfirmationTokens.tokenHash })
    .from(emailConfirmationTokens)
    .where(
      and(
        eq(emailConfirmationTokens.tokenHash, tokenHash),
        isNull(emailConfirmationTokens.usedAt),
        gt(emailConfirmationTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Uses the confirmation token (one conditional statement, so it works once) and marks the account's e-mail
 * confirmed. Returns the user id, or null when the token is unknown, used or expired.
 */
export async function confirmEmailWithToken(db: Db, tokenHash: string, now: Date): Promise<string | null> {
  const rows = await db
    .update(emailConfirmationTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailConfirmationTokens.tokenHash, tokenHash),
        isNull(emailConfirmationTokens.usedAt),
        gt(emailConfirmationTokens.expiresAt, now),
      ),
    )
    .returning({ userId: emailConfirmationTokens.userId });
  const userId = rows[0]?.userId;
  if (!userId) return null;
  await markEmailConfirmed(db, userId, now);
  return userId;
}

/** Records that the owner proved the address (a confirmation link, or a password reset by e-mail); first time wins. */
export async function markEmailConfirmed(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ emailConfirmedAt: now, updatedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)));
}

/**
 * The cron's clean-up: expired sessions, reset links, confirmation links, mailed sign-in and claim links and stale
 * throttle keys. Returns how many rows went.
 */
export async function purgeExpiredAuthRows(db: Db, now: Date): Promise<number> {
  const [gone, resets, confirmations, links, throttles] = await db.batch([
    db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id }),
    db
      .delete(passwordResetTokens)
      .where(lte(passwordResetTokens.expiresAt, now))
      .returning({ id: passwordResetTokens.tokenHash }),
    db
      .delete(emailConfirmationTokens)
      .where(lte(emailConfirmationTokens.expiresAt, now))
      .returning({ id: emailConfirmationTokens.tokenHash }),
    db
      .delete(accountLinkTokens)
      .where(lte(accountLinkTokens.expiresAt, now))
      .returning({ id: accountLinkTokens.tokenHash }),
    purgeStaleThrottleKeys(db, now),
  ]);
  return gone.length + resets.length + confirmations.length + links.length + throttles.length;
}

/** The dev outbox, newest first; with `query`, only messages whose address or subject contains it. */
export async function listOutbox(db: Db, query = "", limit = 50) {
  const match = query
    ? or(containsText(mailOutbox.toAddress, query), containsText(mailOutbox.subject, query))
    : undefined;
  return db.select().from(mailOutbox).where(match).orderBy(desc(mailOutbox.createdAt)).limit(limit);
}
