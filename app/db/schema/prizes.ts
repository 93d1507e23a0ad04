// Prizes of a pool: mini prizes, the winners of every prize, and the mini prizes' winners.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { PRIZE_TYPES } from "../../domain/pool";
import { id, timestamp, createdAt, cents, currency } from "./columns";
import { users } from "./accounts";
import { guessWinGames } from "./games";
import { prizePools } from "./pools";

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

export type PrizeMiniPrize = typeof prizeMiniPrizes.$inferSelect;
export type NewPrizeMiniPrize = typeof prizeMiniPrizes.$inferInsert;
export type PrizeWinner = typeof prizeWinners.$inferSelect;
export type NewPrizeWinner = typeof prizeWinners.$inferInsert;
export type MiniPrizeWinner = typeof miniPrizeWinners.$inferSelect;
