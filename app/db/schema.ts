/**
 * The whole data model: one drizzle sqlite-core module for D1. SQL migrations are generated from it
 * (`drizzle-kit generate`) into migrations/.
 *
 * Conventions:
 * - Ids are text UUIDs (`crypto.randomUUID()`); a person is one `users.id`, and their profile shares it
 *   (`user_profiles.user_id` is the primary key). Creator/host columns are `host_id`, buyer/fan columns `user_id`.
 * - Times are integer milliseconds (`timestamp_ms`, a JS Date in drizzle); analytics dates are text 'YYYY-MM-DD'.
 *   Creation and update times also have an SQL default, so raw SQL inserts get them too.
 * - Money is integer cents in `*_cents` columns beside a `currency` ISO code (default 'USD'). No floats.
 * - Uniqueness the product relies on (one like, one membership, one free guess, one open pool, one active group
 *   buy, one use of a payment source, ...) is enforced here by primary keys and unique indexes.
 */
import { sql } from "drizzle-orm";
import type { BitcoinBlock } from "../domain/draw";
import { ACCOUNT_LINK_PURPOSES } from "../domain/accounts";
import { COMMITMENT_KINDS } from "../domain/draw-commitment";
import { ADMIN_AUDIT_ACTIONS } from "../domain/admin";
import { EARNING_KINDS } from "../domain/earnings";
import { BANK_PAYOUT_STATUSES, PAYOUT_STATUS_VALUES, PAYOUT_TYPE_VALUES } from "../domain/payouts";
import type { RevenueRule } from "../domain/revenue";
import { CONTRIBUTION_TYPES } from "../domain/revenue";
import { ORDER_STATUSES, PURCHASE_MODES } from "../domain/orders";
import {
  CHECKOUT_PAYMENT_STATUSES,
  CHECKOUT_PROVIDERS,
  CHECKOUT_PURPOSES,
  CHECKOUT_STATUSES,
  LOCAL_MOVEMENT_KINDS,
  PAYMENT_EVENT_STATUSES,
  REFUND_ORIGINS,
  REFUND_STATES,
  REFUND_PART_KINDS,
  REFUND_STATUSES,
  RETURN_REQUEST_STATUSES,
} from "../domain/payments";
import type { RevenueRules } from "../domain/revenue";
import { VOUCHER_STATUSES } from "../domain/vouchers";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// ---------------------------------------------------------------------------------------------------------------
// Column helpers

const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());

/** Milliseconds since the epoch, computed by SQLite (also used when drizzle omits the value). */
const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

const timestamp = (name: string) => integer(name, { mode: "timestamp_ms" });
const createdAt = (name = "created_at") => timestamp(name).notNull().default(nowMs);
const updatedAt = () =>
  timestamp("updated_at")
    .notNull()
    .default(nowMs)
    .$onUpdateFn(() => new Date());

const cents = (name: string) => integer(name);
const currency = () => text("currency").notNull().default("USD");
const bool = (name: string) => integer(name, { mode: "boolean" });
const count = (name: string) => integer(name).notNull().default(0);

// ---------------------------------------------------------------------------------------------------------------
// Shared value lists

export const USER_ROLES = ["user", "admin"] as const;
export const PROFILE_STATUSES = ["active", "suspended", "pending"] as const;
export const POOL_STATUSES = ["open", "closed", "drawn"] as const;
export const POOL_CLOSE_REASONS = ["target_reached", "timer_expired", "closed_early"] as const;
/**
 * refund_after_close: a reversal of a closed pool's payment, carried by the host; refund_restored: such a reversal
 * undone (a failed refund, a won dispute); restored_to_pool: a share the open pool gave back, undone after its close,
 * whose money went to the host's open pool instead (decision 151).
 */
export const HOST_DEBIT_REASONS = ["refund_after_close", "refund_restored", "restored_to_pool"] as const;
/** The pool contribution sources are the domain's list (one name, one list). */
export const CONTRIBUTION_SOURCE_TYPES = CONTRIBUTION_TYPES;
export const ENTRY_SOURCE_TYPES = ["product_purchase", "guess_entry", "group_buy_entry", "share_bonus"] as const;
export const PRIZE_TYPES = ["main", "mini", "special"] as const;
export const PRODUCT_CATEGORIES = ["physical", "digital", "voucher"] as const;
export const SHOP_CATEGORIES = ["Home & Lifestyle", "Tech & Gaming", "Fashion & Beauty", "Food & Cooking"] as const;
export const PRODUCT_STATUSES = ["active", "inactive", "draft", "archived"] as const;
export const GAME_STATUSES = ["draft", "active", "paused", "completed"] as const;
export const GUESS_KINDS = ["free", "paid"] as const;
export const GUESS_PAYMENT_STATUSES = ["pending", "paid", "refunded"] as const;
export const TRIBE_MEMBER_STATUSES = ["active", "inactive"] as const;
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
export const GROUP_BUY_STATUSES = ["draft", "active", "completed", "cancelled"] as const;
export const GROUP_BUY_REFUND_KINDS = ["final_tier", "cancellation"] as const;
export const PAYOUT_METHOD_TYPES = ["bank_account"] as const;
export const PAYOUT_TYPES = PAYOUT_TYPE_VALUES;
export const PAYOUT_STATUSES = PAYOUT_STATUS_VALUES;

/** Postal address as stored on an order (shipping and billing). */
export type Address = {
  name: string;
  street: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
};

// ---------------------------------------------------------------------------------------------------------------
// Accounts and authentication

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
    htmlBody: text("html_body"),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_to_address_idx").on(t.toAddress, t.createdAt)],
);

// ---------------------------------------------------------------------------------------------------------------
// Profiles

