// Spend limits (issue 29 item 4): a fan's monthly limit on spend that earns entries, and the ledger of that spend,
// one row per payment and host, which the limit and the credit-card cap are counted from (decision 520).
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CARD_FUNDINGS } from "../../domain/spend-limits";
import { timestamp, createdAt, updatedAt, cents, bool } from "./columns";
import { users } from "./accounts";

export const spendLimits = sqliteTable("spend_limits", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** The limit in force, in USD cents a calendar month (UTC); null: no limit. */
  monthlyUsdCents: cents("monthly_usd_cents"),
  /** A raise asked for (null: removing the limit), in force from `pending_from`; both null when none waits. */
  pendingUsdCents: cents("pending_usd_cents"),
  pendingFrom: timestamp("pending_from"),
  updatedAt: updatedAt(),
});

export const entrySpend = sqliteTable(
  "entry_spend",
  {
    /** The checkout (our final checkout_sessions id) whose payment this is. */
    checkoutId: text("checkout_id").notNull(),
    /** The host whose pool the entry is for (a cart pays several hosts, one row each). */
    hostId: text("host_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The calendar month (UTC) it counts in, 'YYYY-MM'. */
    month: text("month").notNull(),
    amountUsdCents: integer("amount_usd_cents").notNull(),
    /** The card's funding type; null when the payment was no card (a bank transfer). */
    funding: text("funding", { enum: CARD_FUNDINGS }),
    /** Whether the payment earns its entry (and so counts toward the limit and the cap). */
    earnsEntry: bool("earns_entry").notNull(),
    /** Why not, when it does not: an eligibility refusal code or an entry-gate code. */
    refusal: text("refusal"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.checkoutId, t.hostId] }), index("entry_spend_user_month_idx").on(t.userId, t.month)],
);
