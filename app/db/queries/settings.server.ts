import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  emailChangeTokens,
  pushSubscriptions,
  userActivity,
  userProfiles,
  userShippingCountries,
  users,
} from "~/db/schema";
import type { NotificationSwitches } from "~/domain/notifications";

// Settings: the profile form, shipping countries, notification and privacy switches, e-mail changes and the
// browsers subscribed to Web Push.

export type ProfileFields = {
  creatorName: string;
  category: string;
  bio: string | null;
  website: string | null;
};

/** Saves the profile tab's fields (the e-mail changes only through a confirmed link). */
export async function updateProfileFields(db: Db, userId: string, fields: ProfileFields): Promise<boolean> {
  const now = new Date();
  const [rows] = await db.batch([
    db
      .update(userProfiles)
      .set({ ...fields, updatedAt: now })
      .where(eq(userProfiles.userId, userId))
      .returning({ userId: userProfiles.userId }),
    db
      .insert(userActivity)
      .values({ userId, activityType: "settings_updated", activityData: { tab: "profile" }, createdAt: now }),
  ]);
  return rows.length === 1;
}

/** Points the profile at a newly stored avatar or cover; answers the URL it replaced (to remove that file). */
export async function setProfileImage(
  db: Db,
  userId: string,
  kind: "avatar" | "cover",
  url: string,
): Promise<{ previous: string | null } | null> {
  const column = kind === "avatar" ? userProfiles.avatarUrl : userProfiles.coverImageUrl;
  const [before] = await db.select({ url: column }).from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
  if (!before) return null;
  await db
    .update(userProfiles)
    .set(kind === "avatar" ? { avatarUrl: url, updatedAt: new Date() } : { coverImageUrl: url, updatedAt: new Date() })
    .where(eq(userProfiles.userId, userId));
  return { previous: before.url };
}

/** Replaces the host's shipping countries in one batch (delete all, insert the new list). */
export async function replaceShippingCountries(db: Db, hostId: string, codes: readonly string[]): Promise<void> {
  const remove = db.delete(userShippingCountries).where(eq(userShippingCountries.hostId, hostId));
  if (codes.length === 0) {
    await remove;
    return;
  }
  await db.batch([
    remove,
    db.insert(userShippingCountries).values(codes.map((countryCode) => ({ hostId, countryCode }))),
  ]);
}

export async function updateNotificationSwitches(
  db: Db,
  userId: string,
  switches: NotificationSwitches,
): Promise<void> {
  await db
    .update(userProfiles)
    .set({ ...switches, updatedAt: new Date() })
    .where(eq(userProfiles.userId, userId));
}

export type PrivacySwitches = { profilePublic: boolean; showRevenue: boolean; showFollowers: boolean };

export async function updatePrivacySwitches(db: Db, userId: string, switches: PrivacySwitches): Promise<void> {
  await db
    .update(userProfiles)
    .set({ ...switches, updatedAt: new Date() })
    .where(eq(userProfiles.userId, userId));
}

// --- e-mail changes --------------------------------------------------------------------------------------------

/** True when another account (or a pending change of another account) already uses the address. */
export async function isEmailTaken(db: Db, email: string, exceptUserId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, exceptUserId)))
    .limit(1);
  return Boolean(row);
}

/** Records a pending change; earlier unused requests of the account stop working. */
export async function createEmailChangeToken(
  db: Db,
  userId: string,
  tokenHash: string,
  newEmail: string,
  expiresAt: Date,
) {
  const now = new Date();
  await db.batch([
    db
      .update(emailChangeTokens)
      .set({ usedAt: now })
      .where(and(eq(emailChangeTokens.userId, userId), isNull(emailChangeTokens.usedAt))),
    db.insert(emailChangeTokens).values({ tokenHash, userId, newEmail, expiresAt, createdAt: now }),
  ]);
}

/** True while the e-mail change link exists, is unused and has not expired. */
export async function isEmailChangeLinkUsable(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: emailChangeTokens.tokenHash })
    .from(emailChangeTokens)
    .where(
      and(
        eq(emailChangeTokens.tokenHash, tokenHash),
        isNull(emailChangeTokens.usedAt),
        gt(emailChangeTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export type EmailChangeOutcome =
  { ok: true; userId: string; oldEmail: string; newEmail: string } | { ok: false; reason: "invalid" | "taken" };

/**
 * Applies a confirmed change: the token is consumed by one conditional statement (so it works once), then the
 * account's and the profile's address change together. "taken" when someone registered the address meanwhile.
 */
export async function confirmEmailChange(db: Db, tokenHash: string, now: Date): Promise<EmailChangeOutcome> {
  const [token] = await db
    .update(emailChangeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailChangeTokens.tokenHash, tokenHash),
        isNull(emailChangeTokens.usedAt),
        gt(emailChangeTokens.expiresAt, now),
      ),
    )
    .returning({ userId: emailChangeTokens.userId, newEmail: emailChangeTokens.newEmail });
  if (!token) return { ok: false, reason: "invalid" };
  const [account] = await db
    .select({ email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, token.userId))
    .limit(1);
  if (!account || account.deletedAt) return { ok: false, reason: "invalid" };
  if (await isEmailTaken(db, token.newEmail, token.userId)) return { ok: false, reason: "taken" };
  try {
    await db.batch([
      // Opening the link mailed to the address confirms it.
      db
        .update(users)
        .set({ email: token.newEmail, emailConfirmedAt: now, emailSince: now, updatedAt: now })
        .where(eq(users.id, token.userId)),
      db
        .update(userProfiles)
        .set({ email: token.newEmail, updatedAt: now })
        .where(eq(userProfiles.userId, token.userId)),
    ]);
  } catch (error) {
    if (String((error as { cause?: unknown })?.cause ?? error).includes("UNIQUE"))
      return { ok: false, reason: "taken" };
    throw error;
  }
  return { ok: true, userId: token.userId, oldEmail: account.email, newEmail: token.newEmail };
}

/** The account's password hash (for checks against the current password). */
export async function getPasswordHash(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.hash ?? null;
}

// --- Web Push subscriptions ------------------------------------------------------------------------------------

/**
 * Stores a browser's subscription for this account (and the session that stored it). An endpoint already stored
 * for another account is left alone: answers false.
 */
export async function savePushSubscription(
  db: Db,
  userId: string,
  sub: { endpoint: string; p256dh: string; auth: string },
  sessionId: string | null = null,
): Promise<boolean> {
  const saved = await db
    .insert(pushSubscriptions)
    .values({ ...sub, userId, sessionId, createdAt: new Date() })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { p256dh: sub.p256dh, auth: sub.auth, sessionId },
      setWhere: eq(pushSubscriptions.userId, userId),
    })
    .returning({ endpoint: pushSubscriptions.endpoint });
  return saved.length > 0;
}

/** Forgets the subscriptions a session stored (signing out of it). */
export async function deleteSessionPushSubscriptions(db: Db, sessionId: string) {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.sessionId, sessionId));
}

/** Forgets a subscription; with a user id, only when it is theirs. */
export async function deletePushSubscription(db: Db, endpoint: string, userId?: string) {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), userId ? eq(pushSubscriptions.userId, userId) : undefined));
}