export const userProfiles = sqliteTable(
  "user_profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Optional readable handle so /profile/{slug} works beside /profile/{uuid}. */
    slug: text("slug"),
    creatorName: text("creator_name").notNull(),
    email: text("email").notNull(),
    bio: text("bio"),
    category: text("category").notNull().default("General"),
    website: text("website"),
    avatarUrl: text("avatar_url"),
    coverImageUrl: text("cover_image_url"),
    verified: bool("verified").notNull().default(false),
    status: text("status", { enum: PROFILE_STATUSES }).notNull().default("active"),
    /** Kept in step with tribe_members. */
    followersCount: count("followers_count"),
    tribeCount: count("tribe_count"),
    totalRevenueCents: cents("total_revenue_cents").notNull().default(0),
    totalSales: count("total_sales"),
    currency: currency(),
    prizePoolTargetCents: cents("prize_pool_target_cents").notNull().default(1_000_000),
    prizePoolAutoRenew: bool("prize_pool_auto_renew").notNull().default(true),
    withdrawableBalanceCents: cents("withdrawable_balance_cents").notNull().default(0),
    payoutMethodConfigured: bool("payout_method_configured").notNull().default(false),
    stripeCustomerId: text("stripe_customer_id"),
    stripeAccountId: text("stripe_account_id"),
    emailNotifications: bool("email_notifications").notNull().default(true),
    pushNotifications: bool("push_notifications").notNull().default(true),
    winnerNotifications: bool("winner_notifications").notNull().default(true),
    salesNotifications: bool("sales_notifications").notNull().default(true),
    profilePublic: bool("profile_public").notNull().default(true),
    showRevenue: bool("show_revenue").notNull().default(false),
    showFollowers: bool("show_followers").notNull().default(true),
    onboardingCompleted: bool("onboarding_completed").notNull().default(false),
    country: text("country").notNull().default("MY"),
    /** Set by the platform owner while the account is suspended: no payout may be started for it. */
    payoutsHeld: bool("payouts_held").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("user_profiles_slug_unique").on(t.slug),
    index("user_profiles_featured_idx").on(t.profilePublic, t.followersCount),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Prize pools

export const prizePools = sqliteTable(
  "prize_pools",
  {
    id: id(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    status: text("status", { enum: POOL_STATUSES }).notNull().default("open"),
    targetCents: cents("target_cents").notNull(),
    /** Mirror of the pool's ledger total, written by the pool's Durable Object. */
    amountCents: cents("amount_cents").notNull().default(0),
    currency: currency(),
    /** Mirror of the number of entries, written by the pool's Durable Object. */
    entriesCount: count("entries_count"),
    autoRenew: bool("auto_renew").notNull().default(true),
    startAt: timestamp("start_at").notNull().default(nowMs),
    endAt: timestamp("end_at").notNull(),
    closedAt: timestamp("closed_at"),
    closeReason: text("close_reason", { enum: POOL_CLOSE_REASONS }),
    /** SHA-256 hex of the frozen entry list, published at closing. */
    entriesDigest: text("entries_digest"),
    /** The future Bitcoin block committed to at closing. */
    drawBlockHeight: integer("draw_block_height"),
    drawBlockHash: text("draw_block_hash"),
    /** The drawn block's header fields as the explorers served them, so anyone can rebuild and hash the header. */
    drawBlockHeader: text("draw_block_header", { mode: "json" }).$type<BitcoinBlock>(),
    winnerEntryNumber: integer("winner_entry_number"),
    winnerUserId: text("winner_user_id").references(() => users.id, { onDelete: "set null" }),
    drawnAt: timestamp("drawn_at"),
    /** A closed pool whose committed block was refused: why (the pool shows "draw delayed"), until it is drawn. */
    drawDelayReason: text("draw_delay_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("prize_pools_one_open_per_host")
      .on(t.hostId)
      .where(sql`status = 'open'`),
    index("prize_pools_status_end_at_idx").on(t.status, t.endAt),
    index("prize_pools_host_created_idx").on(t.hostId, t.createdAt),
  ],
);

/** The append-only ledger of a pool. amount_cents is negative for refunds and withdrawals. */
export const prizePoolContributions = sqliteTable(
  "prize_pool_contributions",
  {
    id: id(),
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    sourceType: text("source_type", { enum: CONTRIBUTION_SOURCE_TYPES }).notNull(),
    /** Payment id / event id: a source counts once. */
    sourceKey: text("source_key").notNull(),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    entryNumber: integer("entry_number"),
    /** For a reversal row (refund or dispute): the source key of the payment it reverses. */
    reversesKey: text("reverses_key"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("prize_pool_contributions_source_key_unique").on(t.sourceKey),
    index("prize_pool_contributions_reverses_key_idx").on(t.reversesKey),
    index("prize_pool_contributions_pool_id_idx").on(t.poolId),
    index("prize_pool_contributions_host_id_idx").on(t.hostId),
  ],
);

/** Main-prize entries; entry numbers start at 0 and are dense within a pool. */
export const prizeEntries = sqliteTable(
  "prize_entries",
  {
    id: id(),
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    entryNumber: integer("entry_number").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    sourceType: text("source_type", { enum: ENTRY_SOURCE_TYPES }),
    /** What earned the entry (payment id, participant id, ...); one entry per source per pool. */
    sourceKey: text("source_key").notNull(),
    /** Set while the entry's payment is refunded (or lost in a dispute) above half; its number is never reused. */
    voidedAt: timestamp("voided_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("prize_entries_pool_entry_number_unique").on(t.poolId, t.entryNumber),
    uniqueIndex("prize_entries_pool_source_key_unique").on(t.poolId, t.sourceKey),
    index("prize_entries_user_id_idx").on(t.userId),
  ],
);

/**
 * Each contribution's source key, reserved once (with the request) before the pool object is called: one payment
 * counts in one pool even when the webhook and the success page race a closing pool, and the cron re-applies a
 * reservation whose pool object never confirmed it (applied_at null).
 */
export const poolContributionKeys = sqliteTable(
  "pool_contribution_keys",
  {
    sourceKey: text("source_key").primaryKey(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** The pool the contribution is bound for; moves to the host's next pool only when that pool refused it. */
    poolId: text("pool_id").references(() => prizePools.id, { onDelete: "restrict" }),
    sourceType: text("source_type", { enum: CONTRIBUTION_SOURCE_TYPES }).notNull(),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    userId: text("user_id"),
    earnsEntry: bool("earns_entry").notNull().default(false),
    createdAt: createdAt(),
    appliedAt: timestamp("applied_at"),
  },
  (t) => [index("pool_contribution_keys_unapplied_idx").on(t.appliedAt, t.createdAt)],
);

/**
 * The pool share of a refund or lost dispute that arrived after its pool closed: the frozen pool keeps its amount
 * and entries, and the host's earnings carry the debit (issue 10's earnings ledger takes these rows over).
 * amount_cents is positive for a debit and negative for a restoring (failed refund) event.
 */
export const hostDebits = sqliteTable(
  "host_debits",
  {
    id: id(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    /** The refund or dispute id (+ ':restore'): a reversal is booked once. */
    reversalKey: text("reversal_key").notNull(),
    /** The contribution source key of the reversed payment. */
    sourceKey: text("source_key").notNull(),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    reason: text("reason", { enum: HOST_DEBIT_REASONS }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("host_debits_reversal_key_unique").on(t.reversalKey),
    index("host_debits_host_created_idx").on(t.hostId, t.createdAt),
    index("host_debits_source_key_idx").on(t.sourceKey),
  ],
);

/**
 * Every draw of a pool's main prize. Attempt 0 uses the committed block; when a winning entry's payment is
 * reversed before the prize settles, that draw is voided and attempt n+1 uses a freshly committed block, by the same rule
 * over the valid entries less every voided winner.
 */
export const prizeDraws = sqliteTable(
  "prize_draws",
  {
    id: id(),
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    attempt: integer("attempt").notNull(),
    blockHeight: integer("block_height").notNull(),
    blockHash: text("block_hash").notNull(),
    blockHeader: text("block_header", { mode: "json" }).$type<BitcoinBlock>().notNull(),
    winnerEntryNumber: integer("winner_entry_number").notNull(),
    winnerUserId: text("winner_user_id").references(() => users.id, { onDelete: "set null" }),
    drawnAt: timestamp("drawn_at").notNull(),
    voidedAt: timestamp("voided_at"),
    voidReason: text("void_reason"),
    /** The headers from the recorded tip + 1 to the block − 1: the block's descent from the tip, checked offline. */
    chainHeaders: text("chain_headers", { mode: "json" }).$type<BitcoinBlock[]>(),
    /** The draw_commitments record (seq) this draw was made under. */
    commitmentSeq: integer("commitment_seq"),
  },
  (t) => [uniqueIndex("prize_draws_pool_attempt_unique").on(t.poolId, t.attempt)],
);

/**
 * A pool's append-only, hash-chained draw log (decision 390): each commitment (agreed tip's height, hash and header
 * time, highest tip heard, time of commitment), each voided draw and each refused block, with the reason. Never
 * updated; each record hashes the previous one's hash with its own canonical line (domain/draw-commitment.ts).
 */
export const drawCommitments = sqliteTable(
  "draw_commitments",
  {
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    seq: integer("seq").notNull(),
    kind: text("kind", { enum: COMMITMENT_KINDS }).notNull(),
    blockHeight: integer("block_height"),
    tipHeight: integer("tip_height"),
    tipHash: text("tip_hash"),
    /** The agreed tip's header time, Unix seconds. */
    tipTime: integer("tip_time"),
    highestTip: integer("highest_tip"),
    reason: text("reason"),
    createdAt: timestamp("created_at").notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.poolId, t.seq] }),
    check("draw_commitments_kind", sql`${t.kind} IN ('commit', 'void', 'delay')`),
  ],
);

/**
 * A frozen entry whose payment was refunded or lost in a dispute (above half) after its pool closed: the list and
 * its digest never change, but the draw passes over it (redrawn from a fresh commitment) until the prize settles.
 */
export const prizeEntryDisqualifications = sqliteTable(
  "prize_entry_disqualifications",
  {
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    entryNumber: integer("entry_number").notNull(),
    /** The refund or dispute id that disqualified it. */
    reversalKey: text("reversal_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.entryNumber] })],
);

export const prizeMiniPrizes = sqliteTable(
  "prize_mini_prizes",
  {
    id: id(),
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "cascade" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Free text such as '100' or '15%'. */
    amountText: text("amount_text").notNull().default(""),
    /** Free text such as '10' or 'unlimited'. */
    quantityText: text("quantity_text").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [index("prize_mini_prizes_pool_id_idx").on(t.poolId)],
);

export const prizeWinners = sqliteTable(
  "prize_winners",
  {
    id: id(),
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    winnerName: text("winner_name").notNull(),
    prizeAmountCents: cents("prize_amount_cents").notNull(),
    currency: currency(),
    prizeType: text("prize_type", { enum: PRIZE_TYPES }).notNull(),
    entryNumber: integer("entry_number"),
    gameId: text("game_id").references(() => guessWinGames.id, { onDelete: "set null" }),
    blockHash: text("block_hash"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("prize_winners_one_main_per_pool")
      .on(t.poolId)
      .where(sql`prize_type = 'main'`),
    index("prize_winners_pool_created_idx").on(t.poolId, t.createdAt),
    index("prize_winners_user_id_idx").on(t.userId),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Products

export const products = sqliteTable(
  "products",
  {
    id: id(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    category: text("category", { enum: PRODUCT_CATEGORIES }).notNull().default("physical"),
    /** One of SHOP_CATEGORIES (the shop filter), or null. */
    shopCategory: text("shop_category", { enum: SHOP_CATEGORIES }),
    status: text("status", { enum: PRODUCT_STATUSES }).notNull().default("active"),
    basePriceCents: cents("base_price_cents").notNull().default(0),
    /** Lowest and highest size price (null without sizes). */
    priceMinCents: cents("price_min_cents"),
    priceMaxCents: cents("price_max_cents"),
    currency: currency(),
    voucherValueCents: cents("voucher_value_cents"),
    voucherExpiresAt: timestamp("voucher_expires_at"),
    /** R2 key of the downloadable file of a digital product. */
    digitalFileKey: text("digital_file_key"),
    likeCount: count("like_count"),
    viewCount: count("view_count"),
    commentsCount: count("comments_count"),
    salesCount: count("sales_count"),
    revenueCents: cents("revenue_cents").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("products_status_created_idx").on(t.status, t.createdAt),
    index("products_host_status_idx").on(t.hostId, t.status),
    index("products_shop_category_idx").on(t.shopCategory),
    // /shop and the host shop pages: newest first within a status, a shop category or a host.
    index("products_status_created_id_idx").on(t.status, t.createdAt, t.id),
    index("products_status_category_created_idx").on(t.status, t.shopCategory, t.createdAt, t.id),
    index("products_host_status_created_idx").on(t.hostId, t.status, t.createdAt, t.id),
  ],
);

export const productSizes = sqliteTable(
  "product_sizes",
  {
    id: id(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    priceCents: cents("price_cents").notNull(),
    currency: currency(),
    dimensions: text("dimensions"),
    availableUnits: count("available_units"),
    position: count("position"),
  },
  (t) => [index("product_sizes_product_idx").on(t.productId, t.position)],
);

export const productColors = sqliteTable(
  "product_colors",
  {
    id: id(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    hex: text("hex"),
    availableUnits: count("available_units"),
    position: count("position"),
  },
  (t) => [index("product_colors_product_idx").on(t.productId, t.position)],
);

export const productImages = sqliteTable(
  "product_images",
  {
    id: id(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    r2Key: text("r2_key"),
    /** 0 is the main image. */
    position: count("position"),
  },
  (t) => [index("product_images_product_idx").on(t.productId, t.position)],
);

export const productLikes = sqliteTable(
  "product_likes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] }), index("product_likes_product_idx").on(t.productId)],
);

// ---------------------------------------------------------------------------------------------------------------
// Guess & Win

export const guessWinGames = sqliteTable(
  "guess_win_games",
  {
    id: id(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    description: text("description").notNull().default(""),
    imageUrl: text("image_url"),
    videoUrl: text("video_url"),
    /** R2 key when the video was uploaded rather than linked. */
    videoKey: text("video_key"),
    videoDurationSeconds: integer("video_duration_seconds"),
    /** 2 to 6 answer options. */
    options: text("options", { mode: "json" }).$type<string[]>().notNull(),
    /** One of options. */
    correctAnswer: text("correct_answer").notNull(),
    /** The minimum entry fee; a player may pay more. */
    entryFeeCents: cents("entry_fee_cents").notNull(),
    currency: currency(),
    status: text("status", { enum: GAME_STATUSES }).notNull().default("active"),
    viewsCount: count("views_count"),
    likesCount: count("likes_count"),
    commentsCount: count("comments_count"),
    sharesCount: count("shares_count"),
    participantsCount: count("participants_count"),
    totalEntryFeesCents: cents("total_entry_fees_cents").notNull().default(0),
    expiresAt: timestamp("expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    publishedAt: timestamp("published_at"),
    endedAt: timestamp("ended_at"),
  },
  (t) => [
    index("guess_win_games_status_created_idx").on(t.status, t.createdAt),
    index("guess_win_games_host_idx").on(t.hostId),
    // A host's active games, newest first (profile Guess & Win tab).
    index("guess_win_games_host_status_created_idx").on(t.hostId, t.status, t.createdAt),
  ],
);

export const guessWinParticipants = sqliteTable(
  "guess_win_participants",
  {
    id: id(),
    gameId: text("game_id")
      .notNull()
      .references(() => guessWinGames.id, { onDelete: "restrict" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    answer: text("answer").notNull(),
    isCorrect: bool("is_correct").notNull().default(false),
    kind: text("kind", { enum: GUESS_KINDS }).notNull(),
    entryFeeCents: cents("entry_fee_cents").notNull().default(0),
    currency: currency(),
    paymentStatus: text("payment_status", { enum: GUESS_PAYMENT_STATUSES }).notNull().default("pending"),
    /** Checkout session / payment id of a paid guess: a payment makes one guess. */
    paymentKey: text("payment_key"),
    poolId: text("pool_id").references(() => prizePools.id, { onDelete: "restrict" }),
    entryNumber: integer("entry_number"),
    /** When our server confirmed the guess (its payment, or at once for a free guess); sealed until the game ends. */
    confirmedAt: timestamp("confirmed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("guess_win_participants_payment_key_unique").on(t.paymentKey),
    index("guess_win_participants_game_created_idx").on(t.gameId, t.createdAt),
    index("guess_win_participants_user_idx").on(t.userId),
  ],
);

export const gameLikes = sqliteTable(
  "game_likes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    gameId: text("game_id")
      .notNull()
      .references(() => guessWinGames.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.gameId] }), index("game_likes_game_idx").on(t.gameId)],
);

export const gameSaves = sqliteTable(
  "game_saves",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    gameId: text("game_id")
      .notNull()
      .references(() => guessWinGames.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.gameId] }), index("game_saves_game_idx").on(t.gameId)],
);

export const gameShares = sqliteTable(
  "game_shares",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    gameId: text("game_id")
      .notNull()
      .references(() => guessWinGames.id, { onDelete: "cascade" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.gameId] }), index("game_shares_game_idx").on(t.gameId)],
);

/** One free guess per user per game, enforced by the primary key. */
export const freeGuessUsage = sqliteTable(
  "free_guess_usage",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    gameId: text("game_id")
      .notNull()
      .references(() => guessWinGames.id, { onDelete: "cascade" }),
    /** The guess the free use was spent on. */
    participantId: text("participant_id").references(() => guessWinParticipants.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.gameId] })],
);

// ---------------------------------------------------------------------------------------------------------------
// Tribe, shipping countries, activity, settings

/** A fan's membership of a host's tribe; a duplicate join is a primary-key violation. */
export const tribeMembers = sqliteTable(
  "tribe_members",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: TRIBE_MEMBER_STATUSES }).notNull().default("active"),
    joinedAt: createdAt("joined_at"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hostId] }), index("tribe_members_host_idx").on(t.hostId)],
);

/** Countries a host ships to (ISO 3166-1 alpha-2). */
export const userShippingCountries = sqliteTable(
  "user_shipping_countries",
  {
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    countryCode: text("country_code").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.hostId, t.countryCode] }),
    // The /shop 'Ship to' filter: the hosts that ship to a country.
    index("user_shipping_countries_country_idx").on(t.countryCode, t.hostId),
  ],
);

export const userActivity = sqliteTable(
  "user_activity",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    activityType: text("activity_type", { enum: ACTIVITY_TYPES }).notNull(),
    activityData: text("activity_data", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index("user_activity_user_created_idx").on(t.userId, t.createdAt)],
);

/** Platform-wide settings by key (e.g. 'revenue_distribution_rules'). */
export const platformSettings = sqliteTable("platform_settings", {
  settingKey: text("setting_key").primaryKey(),
  settingValue: text("setting_value", { mode: "json" }).$type<unknown>().notNull(),
  updatedAt: updatedAt(),
});

/** Every action the platform owner takes, newest first on /admin. */
export const adminAuditLog = sqliteTable(
  "admin_audit_log",
  {
    id: id(),
    adminId: text("admin_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action", { enum: ADMIN_AUDIT_ACTIONS }).notNull(),
    targetUserId: text("target_user_id").references(() => users.id, { onDelete: "set null" }),
    targetGameId: text("target_game_id").references(() => guessWinGames.id, { onDelete: "set null" }),
    /** What changed (e.g. from/to status, the new rules, and what the change did). */
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("admin_audit_log_created_idx").on(t.createdAt)],
);

// ---------------------------------------------------------------------------------------------------------------
// Group buys

export const groupBuys = sqliteTable(
  "group_buys",
  {
    id: id(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    status: text("status", { enum: GROUP_BUY_STATUSES }).notNull().default("draft"),
    targetCents: cents("target_cents").notNull(),
    currency: currency(),
    currentSalesCents: cents("current_sales_cents").notNull().default(0),
    currentParticipants: count("current_participants"),
    endAt: timestamp("end_at").notNull(),
    /** The tier reached, set when the group buy is finalised. */
    finalDiscountPercent: integer("final_discount_percent"),
    finalisedAt: timestamp("finalised_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("group_buys_one_active_per_host")
      .on(t.hostId)
      .where(sql`status = 'active'`),
    index("group_buys_host_created_idx").on(t.hostId, t.createdAt),
    index("group_buys_status_end_at_idx").on(t.status, t.endAt),
  ],
);

export const groupBuyTiers = sqliteTable(
  "group_buy_tiers",
  {
    id: id(),
    groupBuyId: text("group_buy_id")
      .notNull()
      .references(() => groupBuys.id, { onDelete: "cascade" }),
    salesThresholdCents: cents("sales_threshold_cents").notNull(),
    /** Whole percent, 1 to 50. */
    discountPercent: integer("discount_percent").notNull(),
    position: count("position"),
  },
  (t) => [index("group_buy_tiers_group_buy_idx").on(t.groupBuyId, t.position)],
);

export const groupBuyProducts = sqliteTable(
  "group_buy_products",
  {
    groupBuyId: text("group_buy_id")
      .notNull()
      .references(() => groupBuys.id, { onDelete: "cascade" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.groupBuyId, t.productId] }),
    index("group_buy_products_product_idx").on(t.productId),
  ],
);

/** A share of a group buy, which earns the double entry (once per user and group buy). */
export const groupBuyShares = sqliteTable(
  "group_buy_shares",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    groupBuyId: text("group_buy_id")
      .notNull()
      .references(() => groupBuys.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.groupBuyId] })],
);

