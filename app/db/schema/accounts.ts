// Accounts and authentication: users, their sessions and one-time tokens, push subscriptions, uploads, the dev mail outbox.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ACCOUNT_LINK_PURPOSES, USER_ROLES } from "../../domain/accounts";
import { id, nowMs, timestamp, createdAt, updatedAt, count, bool } from "./columns";

export const users = sqliteTable(
  "users",
  {
    id: id(),
    /** Always stored lowercase (a CHECK constraint refuses anything else). */
    email: text("email").notNull(),
    /** "scrypt$N$r$p$saltB64$hashB64" */
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: USER_ROLES }).notNull().default("user"),
    /** When the owner opened the confirmation link (or reset the password by e-mail); null until then. */
    emailConfirmedAt: timestamp("email_confirmed_at"),
    /** Set when the account was deleted: personal data is erased, rows others rely on (orders, ledgers) stay. */
    deletedAt: timestamp("deleted_at"),
    /** When the current address became the account's (a confirmed change); null: since the account was created. */
    emailSince: timestamp("email_since"),
    /** YYYY-MM-DD; asked before a first entry (issue 29: entries are for adults). Private. */
    dateOfBirth: text("date_of_birth"),
    /** The fan objects to their name being published if they win (/winners shows "Name withheld at the winner's request"). */
    withholdWinnerName: bool("withhold_winner_name").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), check("users_email_lowercase", sql`email = lower(email)`)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 hex of the cookie token; the token itself is never stored. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at").notNull(),
    createdAt: createdAt(),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId), index("sessions_expires_at_idx").on(t.expiresAt)],
);

export const passwordResetTokens = sqliteTable(
  "password_reset_tokens",
  {
    /** SHA-256 hex of the emailed token. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at").notNull(),
    usedAt: timestamp("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("password_reset_tokens_user_id_idx").on(t.userId),
    index("password_reset_tokens_expires_at_idx").on(t.expiresAt),
  ],
);

export const emailConfirmationTokens = sqliteTable(
  "email_confirmation_tokens",
  {
    /** SHA-256 hex of the emailed token. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at").notNull(),
    usedAt: timestamp("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("email_confirmation_tokens_user_id_idx").on(t.userId),
    index("email_confirmation_tokens_expires_at_idx").on(t.expiresAt),
  ],
);

export const authThrottle = sqliteTable("auth_throttle", {
  /** e.g. 'ip:1.2.3.4' or 'email:a@b.c' */
  key: text("key").primaryKey(),
  failures: count("failures"),
  windowStartedAt: timestamp("window_started_at").notNull().default(nowMs),
  lockedUntil: timestamp("locked_until"),
});

/** A one-time link mailed to an account's owner: signing in past the failure ceiling, or claiming guest orders. */
export const accountLinkTokens = sqliteTable(
  "account_link_tokens",
  {
    /** SHA-256 hex of the mailed token. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ACCOUNT_LINK_PURPOSES }).notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    usedAt: timestamp("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("account_link_tokens_user_id_idx").on(t.userId),
    index("account_link_tokens_expires_at_idx").on(t.expiresAt),
  ],
);

/** A requested change of e-mail address, applied when the link mailed to the new address is opened. */
export const emailChangeTokens = sqliteTable(
  "email_change_tokens",
  {
    /** SHA-256 hex of the mailed token. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    newEmail: text("new_email").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    usedAt: timestamp("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("email_change_tokens_user_id_idx").on(t.userId)],
);

/** A browser's Web Push subscription (one row per endpoint). */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    endpoint: text("endpoint").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The subscription's P-256 public key and auth secret, base64url as the browser gives them. */
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: createdAt(),
    /** The session (sessions.id) that stored it: signing out of that session deletes it. */
    sessionId: text("session_id"),
  },
  (t) => [
    index("push_subscriptions_user_id_idx").on(t.userId),
    index("push_subscriptions_session_id_idx").on(t.sessionId),
  ],
);

/**
 * A file sent to /api/uploads (decision 430): counted against its account's quotas; removed by the cron when nothing
 * uses it after the grace period. No foreign key: a deleted account's unused files are still found and removed.
 */
export const uploads = sqliteTable(
  "uploads",
  {
    /** The R2 key. */
    key: text("key").primaryKey(),
    userId: text("user_id").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: timestamp("created_at").notNull(),
    /** When the cron found a product, game or profile using it (it is kept from then on). */
    attachedAt: timestamp("attached_at"),
  },
  (t) => [
    index("uploads_user_created_idx").on(t.userId, t.createdAt),
    index("uploads_unattached_idx").on(t.attachedAt, t.createdAt),
  ],
);

/** The local development outbox: mail that would have been sent. */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: id(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    /** The HTML part beside the text (null: text only). */
    htmlBody: text("html_body"),
    /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post) as a JSON object. */
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>(),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_to_address_idx").on(t.toAddress, t.createdAt)],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Session = typeof sessions.$inferSelect;
export type NewSession = typeof sessions.$inferInsert;
export type PasswordResetToken = typeof passwordResetTokens.$inferSelect;
export type NewPasswordResetToken = typeof passwordResetTokens.$inferInsert;
export type AuthThrottle = typeof authThrottle.$inferSelect;
export type EmailChangeToken = typeof emailChangeTokens.$inferSelect;
export type PushSubscription = typeof pushSubscriptions.$inferSelect;
export type MailOutboxMessage = typeof mailOutbox.$inferSelect;
export type NewMailOutboxMessage = typeof mailOutbox.$inferInsert;
