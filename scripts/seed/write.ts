// Writes the built rows in one batch (one transaction, the marker included): parent tables before children, as D1
// enforces foreign keys, in multi-row inserts of at most 100 bound parameters each.
import { getTableColumns } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../app/db/schema";
import { D1_MAX_BOUND_PARAMETERS } from "../../app/domain/payments";
import type { Rows } from "./context";

export async function writeRows(db: DrizzleD1Database<typeof schema>, rows: Rows): Promise<void> {
  const statements: BatchItem<"sqlite">[] = [];
  const insert = <T extends SQLiteTable>(table: T, values: T["$inferInsert"][]) => {
    const perStatement = Math.max(1, Math.floor(D1_MAX_BOUND_PARAMETERS / Object.keys(getTableColumns(table)).length));
    for (let i = 0; i < values.length; i += perStatement) {
      statements.push(db.insert(table).values(values.slice(i, i + perStatement) as never));
    }
  };
  insert(schema.users, rows.users);
  insert(schema.userProfiles, rows.userProfiles);
  insert(schema.userShippingCountries, rows.userShippingCountries);
  insert(schema.tribeMembers, rows.tribeMembers);
  insert(schema.products, rows.products);
  insert(schema.productSizes, rows.productSizes);
  insert(schema.productColors, rows.productColors);
  insert(schema.productImages, rows.productImages);
  insert(schema.productLikes, rows.productLikes);
  insert(schema.prizePools, rows.prizePools);
  insert(schema.prizeMiniPrizes, rows.prizeMiniPrizes);
  insert(schema.guessWinGames, rows.guessWinGames);
  insert(schema.guessWinParticipants, rows.guessWinParticipants);
  insert(schema.gameShares, rows.gameShares);
  insert(schema.gameLikes, rows.gameLikes);
  insert(schema.gameSaves, rows.gameSaves);
  insert(schema.freeGuessUsage, rows.freeGuessUsage);
  insert(schema.groupBuys, rows.groupBuys);
  insert(schema.groupBuyTiers, rows.groupBuyTiers);
  insert(schema.groupBuyProducts, rows.groupBuyProducts);
  insert(schema.groupBuyShares, rows.groupBuyShares);
  insert(schema.checkoutSessions, rows.checkoutSessions);
  insert(schema.orders, rows.orders);
  insert(schema.shippingUpdates, rows.shippingUpdates);
  insert(schema.vouchers, rows.vouchers);
  insert(schema.prizePoolContributions, rows.prizePoolContributions);
  insert(schema.prizeEntries, rows.prizeEntries);
  insert(schema.freeEntries, rows.freeEntries);
  insert(schema.postalEntries, rows.postalEntries);
  insert(schema.prizeWinners, rows.prizeWinners);
  insert(schema.prizeDraws, rows.prizeDraws);
  insert(schema.drawCommitments, rows.drawCommitments);
  insert(schema.transparencyLog, rows.transparencyLog);
  insert(schema.payouts, rows.payouts);
  insert(schema.prizeClaims, rows.prizeClaims);
  insert(schema.miniPrizeWinners, rows.miniPrizeWinners);
  insert(schema.adRevenueReports, rows.adRevenueReports);
  insert(schema.earningsLedger, rows.earningsLedger);
  insert(schema.payoutMethods, rows.payoutMethods);
  insert(schema.chatConversations, rows.chatConversations);
  insert(schema.chatMessages, rows.chatMessages);
  insert(schema.userActivity, rows.userActivity);
  insert(schema.mailOutbox, rows.mailOutbox);
  insert(schema.notifications, rows.notifications);
  insert(schema.platformSettings, rows.platformSettings);
  insert(schema.spendLimits, rows.spendLimits);
  const [first, ...rest] = statements;
  if (!first) throw new Error("Seed: nothing to insert");
  await db.batch([first, ...rest]);
}
