// Earnings: the host earnings ledger and recorded ad revenue.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { RevenueRule } from "../../domain/revenue";
import { EARNING_KINDS } from "../../domain/earnings";
import { id, nowMs, timestamp, createdAt, cents, currency } from "./columns";
import { users } from "./accounts";
import { orders } from "./orders";
import { payouts } from "./payouts";
import { prizePools } from "./pools";

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

export type EarningsLedgerRow = typeof earningsLedger.$inferSelect;
export type NewEarningsLedgerRow = typeof earningsLedger.$inferInsert;
export type AdRevenueReport = typeof adRevenueReports.$inferSelect;
