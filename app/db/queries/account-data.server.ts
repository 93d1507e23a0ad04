import { and, desc, eq, getTableColumns, inArray, isNotNull, not, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { BUYER_DATA_KEPT_STATUSES } from "~/domain/accounts";
import { FINAL_DISPUTE_STATUSES, RETURN_WINDOW_DAYS } from "~/domain/payments";
import {
  chatMessages,
  accountLinkTokens,
  checkoutSessions,
  emailChangeTokens,
  entrySpend,
  freeEntries,
  postalEntries,
  prizeClaims,
  returnRequests,
  spendLimits,
  emailConfirmationTokens,
  freeGuessUsage,
  gameLikes,
  gameSaves,
  gameShares,
  groupBuyProducts,
  groupBuys,
  groupBuyShares,
  groupBuyTiers,
  guessWinGames,
  guessWinParticipants,
  orders,
  passwordResetTokens,
  payoutMethods,
  payouts,
  prizeEntries,
  prizeMiniPrizes,
  prizePoolContributions,
  prizePools,
  prizeWinners,
  productColors,
  productImages,
  productLikes,
  products,
  productSizes,
  notifications,
  pushSubscriptions,
  sessions,
  shippingUpdates,
  tribeMembers,
  userActivity,
  userAnalytics,
  userProfiles,
  userShippingCountries,
  users,
  vouchers,
} from "~/db/schema";

// An account's data: every record of it for the data export, and the erasure when the account is deleted.

export type AccountRecords = Record<string, Record<string, unknown>[]>;

/**
 * Every record of the account, by table: what it is (account, profile, sessions), what it made as a host (products,
 * games, pools, group buys, orders received, vouchers issued) and what it did as a fan (orders, guesses, entries,
 * wins, likes, memberships, spending limit, free and postal entries, prize claims, returns), its messages, what the
 * app told it (notifications) and its payouts. Secrets (password hash, session and token hashes) are left out; a
 * self-exclusion is kept under keys that name no account (decision 510), so it is not an account record.
 */
export async function collectAccountRecords(db: Db, userId: string): Promise<AccountRecords> {
  const ownProducts = db.select({ id: products.id }).from(products).where(eq(products.hostId, userId));
  const ownGroupBuys = db.select({ id: groupBuys.id }).from(groupBuys).where(eq(groupBuys.hostId, userId));
  const ownOrders = db
    .select({ id: orders.id })
    .from(orders)
    .where(or(eq(orders.userId, userId), eq(orders.hostId, userId)));
  const [
    account,
    profile,
    sessionRows,
    shipping,
    tribe,
    activity,
    analytics,
    productRows,
    sizes,
    colors,
    images,
    productLikeRows,
    games,
    guesses,
    gameLikeRows,
    gameSaveRows,
    gameShareRows,
    freeGuesses,
    pools,
    contributions,
    entries,
    miniPrizes,
    winners,
    groupBuyRows,
    tiers,
    groupBuyProductRows,
    groupBuyShareRows,
    orderRows,
    shippingUpdateRows,
    voucherRows,
    messages,
    payoutMethodRows,
    payoutRows,
    checkouts,
    pushRows,
    notificationRows,
    spendLimitRows,
    entrySpendRows,
    freeEntryRows,
    postalEntryRows,
    prizeClaimRows,
    returnRequestRows,
  ] = await db.batch([
    db
      .select({
        id: users.id,
        email: users.email,
        role: users.role,
        createdAt: users.createdAt,
        updatedAt: users.updatedAt,
      })
      .from(users)
      .where(eq(users.id, userId)),
    db.select().from(userProfiles).where(eq(userProfiles.userId, userId)),
    db
      .select({
        createdAt: sessions.createdAt,
        expiresAt: sessions.expiresAt,
        ip: sessions.ip,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId)),
    db.select().from(userShippingCountries).where(eq(userShippingCountries.hostId, userId)),
    db
      .select()
      .from(tribeMembers)
      .where(or(eq(tribeMembers.userId, userId), eq(tribeMembers.hostId, userId))),
    db.select().from(userActivity).where(eq(userActivity.userId, userId)),
    db.select().from(userAnalytics).where(eq(userAnalytics.userId, userId)),
    db.select().from(products).where(eq(products.hostId, userId)),
    db.select().from(productSizes).where(inArray(productSizes.productId, ownProducts)),
    db.select().from(productColors).where(inArray(productColors.productId, ownProducts)),
    db.select().from(productImages).where(inArray(productImages.productId, ownProducts)),
    db.select().from(productLikes).where(eq(productLikes.userId, userId)),
    db.select().from(guessWinGames).where(eq(guessWinGames.hostId, userId)),
    db
      .select({
        ...getTableColumns(guessWinParticipants),
        // Sealed: whether a guess was right is exported only once its game has ended.
        isCorrect: sql<
          boolean | null
        >`CASE WHEN EXISTS (SELECT 1 FROM guess_win_games g WHERE g.id = ${guessWinParticipants.gameId}
            AND g.ended_at IS NOT NULL) THEN ${guessWinParticipants.isCorrect} ELSE NULL END`.mapWith(
          (value: unknown) => (value === null ? null : Boolean(value)),
        ),
      })
      .from(guessWinParticipants)
      .where(eq(guessWinParticipants.userId, userId)),
    db.select().from(gameLikes).where(eq(gameLikes.userId, userId)),
    db.select().from(gameSaves).where(eq(gameSaves.userId, userId)),
    db.select().from(gameShares).where(eq(gameShares.userId, userId)),
    db.select().from(freeGuessUsage).where(eq(freeGuessUsage.userId, userId)),
    db.select().from(prizePools).where(eq(prizePools.hostId, userId)),
    db
      .select()
      .from(prizePoolContributions)
      .where(or(eq(prizePoolContributions.hostId, userId), eq(prizePoolContributions.userId, userId))),
    db.select().from(prizeEntries).where(eq(prizeEntries.userId, userId)),
    db.select().from(prizeMiniPrizes).where(eq(prizeMiniPrizes.hostId, userId)),
    db.select().from(prizeWinners).where(eq(prizeWinners.userId, userId)),
    db.select().from(groupBuys).where(eq(groupBuys.hostId, userId)),
    db.select().from(groupBuyTiers).where(inArray(groupBuyTiers.groupBuyId, ownGroupBuys)),
    db.select().from(groupBuyProducts).where(inArray(groupBuyProducts.groupBuyId, ownGroupBuys)),
    db.select().from(groupBuyShares).where(eq(groupBuyShares.userId, userId)),
    db
      .select()
      .from(orders)
      .where(or(eq(orders.userId, userId), eq(orders.hostId, userId))),
    db.select().from(shippingUpdates).where(inArray(shippingUpdates.orderId, ownOrders)),
    db
      .select()
      .from(vouchers)
      .where(or(eq(vouchers.buyerId, userId), eq(vouchers.hostId, userId))),
    db
      .select()
      .from(chatMessages)
      .where(or(eq(chatMessages.senderId, userId), eq(chatMessages.recipientId, userId))),
    db.select().from(payoutMethods).where(eq(payoutMethods.userId, userId)),
    db.select().from(payouts).where(eq(payouts.userId, userId)),
    db
      .select()
      .from(checkoutSessions)
      .where(or(eq(checkoutSessions.userId, userId), eq(checkoutSessions.hostId, userId))),
    db
      .select({ endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId)),
    db.select().from(notifications).where(eq(notifications.userId, userId)),
    db.select().from(spendLimits).where(eq(spendLimits.userId, userId)),
    db.select().from(entrySpend).where(eq(entrySpend.userId, userId)),
    db.select().from(freeEntries).where(eq(freeEntries.userId, userId)),
    db.select().from(postalEntries).where(eq(postalEntries.userId, userId)),
    db.select().from(prizeClaims).where(eq(prizeClaims.userId, userId)),
    db
      .select()
      .from(returnRequests)
      .where(or(eq(returnRequests.userId, userId), eq(returnRequests.hostId, userId))),
  ]);
  return {
    account,
    profile,
    sessions: sessionRows,
    shipping_countries: shipping,
    tribe_members: tribe,
    activity,
    analytics,
    products: productRows,
    product_sizes: sizes,
    product_colors: colors,
    product_images: images,
    product_likes: productLikeRows,
    games,
    guesses,
    game_likes: gameLikeRows,
    game_saves: gameSaveRows,
    game_shares: gameShareRows,
    free_guesses: freeGuesses,
    prize_pools: pools,
    pool_contributions: contributions,
    prize_entries: entries,
    mini_prizes: miniPrizes,
    prizes_won: winners,
    group_buys: groupBuyRows,
    group_buy_tiers: tiers,
    group_buy_products: groupBuyProductRows,
    group_buy_shares: groupBuyShareRows,
    orders: orderRows,
    shipping_updates: shippingUpdateRows,
    vouchers: voucherRows,
    chat_messages: messages,
    payout_methods: payoutMethodRows,
    payouts: payoutRows,
    checkout_sessions: checkouts,
    push_subscriptions: pushRows,
    notifications: notificationRows,
    spend_limits: spendLimitRows,
    entry_spend: entrySpendRows,
    free_entries: freeEntryRows,
    postal_entries: postalEntryRows,
    prize_claims: prizeClaimRows,
    return_requests: returnRequestRows,
  } as AccountRecords;
}

/** What a host still runs when the account is deleted: its open pool. */
export async function getOpenPoolId(db: Db, hostId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: prizePools.id })
    .from(prizePools)
    .where(and(eq(prizePools.hostId, hostId), eq(prizePools.status, "open")))
    .limit(1);
  return row?.id ?? null;
}

