// Prize pools: the pool, its contribution ledger and reserved keys, entries, draws and the draw log, host debits.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { COMMITMENT_KINDS } from "../../domain/draw-commitment";
import { CONTRIBUTION_TYPES } from "../../domain/revenue";
import {
  DEFAULT_POOL_STATUS,
  ENTRY_SOURCE_TYPES,
  HOST_DEBIT_REASONS,
  POOL_CLOSE_REASONS,
  POOL_STATUSES,
} from "../../domain/pool";
import type { BitcoinBlock } from "../../domain/draw";
import { TRANSPARENCY_KINDS, type TipSeen } from "../../domain/transparency-log";
import { id, nowMs, timestamp, createdAt, updatedAt, cents, currency, bool, count } from "./columns";
import { users } from "./accounts";

export const prizePools = sqliteTable(
  "prize_pools",
  {
    id: id(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    status: text("status", { enum: POOL_STATUSES }).notNull().default(DEFAULT_POOL_STATUS),
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
    /** entries.txt's line form when the list was frozen: 1 before lines named their source, 2 after (decision 530). */
    entriesFormat: integer("entries_format").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("prize_pools_one_open_per_host")
      .on(t.hostId)
      .where(sql`status = 'open'`),
    index("prize_pools_status_end_at_idx").on(t.status, t.endAt),
    index("prize_pools_host_created_idx").on(t.hostId, t.createdAt),
    // /winners: drawn pools, newest first.
    index("prize_pools_status_drawn_idx").on(t.status, t.drawnAt),
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
    sourceType: text("source_type", { enum: CONTRIBUTION_TYPES }).notNull(),
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
    sourceType: text("source_type", { enum: CONTRIBUTION_TYPES }).notNull(),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    userId: text("user_id"),
    earnsEntry: bool("earns_entry").notNull().default(false),
    createdAt: createdAt(),
    appliedAt: timestamp("applied_at"),
  },
  (t) => [
    index("pool_contribution_keys_unapplied_idx").on(t.appliedAt, t.createdAt),
    // Whether a pool has an entry on its way (its mini prizes are then fixed, decision 560).
    index("pool_contribution_keys_entry_pool_idx")
      .on(t.poolId)
      .where(sql`earns_entry = 1`),
  ],
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
    check("draw_commitments_kind", sql`${t.kind} IN (${sql.raw(COMMITMENT_KINDS.map((k) => `'${k}'`).join(", "))})`),
  ],
);

/**
 * The public commitment log (decision 550): one append-only, hash-chained log across every pool. Record 0 is the
 * genesis record (migration 0030); every other record mirrors one pool's draw log record (pool_id, pool_seq, its hash),
 * written in the same batch, with the entries digest, the valid entries by source and the tips heard. Never updated;
 * seq is the primary key, so two appends racing for the same number cannot both land (the loser retries).
 */
export const transparencyLog = sqliteTable(
  "transparency_log",
  {
    seq: integer("seq").primaryKey(),
    kind: text("kind", { enum: TRANSPARENCY_KINDS }).notNull(),
    poolId: text("pool_id").references(() => prizePools.id, { onDelete: "restrict" }),
    poolSeq: integer("pool_seq"),
    poolRecordHash: text("pool_record_hash"),
    entriesDigest: text("entries_digest"),
    entryCounts: text("entry_counts", { mode: "json" }).$type<Record<string, number>>().notNull(),
    blockHeight: integer("block_height"),
    tipHeight: integer("tip_height"),
    tipHash: text("tip_hash"),
    /** The agreed tip's header time, Unix seconds. */
    tipTime: integer("tip_time"),
    highestTip: integer("highest_tip"),
    tipsSeen: text("tips_seen", { mode: "json" }).$type<TipSeen[]>().notNull(),
    reason: text("reason"),
    createdAt: timestamp("created_at").notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    uniqueIndex("transparency_log_pool_record_unique").on(t.poolId, t.poolSeq),
    check("transparency_log_kind", sql`${t.kind} IN (${sql.raw(TRANSPARENCY_KINDS.map((k) => `'${k}'`).join(", "))})`),
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

export type PrizePool = typeof prizePools.$inferSelect;
export type NewPrizePool = typeof prizePools.$inferInsert;
export type PrizePoolContribution = typeof prizePoolContributions.$inferSelect;
export type NewPrizePoolContribution = typeof prizePoolContributions.$inferInsert;
export type PrizeEntry = typeof prizeEntries.$inferSelect;
export type NewPrizeEntry = typeof prizeEntries.$inferInsert;
