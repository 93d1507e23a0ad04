// Group buys: the group buy, its tiers, products and shares.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { GROUP_BUY_STATUSES } from "../../domain/group-buy";
import { id, timestamp, createdAt, updatedAt, cents, currency, count } from "./columns";
import { users } from "./accounts";
import { products } from "./products";

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

export type GroupBuy = typeof groupBuys.$inferSelect;
export type NewGroupBuy = typeof groupBuys.$inferInsert;
export type GroupBuyTier = typeof groupBuyTiers.$inferSelect;
export type NewGroupBuyTier = typeof groupBuyTiers.$inferInsert;