/** The account's current avatar and cover URLs (to remove the files after erasure). */
export async function getProfileImageUrls(db: Db, userId: string): Promise<string[]> {
  const [row] = await db
    .select({ avatar: userProfiles.avatarUrl, cover: userProfiles.coverImageUrl })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .limit(1);
  return [row?.avatar, row?.cover].filter((url): url is string => Boolean(url));
}

// --- a deleted account's orders ------------------------------------------------------------------------------------

/**
 * Whether the host still needs the order's buyer data (name, addresses, e-mail): not delivered yet, inside the return
 * window, or with an open return request or dispute (on the order, or on its payment when that names no order).
 */
function buyerDataStillNeeded(now: Date): SQL {
  const windowStart = now.getTime() - RETURN_WINDOW_DAYS * 24 * 60 * 60 * 1000;
  const list = (values: readonly string[]) =>
    sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    );
  // Columns are named with their table: drizzle writes a one-table statement's columns bare, which inside the
  // subqueries would name the inner tables' own.
  return sql`("orders"."status" in (${list(BUYER_DATA_KEPT_STATUSES)})
    or ("orders"."status" not in ('cancelled', 'refunded') and "orders"."delivered_at" is not null and "orders"."delivered_at" > ${windowStart})
    or exists (select 1 from return_requests rr where rr.order_id = "orders"."id" and rr.status = 'requested')
    or exists (select 1 from disputes d where (d.order_id = "orders"."id"
        or (d.order_id is null and d.checkout_session_id = "orders"."checkout_session_id"))
      and d.status not in (${list(FINAL_DISPUTE_STATUSES)})))`;
}