/**
 * The one refund a group buy's end gives an order: the final tier's difference, or the whole amount when the group
 * buy is cancelled. The primary key makes it once per order, also when two finalisations race; `refund_id` is
 * null until the provider has accepted the refund (idempotency key `group-buy:<order id>`), so a retry resumes.
 */
export const groupBuyRefunds = sqliteTable(
  "group_buy_refunds",
  {
    orderId: text("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    groupBuyId: text("group_buy_id")
      .notNull()
      .references(() => groupBuys.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: GROUP_BUY_REFUND_KINDS }).notNull(),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    /** The pool share of this refund, reversed in the order's pool (0 when nothing goes back). */
    poolReversalCents: cents("pool_reversal_cents").notNull().default(0),
    refundId: text("refund_id"),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at"),
  },
  (t) => [index("group_buy_refunds_group_buy_idx").on(t.groupBuyId, t.refundId)],
);

// ---------------------------------------------------------------------------------------------------------------
// Orders, shipping, vouchers

/**
 * A signed-in fan's cart: one row per product, size and colour (empty text when the product has none), with the
 * quantity wanted. Prices are never stored here: checkout prices every line from the database.
 */
export const cartItems = sqliteTable(
  "cart_items",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    sizeName: text("size_name").notNull().default(""),
    colorName: text("color_name").notNull().default(""),
    quantity: integer("quantity").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId, t.sizeName, t.colorName] })],
);

