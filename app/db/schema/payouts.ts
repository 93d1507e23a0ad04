// Payouts: payout methods (connected accounts) and payouts (withdrawals and prizes).
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  BANK_PAYOUT_STATUSES,
  PAYOUT_METHOD_TYPES,
  PAYOUT_STATUS_VALUES,
  PAYOUT_TYPE_VALUES,
} from "../../domain/payouts";
import { id, timestamp, createdAt, updatedAt, cents, currency, bool } from "./columns";
import { PRIZE_CLAIM_LAPSE_OUTCOMES } from "../../domain/prize-claims";
import { users } from "./accounts";
import { prizePools } from "./pools";
import { prizeWinners } from "./prizes";

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
    payoutType: text("payout_type", { enum: PAYOUT_TYPE_VALUES }).notNull(),
    payoutMethodId: text("payout_method_id").references(() => payoutMethods.id, { onDelete: "set null" }),
    /** For a prize_winner payout: the prize paid (paid at most once; a retry reuses the row). */
    prizeWinnerId: text("prize_winner_id").references(() => prizeWinners.id, { onDelete: "restrict" }),
    status: text("status", { enum: PAYOUT_STATUS_VALUES }).notNull().default("pending"),
    failureReason: text("failure_reason"),
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

/**
 * A main-prize winner's claim (decision 540): made at the winner notice, confirmed by the winner within the claim
 * window (the legal name they give, and whether they object to their name being published), the age and identity
 * check an admin records, and a lapse (redrawn once, then carried to the host's next pool) when nobody confirmed it
 * in time. One per winning entry of a pool (a voided winner never wins that pool again).
 */
export const prizeClaims = sqliteTable(
  "prize_claims",
  {
    id: id(),
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    entryNumber: integer("entry_number").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The prize payout made with the claim (pending until the claim is confirmed, checked and settled). */
    payoutId: text("payout_id").references(() => payouts.id, { onDelete: "set null" }),
    prizeAmountCents: cents("prize_amount_cents").notNull(),
    currency: currency(),
    /** The winner notice (mail and notice on their pages). */
    noticedAt: timestamp("noticed_at").notNull(),
    /** The end of the claim window (noticedAt + PRIZE_CLAIM_DAYS). */
    claimBy: timestamp("claim_by").notNull(),
    confirmedAt: timestamp("confirmed_at"),
    /** The full legal name the winner gave when claiming (its last word is the surname /winners publishes). */
    legalName: text("legal_name"),
    /** The winner objected to their name being published when claiming. */
    withholdName: bool("withhold_name").notNull().default(false),
    idCheckedAt: timestamp("id_checked_at"),
    idCheckedBy: text("id_checked_by").references(() => users.id, { onDelete: "set null" }),
    /** What the admin saw (document type and reference, date of birth checked). */
    idCheckNote: text("id_check_note"),
    lapsedAt: timestamp("lapsed_at"),
    lapseOutcome: text("lapse_outcome", { enum: PRIZE_CLAIM_LAPSE_OUTCOMES }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("prize_claims_pool_entry_unique").on(t.poolId, t.entryNumber),
    uniqueIndex("prize_claims_payout_unique").on(t.payoutId),
    index("prize_claims_claim_by_idx").on(t.claimBy),
    index("prize_claims_user_idx").on(t.userId),
    index("prize_claims_created_idx").on(t.createdAt),
  ],
);

export type PrizeClaim = typeof prizeClaims.$inferSelect;
export type PayoutMethod = typeof payoutMethods.$inferSelect;
export type NewPayoutMethod = typeof payoutMethods.$inferInsert;
export type Payout = typeof payouts.$inferSelect;
export type NewPayout = typeof payouts.$inferInsert;
