// A person's public side: the profile, tribe memberships, shipping countries, activity and daily analytics.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ACTIVITY_TYPES } from "../../domain/accounts";
import { ACCOUNT_STATUSES } from "../../domain/admin";
import { DEFAULT_PROFILE_CATEGORY } from "../../domain/catalog";
import { DEFAULT_NOTIFICATION_SWITCHES } from "../../domain/notifications";
import { DEFAULT_POOL_DURATION_DAYS } from "../../domain/pool";
import { TRIBE_MEMBER_STATUSES } from "../../domain/tribe";
import { id, createdAt, updatedAt, cents, currency, bool, count } from "./columns";
import { users } from "./accounts";

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
    category: text("category").notNull().default(DEFAULT_PROFILE_CATEGORY),
    website: text("website"),
    avatarUrl: text("avatar_url"),
    coverImageUrl: text("cover_image_url"),
    verified: bool("verified").notNull().default(false),
    status: text("status", { enum: ACCOUNT_STATUSES }).notNull().default("active"),
    /** Kept in step with tribe_members. */
    followersCount: count("followers_count"),
    totalRevenueCents: cents("total_revenue_cents").notNull().default(0),
    totalSales: count("total_sales"),
    currency: currency(),
    prizePoolTargetCents: cents("prize_pool_target_cents").notNull().default(1_000_000),
    /** The duration saved in prize pool settings: the host's next pool runs this many days (decision 640). */
    prizePoolDurationDays: integer("prize_pool_duration_days").notNull().default(DEFAULT_POOL_DURATION_DAYS),
    prizePoolAutoRenew: bool("prize_pool_auto_renew").notNull().default(true),
    emailNotifications: bool("email_notifications").notNull().default(DEFAULT_NOTIFICATION_SWITCHES.emailNotifications),
    pushNotifications: bool("push_notifications").notNull().default(DEFAULT_NOTIFICATION_SWITCHES.pushNotifications),
    winnerNotifications: bool("winner_notifications")
      .notNull()
      .default(DEFAULT_NOTIFICATION_SWITCHES.winnerNotifications),
    salesNotifications: bool("sales_notifications").notNull().default(DEFAULT_NOTIFICATION_SWITCHES.salesNotifications),
    poolNotifications: bool("pool_notifications").notNull().default(DEFAULT_NOTIFICATION_SWITCHES.poolNotifications),
    profilePublic: bool("profile_public").notNull().default(true),
    showRevenue: bool("show_revenue").notNull().default(false),
    showFollowers: bool("show_followers").notNull().default(true),
    country: text("country").notNull().default("MY"),
    /** ISO 3166-2 subdivision (e.g. US-NY), where a country's regions differ on prize draws; null when not given. */
    region: text("region"),
    /**
     * The currency pages show prices in for this viewer (a code of CURRENCIES), chosen on a page or in Settings; null
     * means their country's (decision 620). `currency` above is the currency their own products are priced in.
     */
    displayCurrency: text("display_currency"),
    /** Set by the platform owner while the account is suspended: no payout may be started for it. */
    payoutsHeld: bool("payouts_held").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("user_profiles_slug_unique").on(t.slug),
    index("user_profiles_featured_idx").on(t.profilePublic, t.followersCount),
    // The suspended accounts (few): listings' hostNotSuspended reads them once per query (migration 0034).
    index("user_profiles_suspended_idx")
      .on(t.userId)
      .where(sql`status = 'suspended'`),
  ],
);

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

export const userAnalytics = sqliteTable(
  "user_analytics",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** 'YYYY-MM-DD' */
    date: text("date").notNull(),
    gamesCreated: count("games_created"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.date] })],
);

export type UserProfile = typeof userProfiles.$inferSelect;
export type NewUserProfile = typeof userProfiles.$inferInsert;
export type TribeMember = typeof tribeMembers.$inferSelect;
export type NewTribeMember = typeof tribeMembers.$inferInsert;
export type UserActivity = typeof userActivity.$inferSelect;
export type NewUserActivity = typeof userActivity.$inferInsert;
export type UserAnalytics = typeof userAnalytics.$inferSelect;