export const orders = sqliteTable(
  "orders",
  {
    id: id(),
    /** 'ORD-' + last 8 characters (uppercased) of the checkout session id, or of the order id. */
    orderNumber: text("order_number").notNull(),
    /** The buyer (null for a guest checkout or a deleted account). */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    groupBuyId: text("group_buy_id").references(() => groupBuys.id, { onDelete: "restrict" }),
    /** Stripe or local checkout session id. */
    checkoutSessionId: text("checkout_session_id"),
    paymentIntentId: text("payment_intent_id"),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("processing"),
    purchaseMode: text("purchase_mode", { enum: PURCHASE_MODES }).notNull().default("buy-now"),
    amountCents: cents("amount_cents").notNull(),
    unitPriceCents: cents("unit_price_cents").notNull(),
    currency: currency(),
    quantity: integer("quantity").notNull().default(1),
    sizeName: text("size_name"),
    colorName: text("color_name"),
    customerEmail: text("customer_email"),
    customerName: text("customer_name"),
    shippingAddress: text("shipping_address", { mode: "json" }).$type<Address>(),
    billingAddress: text("billing_address", { mode: "json" }).$type<Address>(),
    // Snapshot of the product at purchase time.
    productName: text("product_name").notNull(),
    productImage: text("product_image"),
    productCategory: text("product_category", { enum: PRODUCT_CATEGORIES }).notNull().default("physical"),
    trackingNumber: text("tracking_number"),
    carrier: text("carrier"),
    estimatedDeliveryAt: timestamp("estimated_delivery_at"),
    poolId: text("pool_id").references(() => prizePools.id, { onDelete: "restrict" }),
    entryNumber: integer("entry_number"),
    /** Succeeded (or pending) refunds plus lost disputes of this order's payment, in cents. */
    refundedCents: cents("refunded_cents").notNull().default(0),
    /** The line of its checkout (a group-buy or cart checkout pays several orders; 0 for one-order checkouts). */
    line: integer("line").notNull().default(0),
    /** A group-buy order's value in RM (the group buy's currency), converted with the rate table at payment. */
    salesRmCents: cents("sales_rm_cents"),
    /** none, partial or full: kept apart from the fulfilment status. */
    refundState: text("refund_state", { enum: REFUND_STATES }).notNull().default("none"),
    /** Why the order was refunded without being fulfilled (shown to the buyer), or null. */
    refundReason: text("refund_reason"),
    /** When the buyer received it (delivered/completed; payment for items that are never shipped): the return window starts here. */
    deliveredAt: timestamp("delivered_at"),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("orders_order_number_unique").on(t.orderNumber),
    uniqueIndex("orders_checkout_session_line_unique").on(t.checkoutSessionId, t.line),
    index("orders_user_created_idx").on(t.userId, t.createdAt),
    index("orders_host_created_idx").on(t.hostId, t.createdAt),
    index("orders_customer_email_idx").on(t.customerEmail),
    index("orders_tracking_number_idx").on(t.trackingNumber),
    index("orders_product_idx").on(t.productId),
    index("orders_group_buy_idx").on(t.groupBuyId),
    /** Orders still waiting for their pool contribution (normally for a moment): the cron's recovery scan. */
    index("orders_without_pool_idx")
      .on(t.createdAt)
      .where(sql`pool_id IS NULL AND status <> 'cancelled'`),
  ],
);