const hasBuyerData = sql`("orders"."customer_name" is not null or "orders"."customer_email" is not null
  or "orders"."shipping_address" is not null or "orders"."billing_address" is not null)`;

const eraseBuyerData = {
  customerName: null,
  customerEmail: null,
  shippingAddress: null,
  billingAddress: null,
} as const;

/** The account's orders whose buyer data is kept until they close (listed on the deletion form). */
export async function listOrdersKeepingBuyerData(db: Db, userId: string, now = new Date(), limit = 50) {
  return db
    .select({
      orderNumber: orders.orderNumber,
      productName: orders.productName,
      status: orders.status,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(and(eq(orders.userId, userId), buyerDataStillNeeded(now)))
    .orderBy(desc(orders.createdAt))
    .limit(limit);
}

/** The statement that erases the buyer data of the account's orders that no longer need it (on deletion). */
function eraseClosedOrdersOf(db: Db, userId: string, now: Date) {
  return db
    .update(orders)
    .set({ ...eraseBuyerData, updatedAt: now })
    .where(and(eq(orders.userId, userId), hasBuyerData, not(buyerDataStillNeeded(now))));
}

/**
 * The cron's step: deleted accounts' orders that have closed since lose their buyer data (name, e-mail, addresses),
 * and so do their payments' e-mail. Amounts, refunds and ledgers stay. Returns how many orders were erased.
 */
export async function eraseClosedOrdersOfDeletedAccounts(db: Db, now = new Date()): Promise<number> {
  const deletedBuyers = db.select({ id: users.id }).from(users).where(isNotNull(users.deletedAt));
  const [erased] = await db.batch([
    db
      .update(orders)
      .set({ ...eraseBuyerData, updatedAt: now })
      .where(and(inArray(orders.userId, deletedBuyers), hasBuyerData, not(buyerDataStillNeeded(now))))
      .returning({ id: orders.id }),
    db
      .update(checkoutSessions)
      .set({ customerEmail: null })
      .where(
        and(
          inArray(checkoutSessions.userId, deletedBuyers),
          isNotNull(checkoutSessions.customerEmail),
          sql`not exists (select 1 from "orders" where "orders"."checkout_session_id" = "checkout_sessions"."id" and ${hasBuyerData})`,
        ),
      ),
  ]);
  return erased.length;
}

/** The address a deleted account keeps: unique, not deliverable (.invalid), and naming no one. */
export function deletedAccountEmail(userId: string): string {
  return `deleted-${userId}@deleted.invalid`;
}

export const DELETED_ACCOUNT_NAME = "Deleted account";

/**
 * Erases an account in one batch. Sessions, tokens, push subscriptions, activity, likes, saves and memberships go;
 * the profile is blanked and hidden; the sign-in address becomes a placeholder and the password unusable. What
 * others rely on stays: orders (bought and sold), pool ledgers and entries, winners, vouchers, chat threads,
 * payouts and payout methods (money owed is still paid out). As a host: auto-renew stops, products are archived,
 * running games end and draft group buys are cancelled (the active one is cancelled with refunds by the caller).
 */
export async function eraseAccount(db: Db, userId: string, now = new Date()): Promise<boolean> {
  const email = deletedAccountEmail(userId);
  const [marked] = await db.batch([
    db
      .update(users)
      // The date of birth goes too; a self-exclusion stays, kept apart under keyed hashes (self_exclusions).
      .set({ email, passwordHash: "deleted", dateOfBirth: null, deletedAt: now, updatedAt: now })
      .where(and(eq(users.id, userId), sql`${users.deletedAt} is null`))
      .returning({ id: users.id }),
    db.delete(sessions).where(eq(sessions.userId, userId)),
    db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId)),
    db.delete(emailChangeTokens).where(eq(emailChangeTokens.userId, userId)),
    db.delete(emailConfirmationTokens).where(eq(emailConfirmationTokens.userId, userId)),
    db.delete(accountLinkTokens).where(eq(accountLinkTokens.userId, userId)),
    // Its buyer data leaves the orders that have closed; open ones keep it for the host until the cron sees them close.
    eraseClosedOrdersOf(db, userId, now),
    db
      .update(checkoutSessions)
      .set({ customerEmail: null })
      .where(
        and(
          eq(checkoutSessions.userId, userId),
          sql`not exists (select 1 from "orders" where "orders"."checkout_session_id" = "checkout_sessions"."id" and ${buyerDataStillNeeded(now)})`,
        ),
      ),
    db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)),
    // The inbox (its deliveries cascade): it quotes orders, names and addresses.
    db.delete(notifications).where(eq(notifications.userId, userId)),
    // Hosts whose tribes this fan joined lose a member; the fan's own tribe members are removed with the memberships.
    db
      .update(userProfiles)
      .set({ followersCount: sql`max(${userProfiles.followersCount} - 1, 0)` })
      .where(
        inArray(
          userProfiles.userId,
          db.select({ id: tribeMembers.hostId }).from(tribeMembers).where(eq(tribeMembers.userId, userId)),
        ),
      ),
    db.delete(tribeMembers).where(or(eq(tribeMembers.userId, userId), eq(tribeMembers.hostId, userId))),
    db.delete(userActivity).where(eq(userActivity.userId, userId)),
    db.delete(userAnalytics).where(eq(userAnalytics.userId, userId)),
    db.delete(productLikes).where(eq(productLikes.userId, userId)),
    db.delete(gameLikes).where(eq(gameLikes.userId, userId)),
    db.delete(gameSaves).where(eq(gameSaves.userId, userId)),
    db.delete(userShippingCountries).where(eq(userShippingCountries.hostId, userId)),
    db
      .update(userProfiles)
      .set({
        creatorName: DELETED_ACCOUNT_NAME,
        email,
        region: null,
        slug: null,
        bio: null,
        website: null,
        avatarUrl: null,
        coverImageUrl: null,
        followersCount: 0,
        profilePublic: false,
        showRevenue: false,
        showFollowers: false,
        emailNotifications: false,
        pushNotifications: false,
        winnerNotifications: false,
        salesNotifications: false,
        poolNotifications: false,
        prizePoolAutoRenew: false,
        updatedAt: now,
      })
      .where(eq(userProfiles.userId, userId)),
    db
      .update(prizePools)
      .set({ autoRenew: false, updatedAt: now })
      .where(and(eq(prizePools.hostId, userId), eq(prizePools.status, "open"))),
    db
      .update(products)
      .set({ status: "archived", updatedAt: now })
      .where(and(eq(products.hostId, userId), sql`${products.status} <> 'archived'`)),
    db
      .update(guessWinGames)
      .set({ status: "completed", endedAt: now, updatedAt: now })
      .where(and(eq(guessWinGames.hostId, userId), inArray(guessWinGames.status, ["active", "paused", "draft"]))),
    db
      .update(groupBuys)
      .set({ status: "cancelled", updatedAt: now })
      .where(and(eq(groupBuys.hostId, userId), eq(groupBuys.status, "draft"))),
  ]);
  return marked.length === 1;
}