export const shippingUpdates = sqliteTable(
  "shipping_updates",
  {
    id: id(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    status: text("status", { enum: ORDER_STATUSES }),
    description: text("description").notNull(),
    location: text("location"),
    createdAt: createdAt(),
  },
  (t) => [index("shipping_updates_order_created_idx").on(t.orderId, t.createdAt)],
);

export const vouchers = sqliteTable(
  "vouchers",
  {
    id: id(),
    /** 'VCH-' + last 8 characters (uppercased) of the order id. */
    code: text("code").notNull(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    buyerId: text("buyer_id").references(() => users.id, { onDelete: "set null" }),
    valueCents: cents("value_cents").notNull(),
    currency: currency(),
    status: text("status", { enum: VOUCHER_STATUSES }).notNull().default("active"),
    expiresAt: timestamp("expires_at").notNull(),
    redeemedAt: timestamp("redeemed_at"),
    /** The user who redeemed it at the scanner. */
    redeemedBy: text("redeemed_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("vouchers_code_unique").on(t.code),
    uniqueIndex("vouchers_order_id_unique").on(t.orderId),
    index("vouchers_host_created_idx").on(t.hostId, t.createdAt),
    index("vouchers_buyer_idx").on(t.buyerId),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Chat

/** One conversation per pair of accounts (user_low_id < user_high_id); its live updates come from a ChatRoom object. */
export const chatConversations = sqliteTable(
  "chat_conversations",
  {
    id: id(),
    userLowId: text("user_low_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userHighId: text("user_high_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastMessageAt: timestamp("last_message_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("chat_conversations_pair_unique").on(t.userLowId, t.userHighId),
    index("chat_conversations_high_idx").on(t.userHighId, t.lastMessageAt),
    index("chat_conversations_low_idx").on(t.userLowId, t.lastMessageAt),
  ],
);

export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: id(),
    conversationId: text("conversation_id").references(() => chatConversations.id, { onDelete: "cascade" }),
    senderId: text("sender_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    recipientId: text("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
    readAt: timestamp("read_at"),
  },
  (t) => [
    index("chat_messages_thread_idx").on(t.senderId, t.recipientId, t.createdAt),
    index("chat_messages_recipient_idx").on(t.recipientId, t.createdAt),
    index("chat_messages_conversation_idx").on(t.conversationId, t.createdAt),
    index("chat_messages_unread_idx")
      .on(t.recipientId)
      .where(sql`read_at IS NULL`),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Payouts

export const payoutMethods = sqliteTable(
  "payout_methods",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: PAYOUT_METHOD_TYPES }).notNull().default("bank_account"),
    holderName: text("holder_name").notNull(),
    /** Only the last four digits are kept. */
    accountLast4: text("account_last4").notNull(),
    bankName: text("bank_name").notNull(),
    verified: bool("verified").notNull().default(false),
    isDefault: bool("is_default").notNull().default(false),
    /** The Stripe Connect (Express) account the money is transferred to (`acct_...`, or `acct_local_...`). */
    connectedAccountId: text("connected_account_id"),
    /** Two-letter country of the connected account. */
    country: text("country"),
    /** The `created` time of the last `account.updated` event applied, so an older event arriving late is ignored. */
    accountEventAt: timestamp("account_event_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("payout_methods_user_idx").on(t.userId),
    uniqueIndex("payout_methods_connected_account_unique").on(t.connectedAccountId),
    uniqueIndex("payout_methods_one_default_per_user")
      .on(t.userId)
      .where(sql`is_default = 1`),
  ],
);

export const payouts = sqliteTable(
  "payouts",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    payoutType: text("payout_type", { enum: PAYOUT_TYPES }).notNull(),
    payoutMethodId: text("payout_method_id").references(() => payoutMethods.id, { onDelete: "set null" }),
    /** For a prize_winner payout: the prize paid (paid at most once; a retry reuses the row). */
    prizeWinnerId: text("prize_winner_id").references(() => prizeWinners.id, { onDelete: "restrict" }),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull().default("pending"),
    failureReason: text("failure_reason"),
    externalId: text("external_id"),
    /** The platform fee taken with this withdrawal (0 for a prize). */
    feeCents: cents("fee_cents").notNull().default(0),
    /** 0 for the first try; a retry of a failed payout counts up (and uses a new transfer idempotency key). */
    attempt: integer("attempt").notNull().default(0),
    /** The connected account the transfer goes to. */
    connectedAccountId: text("connected_account_id"),
    /** The Stripe transfer of the current attempt. */
    transferId: text("transfer_id"),
    /** The bank payout from the connected account (Stripe's schedule), for information. */
    bankPayoutId: text("bank_payout_id"),
    bankPayoutStatus: text("bank_payout_status", { enum: BANK_PAYOUT_STATUSES }),
    estimatedArrivalAt: timestamp("estimated_arrival_at"),
    /** A prize the admin settled by hand: how it was paid. */
    manualNote: text("manual_note"),
    /** A prize is transferred only from this time on (the pool's settlement period after the draw). */
    payableAt: timestamp("payable_at"),
    completedAt: timestamp("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payouts_user_created_idx").on(t.userId, t.createdAt),
    index("payouts_transfer_idx").on(t.transferId),
    uniqueIndex("payouts_prize_winner_unique").on(t.prizeWinnerId),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Earnings

/**
 * The host earnings ledger: one row per money event, never edited (domain/earnings.ts). amount_cents is what the
 * row adds to (or takes from) the host's balance; gross/pool/platform record the whole event at the rates in force.
 */
export const earningsLedger = sqliteTable(
  "earnings_ledger",
  {
    id: id(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    kind: text("kind", { enum: EARNING_KINDS }).notNull(),
    /** What the row books ('sale:<order id>', 'withdrawal:<payout id>:<attempt>', ...): an event counts once. */
    sourceKey: text("source_key").notNull(),
    amountCents: cents("amount_cents").notNull(),
    grossCents: cents("gross_cents").notNull().default(0),
    poolCents: cents("pool_cents").notNull().default(0),
    platformCents: cents("platform_cents").notNull().default(0),
    currency: currency(),
    /** The revenue rule in force when the money was paid. */
    rates: text("rates", { mode: "json" }).$type<RevenueRule>(),
    description: text("description").notNull().default(""),
    orderId: text("order_id").references(() => orders.id, { onDelete: "restrict" }),
    payoutId: text("payout_id").references(() => payouts.id, { onDelete: "restrict" }),
    poolId: text("pool_id").references(() => prizePools.id, { onDelete: "restrict" }),
    /** The guess participant or ad revenue report the row books. */
    referenceId: text("reference_id"),
    /** When the money becomes available; null for a physical order until it is delivered (see earnings.ts). */
    availableAt: timestamp("available_at"),
    occurredAt: timestamp("occurred_at").notNull().default(nowMs),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("earnings_ledger_source_key_unique").on(t.sourceKey),
    index("earnings_ledger_host_occurred_idx").on(t.hostId, t.occurredAt),
    index("earnings_ledger_order_idx").on(t.orderId),
    index("earnings_ledger_payout_idx").on(t.payoutId),
  ],
);

/** Ad revenue the platform owner records per host and period (no ad network): split by the distribution rules. */
export const adRevenueReports = sqliteTable(
  "ad_revenue_reports",
  {
    id: id(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    periodStart: text("period_start").notNull(),
    periodEnd: text("period_end").notNull(),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    impressions: integer("impressions").notNull().default(0),
    clicks: integer("clicks").notNull().default(0),
    recordedBy: text("recorded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ad_revenue_reports_host_period_unique").on(t.hostId, t.periodStart, t.periodEnd),
    index("ad_revenue_reports_host_idx").on(t.hostId, t.periodStart),
  ],
);

/** Mini prize winners drawn from the block hash (domain/mini-prizes.ts); the host marks each delivered. */
export const miniPrizeWinners = sqliteTable(
  "mini_prize_winners",
  {
    id: id(),
    miniPrizeId: text("mini_prize_id")
      .notNull()
      .references(() => prizeMiniPrizes.id, { onDelete: "cascade" }),
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    entryNumber: integer("entry_number").notNull(),
    deliveredAt: timestamp("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("mini_prize_winners_prize_entry_unique").on(t.miniPrizeId, t.entryNumber),
    index("mini_prize_winners_pool_idx").on(t.poolId),
    index("mini_prize_winners_user_idx").on(t.userId),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Analytics

export const userAnalytics = sqliteTable(
  "user_analytics",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** 'YYYY-MM-DD' */
    date: text("date").notNull(),
    gamesCreated: count("games_created"),
    productsCreated: count("products_created"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.date] })],
);

// ---------------------------------------------------------------------------------------------------------------
// Payments

/** Webhook events by provider event id: recording an id once makes delivery idempotent. */
/**
 * The payment processor's fee of each payment, from its balance transaction (the local provider reports a simulated
 * fee): the platform's cost, never charged to the host. One row per payment.
 */
export const paymentProcessingFees = sqliteTable(
  "payment_processing_fees",
  {
    id: id(),
    paymentIntentId: text("payment_intent_id").notNull(),
    checkoutSessionId: text("checkout_session_id").references(() => checkoutSessions.id, { onDelete: "set null" }),
    provider: text("provider", { enum: CHECKOUT_PROVIDERS }).notNull(),
    balanceTransactionId: text("balance_transaction_id").notNull(),
    amountCents: cents("amount_cents").notNull(),
    feeCents: cents("fee_cents").notNull(),
    currency: currency(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_processing_fees_payment_intent_unique").on(t.paymentIntentId),
    index("payment_processing_fees_created_idx").on(t.createdAt),
  ],
);

export const paymentEvents = sqliteTable("payment_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  status: text("status", { enum: PAYMENT_EVENT_STATUSES }).notNull().default("received"),
  error: text("error"),
  receivedAt: createdAt("received_at"),
  processedAt: timestamp("processed_at"),
});

/**
 * A refund or dispute event of a payment not known yet (it arrived before the checkout's completion): held by event
 * id with its payment intent and charge and the event's object, and applied once the payment is known
 * (docs/decisions/380-held-payment-events.md). applied_at is set once it was applied.
 */
export const heldPaymentEvents = sqliteTable(
  "held_payment_events",
  {
    eventId: text("event_id").primaryKey(),
    type: text("type").notNull(),
    paymentIntentId: text("payment_intent_id"),
    chargeId: text("charge_id"),
    /** The event's data.object, as JSON. */
    object: text("object").notNull(),
    receivedAt: createdAt("received_at"),
    appliedAt: timestamp("applied_at"),
  },
  (t) => [
    index("held_payment_events_waiting_idx").on(t.appliedAt, t.receivedAt),
    index("held_payment_events_intent_idx").on(t.paymentIntentId),
  ],
);

export const checkoutSessions = sqliteTable(
  "checkout_sessions",
  {
    /** Stripe's session id, or a local one. */
    id: text("id").primaryKey(),
    provider: text("provider", { enum: CHECKOUT_PROVIDERS }).notNull(),
    purpose: text("purpose", { enum: CHECKOUT_PURPOSES }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    hostId: text("host_id").references(() => users.id, { onDelete: "set null" }),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    status: text("status", { enum: CHECKOUT_STATUSES }).notNull().default("open"),
    paymentStatus: text("payment_status", { enum: CHECKOUT_PAYMENT_STATUSES }).notNull().default("unpaid"),
    paymentIntentId: text("payment_intent_id"),
    customerEmail: text("customer_email"),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    url: text("url"),
    metadata: text("metadata", { mode: "json" })
      .$type<Record<string, string>>()
      .notNull()
      .$defaultFn(() => ({})),
    expiresAt: timestamp("expires_at"),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at"),
    /** The platform's revenue rules in force when it was paid (a later settings change never rewrites the past). */
    rates: text("rates", { mode: "json" }).$type<RevenueRules>(),
    /** Refunds plus lost disputes of this payment, in cents, and the resulting state. */
    refundedCents: cents("refunded_cents").notNull().default(0),
    refundState: text("refund_state", { enum: REFUND_STATES }).notNull().default("none"),
  },
  (t) => [
    index("checkout_sessions_user_created_idx").on(t.userId, t.createdAt),
    index("checkout_sessions_payment_intent_idx").on(t.paymentIntentId),
    // A charge names our checkout only by the reference in its metadata (findCheckoutByReference).
    index("checkout_sessions_reference_idx").on(sql`json_extract(${t.metadata}, '$.checkout_id')`),
  ],
);

/** One provider refund of a payment, by the provider's id; its latest status as the events reported it. */
export const refunds = sqliteTable(
  "refunds",
  {
    /** Stripe's refund id (re_…), or the local provider's. */
    id: text("id").primaryKey(),
    checkoutSessionId: text("checkout_session_id").notNull(),
    paymentIntentId: text("payment_intent_id").notNull(),
    /** The order it refunds (product purchases), else null (no order, or split over a cart's orders: refund_parts). */
    orderId: text("order_id"),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    status: text("status", { enum: REFUND_STATUSES }).notNull(),
    origin: text("origin", { enum: REFUND_ORIGINS }).notNull().default("provider"),
    reason: text("reason"),
    /** none -> applying -> applied -> restoring -> restored: the pool reversal, claimed step by step. */
    reversal: text("reversal").notNull().default("none"),
    /** When the buyer was mailed about this refund: claimed once, the first time it counts (decision 131). */
    buyerMailedAt: timestamp("buyer_mailed_at"),
    /** When the buyer was mailed that this refund did not go through (failed or canceled): claimed once (decision 150). */
    buyerFailureMailedAt: timestamp("buyer_failure_mailed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("refunds_checkout_idx").on(t.checkoutSessionId), index("refunds_order_idx").on(t.orderId)],
);

/**
 * The local payment provider's own record of the money it moved (decision 400): one row per capture, refund,
 * failed refund, dispute withdrawal and reinstatement, keyed by what it moved ('capture:<session>', 'refund:<re_…>').
 * Only the local provider writes it and nothing in the app reads it: it is what "the provider" holds, for checks.
 */
export const localProviderMovements = sqliteTable(
  "local_provider_movements",
  {
    id: text("id").primaryKey(),
    checkoutSessionId: text("checkout_session_id").notNull(),
    paymentIntentId: text("payment_intent_id").notNull(),
    kind: text("kind", { enum: LOCAL_MOVEMENT_KINDS }).notNull(),
    /** Positive; the kind says which way it moved (LOCAL_MOVEMENT_SIGN). */
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    createdAt: createdAt(),
  },
  (t) => [index("local_provider_movements_checkout_idx").on(t.checkoutSessionId)],
);

/** A chargeback on a payment, by the provider's dispute id. A lost dispute counts as a refund. */
export const disputes = sqliteTable(
  "disputes",
  {
    id: text("id").primaryKey(),
    checkoutSessionId: text("checkout_session_id").notNull(),
    paymentIntentId: text("payment_intent_id").notNull(),
    /** The payment's only order, else null (no order, or split over a cart's orders: refund_parts). */
    orderId: text("order_id"),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    /** Stripe's dispute status (needs_response, under_review, won, lost, …). */
    status: text("status").notNull(),
    fundsWithdrawn: bool("funds_withdrawn").notNull().default(false),
    fundsReinstated: bool("funds_reinstated").notNull().default(false),
    /** The pool reversal of a lost dispute, claimed like a refund's. */
    reversal: text("reversal").notNull().default("none"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("disputes_checkout_idx").on(t.checkoutSessionId)],
);

/**
 * What a refund or dispute naming no order (Stripe's dashboard, a chargeback) of a payment for several orders (a cart)
 * counts on each of them: one row per order, its amount fixed once when the refund or dispute is first stored
 * (`allocateAcrossOrders`), with the pool reversal of that order's part claimed step by step like a refund's
 * (docs/decisions/160-cart-refunds-and-disputes.md).
 */
export const refundParts = sqliteTable(
  "refund_parts",
  {
    /** 'refund' or 'dispute': which table `sourceId` is in. */
    kind: text("kind", { enum: REFUND_PART_KINDS }).notNull(),
    /** The provider's refund or dispute id. */
    sourceId: text("source_id").notNull(),
    orderId: text("order_id").notNull(),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    /** none -> applying -> applied -> restoring -> restored: this part's pool reversal. */
    reversal: text("reversal").notNull().default("none"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.sourceId, t.orderId] }), index("refund_parts_order_idx").on(t.orderId)],
);

/** A buyer's request to return an order (within the return window); the host approves (a refund) or declines. */
export const returnRequests = sqliteTable(
  "return_requests",
  {
    id: id(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    status: text("status", { enum: RETURN_REQUEST_STATUSES }).notNull().default("requested"),
    declineReason: text("decline_reason"),
    refundId: text("refund_id"),
    createdAt: createdAt(),
    decidedAt: timestamp("decided_at"),
  },
  (t) => [
    index("return_requests_host_idx").on(t.hostId, t.status),
    /** At most one open request per order. */
    uniqueIndex("return_requests_open_unique")
      .on(t.orderId)
      .where(sql`status = 'requested'`),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Inferred row types

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
export type UserProfile = typeof userProfiles.$inferSelect;
export type NewUserProfile = typeof userProfiles.$inferInsert;
export type PrizePool = typeof prizePools.$inferSelect;
export type NewPrizePool = typeof prizePools.$inferInsert;
export type PrizePoolContribution = typeof prizePoolContributions.$inferSelect;
export type NewPrizePoolContribution = typeof prizePoolContributions.$inferInsert;
export type PrizeEntry = typeof prizeEntries.$inferSelect;
export type NewPrizeEntry = typeof prizeEntries.$inferInsert;
export type PrizeMiniPrize = typeof prizeMiniPrizes.$inferSelect;
export type NewPrizeMiniPrize = typeof prizeMiniPrizes.$inferInsert;
export type PrizeWinner = typeof prizeWinners.$inferSelect;
export type NewPrizeWinner = typeof prizeWinners.$inferInsert;
export type Product = typeof products.$inferSelect;
export type NewProduct = typeof products.$inferInsert;
export type ProductSize = typeof productSizes.$inferSelect;
export type NewProductSize = typeof productSizes.$inferInsert;
export type ProductColor = typeof productColors.$inferSelect;
export type NewProductColor = typeof productColors.$inferInsert;
export type ProductImage = typeof productImages.$inferSelect;
export type NewProductImage = typeof productImages.$inferInsert;
export type ProductLike = typeof productLikes.$inferSelect;
export type GuessWinGame = typeof guessWinGames.$inferSelect;
export type NewGuessWinGame = typeof guessWinGames.$inferInsert;
export type GuessWinParticipant = typeof guessWinParticipants.$inferSelect;
export type NewGuessWinParticipant = typeof guessWinParticipants.$inferInsert;
export type GameShare = typeof gameShares.$inferSelect;
export type FreeGuessUse = typeof freeGuessUsage.$inferSelect;
export type TribeMember = typeof tribeMembers.$inferSelect;
export type NewTribeMember = typeof tribeMembers.$inferInsert;
export type UserActivity = typeof userActivity.$inferSelect;
export type NewUserActivity = typeof userActivity.$inferInsert;
export type PlatformSetting = typeof platformSettings.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type ShippingUpdate = typeof shippingUpdates.$inferSelect;
export type NewShippingUpdate = typeof shippingUpdates.$inferInsert;
export type GroupBuy = typeof groupBuys.$inferSelect;
export type NewGroupBuy = typeof groupBuys.$inferInsert;
export type GroupBuyTier = typeof groupBuyTiers.$inferSelect;
export type NewGroupBuyTier = typeof groupBuyTiers.$inferInsert;
export type Voucher = typeof vouchers.$inferSelect;
export type NewVoucher = typeof vouchers.$inferInsert;
export type ChatMessage = typeof chatMessages.$inferSelect;
export type ChatConversation = typeof chatConversations.$inferSelect;
export type AdminAuditRow = typeof adminAuditLog.$inferSelect;
export type NewChatMessage = typeof chatMessages.$inferInsert;
export type PayoutMethod = typeof payoutMethods.$inferSelect;
export type NewPayoutMethod = typeof payoutMethods.$inferInsert;
export type Payout = typeof payouts.$inferSelect;
export type NewPayout = typeof payouts.$inferInsert;
export type UserAnalytics = typeof userAnalytics.$inferSelect;
export type EarningsLedgerRow = typeof earningsLedger.$inferSelect;
export type NewEarningsLedgerRow = typeof earningsLedger.$inferInsert;
export type AdRevenueReport = typeof adRevenueReports.$inferSelect;
export type MiniPrizeWinner = typeof miniPrizeWinners.$inferSelect;
export type PaymentEvent = typeof paymentEvents.$inferSelect;
export type NewPaymentEvent = typeof paymentEvents.$inferInsert;
export type NewPaymentProcessingFee = typeof paymentProcessingFees.$inferInsert;
export type CheckoutSession = typeof checkoutSessions.$inferSelect;
export type Refund = typeof refunds.$inferSelect;
export type Dispute = typeof disputes.$inferSelect;
export type ReturnRequest = typeof returnRequests.$inferSelect;
export type NewCheckoutSession = typeof checkoutSessions.$inferInsert;
export type LocalProviderMovement = typeof localProviderMovements.$inferSelect;
