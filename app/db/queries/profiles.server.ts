import { and, asc, desc, eq, gt, isNull, or, Param, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { containsText } from "~/db/text-match.server";
import { columnPlaceholder, preparedRead } from "~/db/prepared.server";
import {
  currentPoolIdOf,
  hostIdSql,
  hostParam,
  hostShape,
  hostValue,
  profileHostId,
  type HostShape,
  type ProfileAddress,
} from "~/db/queries/host-refs.server";
import { viewerParam, viewerShape, viewerValues, type ViewerKey, type ViewerShape } from "~/db/queries/sessions.server";
import {
  groupBuyProducts,
  groupBuys,
  prizeEntries,
  prizePools,
  prizeWinners,
  tribeMembers,
  userProfiles,
  userShippingCountries,
  users,
} from "~/db/schema";

/**
 * A host's follower count as anyone may see it: null when they turned "Show followers" off, so a hidden count never
 * leaves the database (not even in a page's data).
 */
export const shownTribeMemberCount = sql<
  number | null
>`case when ${userProfiles.showFollowers} then ${userProfiles.followersCount} end`;

const publicProfile = {
  userId: userProfiles.userId,
  slug: userProfiles.slug,
  creatorName: userProfiles.creatorName,
  bio: userProfiles.bio,
  category: userProfiles.category,
  country: userProfiles.country,
  avatarUrl: userProfiles.avatarUrl,
  coverImageUrl: userProfiles.coverImageUrl,
  verified: userProfiles.verified,
  followersCount: shownTribeMemberCount,
  profilePublic: userProfiles.profilePublic,
  status: userProfiles.status,
  prizePoolTargetCents: userProfiles.prizePoolTargetCents,
  currency: userProfiles.currency,
  showRevenue: userProfiles.showRevenue,
  totalRevenueCents: userProfiles.totalRevenueCents,
};

/** A profile by its user id or its slug (the user id wins if both match), or undefined (also for a suspended or deleted account). */
export async function getProfileByIdOrSlug(db: Db, idOrSlug: string) {
  return profileRead(db).get({ idOrSlug });
}

const profileRead = preparedRead((db) =>
  db
    .select(publicProfile)
    .from(userProfiles)
    .innerJoin(users, eq(users.id, userProfiles.userId))
    .where(eq(userProfiles.userId, profileHostId(sql.placeholder("idOrSlug"))))
    .limit(1)
    .prepare(),
);

/** The signed-in user's own profile, with the settings fields. */
export async function getOwnProfile(db: Db, userId: string) {
  const [row] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
  return row;
}

/**
 * Public, active profiles for /explore: most followers first, one page at a time; optionally only names (or bios)
 * containing `q` and one category.
 */
export function listPublicProfiles(
  db: Db,
  { limit, offset = 0, q, category }: { limit: number; offset?: number; q?: string | null; category?: string | null },
) {
  const text = q?.trim();
  return db
    .select({
      userId: userProfiles.userId,
      slug: userProfiles.slug,
      creatorName: userProfiles.creatorName,
      bio: userProfiles.bio,
      category: userProfiles.category,
      avatarUrl: userProfiles.avatarUrl,
      verified: userProfiles.verified,
      followersCount: shownTribeMemberCount,
    })
    .from(userProfiles)
    .where(
      and(
        eq(userProfiles.profilePublic, true),
        eq(userProfiles.status, "active"),
        category ? eq(userProfiles.category, category) : undefined,
        text ? or(containsText(userProfiles.creatorName, text), containsText(userProfiles.bio, text)) : undefined,
      ),
    )
    .orderBy(desc(userProfiles.followersCount), desc(userProfiles.createdAt), desc(userProfiles.userId))
    .limit(limit)
    .offset(offset);
}

// ---------------------------------------------------------------------------------------------------------------
// The profile page

/**
 * A signed-in viewer's profile country (the display currency, ship-to and coming-soon checks) and chosen display
 * currency (null: their country's), in one read with the session's lookup (decision 620); undefined without a
 * profile. (It was getProfileCountry, which read the country alone.)
 */
export async function getViewerPlace(
  db: Db,
  viewer: ViewerKey,
): Promise<{ country: string; currency: string | null } | undefined> {
  return viewerPlaceRead(db, viewerShape(viewer)).get(viewerValues(viewer));
}

/** Remembers the display currency a fan chose (null: their country's). */
export async function setProfileCurrency(db: Db, userId: string, currency: string | null): Promise<void> {
  await db.update(userProfiles).set({ displayCurrency: currency }).where(eq(userProfiles.userId, userId));
}

/**
 * A visitor's currency choice (their cookie) carried into the account they sign in to, unless the account's profile
 * already remembers one of its own (decision 620): the profile's choice was made signed in, so it stays.
 */
export async function adoptVisitorCurrency(db: Db, userId: string, currency: string): Promise<void> {
  await db
    .update(userProfiles)
    .set({ displayCurrency: currency })
    .where(and(eq(userProfiles.userId, userId), isNull(userProfiles.displayCurrency)));
}

const viewerPlaceRead = preparedRead(
  (db, shape: ViewerShape) =>
    db
      .select({ country: userProfiles.country, currency: userProfiles.displayCurrency })
      .from(userProfiles)
      .where(eq(userProfiles.userId, viewerParam(shape, userProfiles.userId)))
      .limit(1)
      .prepare(),
  (shape) => shape,
);

/** The countries a host ships to (empty when the host has not chosen any). */
export async function listShippingCountryCodes(db: Db, host: string | ProfileAddress): Promise<string[]> {
  const rows = await shippingCountriesRead(db, hostShape(host)).all({ host: hostValue(host) });
  return rows.map((row) => row.code);
}

const shippingCountriesRead = preparedRead(
  (db, shape: HostShape) =>
    db
      .select({ code: userShippingCountries.countryCode })
      .from(userShippingCountries)
      .where(eq(userShippingCountries.hostId, hostParam(shape, userShippingCountries.hostId)))
      .limit(300)
      .prepare(),
  (shape) => shape,
);

/**
 * The countries a host's physical products can be shipped to: their chosen shipping countries, or their own profile
 * country when they chose none (the rule of the shop filter, the coming-soon check and checkout).
 */
export async function listShipToCountries(db: Db, hostId: string): Promise<string[]> {
  const chosen = await listShippingCountryCodes(db, hostId);
  if (chosen.length > 0) return chosen;
  const [profile] = await db
    .select({ country: userProfiles.country })
    .from(userProfiles)
    .where(eq(userProfiles.userId, hostId))
    .limit(1);
  return [profile?.country ?? "MY"];
}

export async function isTribeMember(db: Db, viewer: ViewerKey, host: string | ProfileAddress): Promise<boolean> {
  const shape = { viewer: viewerShape(viewer), host: hostShape(host) };
  const row = await tribeMemberRead(db, shape).get({ ...viewerValues(viewer), host: hostValue(host) });
  return row !== undefined;
}

const tribeMemberRead = preparedRead(
  (db, shape: { viewer: ViewerShape; host: HostShape }) =>
    db
      .select({ userId: tribeMembers.userId })
      .from(tribeMembers)
      .where(
        and(
          eq(tribeMembers.userId, viewerParam(shape.viewer, tribeMembers.userId)),
          eq(tribeMembers.hostId, hostParam(shape.host, tribeMembers.hostId)),
        ),
      )
      .limit(1)
      .prepare(),
  (shape) => `${shape.viewer}:${shape.host}`,
);

/**
 * Joins a host's tribe in one D1 batch: the membership row is inserted-or-ignored and followers_count grows only
 * when it was new. "already" when the user was a member before.
 */
export async function joinTribe(db: Db, userId: string, hostId: string): Promise<"joined" | "already"> {
  const [inserted] = await db.batch([
    db.insert(tribeMembers).values({ userId, hostId }).onConflictDoNothing().returning({ userId: tribeMembers.userId }),
    db
      .update(userProfiles)
      // updated_at is left alone: a new tribe member is not an edit of the profile.
      .set({ followersCount: sql`${userProfiles.followersCount} + 1`, updatedAt: sql`${userProfiles.updatedAt}` })
      .where(and(eq(userProfiles.userId, hostId), sql`changes() = 1`)),
  ]);
  return inserted.length > 0 ? "joined" : "already";
}

/** A user's entry numbers in one pool (by its id, or the current pool of the host a profile address names), lowest first. */
export async function listUserEntryNumbers(
  db: Db,
  pool: string | { currentOf: ProfileAddress },
  viewer: ViewerKey,
  limit = 100,
): Promise<number[]> {
  const byId = typeof pool === "string";
  const shape = { byId, viewer: viewerShape(viewer) };
  const rows = await entryNumbersRead(db, shape).all({
    pool: byId ? pool : pool.currentOf.idOrSlug,
    ...viewerValues(viewer),
    limit,
  });
  return rows.map((row) => row.entryNumber);
}

const entryNumbersRead = preparedRead(
  (db, { byId, viewer }: { byId: boolean; viewer: ViewerShape }) =>
    db
      .select({ entryNumber: prizeEntries.entryNumber })
      .from(prizeEntries)
      .where(
        and(
          eq(
            prizeEntries.poolId,
            byId
              ? columnPlaceholder(prizeEntries.poolId, "pool")
              : currentPoolIdOf(profileHostId(sql.placeholder("pool"))),
          ),
          eq(prizeEntries.userId, viewerParam(viewer, prizeEntries.userId)),
        ),
      )
      .orderBy(asc(prizeEntries.entryNumber))
      .limit(sql.placeholder("limit"))
      .prepare(),
  ({ byId, viewer }) => `${byId ? "id" : "current"}:${viewer}`,
);

/** The winners of a host's pools, newest first, with the pool each came from (for the draw verification link). */
export function listHostPoolWinners(db: Db, host: string | ProfileAddress, limit = 20, offset = 0) {
  return db
    .select({
      id: prizeWinners.id,
      poolId: prizeWinners.poolId,
      winnerName: prizeWinners.winnerName,
      prizeAmountCents: prizeWinners.prizeAmountCents,
      currency: prizeWinners.currency,
      prizeType: prizeWinners.prizeType,
      createdAt: prizeWinners.createdAt,
    })
    .from(prizeWinners)
    .innerJoin(prizePools, eq(prizePools.id, prizeWinners.poolId))
    .where(eq(prizePools.hostId, hostIdSql(host)))
    .orderBy(desc(prizeWinners.createdAt), desc(prizeWinners.id))
    .limit(limit)
    .offset(offset);
}

/** The host's group buy that is active and has not ended (one at a time). */
function runningGroupBuyOf(hostId: string | SQL | Param, now: Date | Param) {
  return and(eq(groupBuys.hostId, hostId), eq(groupBuys.status, "active"), gt(groupBuys.endAt, now));
}

/**
 * The host's active group buy that has not ended, with the products it offers (a product's Group Buy button shows
 * only when the group buy offers it; the others keep Buy Now), or undefined.
 */
export async function getActiveGroupBuyOffer(
  db: Db,
  host: string | ProfileAddress,
  now: Date,
): Promise<{ id: string; productIds: string[] } | undefined> {
  const rows = await activeGroupBuyOfferRead(db, hostShape(host)).all({ host: hostValue(host), now });
  const [first] = rows;
  if (!first) return undefined;
  return { id: first.id, productIds: rows.flatMap((r) => (r.id === first.id && r.productId ? [r.productId] : [])) };
}

// One group buy is active per host at a time (the database holds to it); the filter above keeps one regardless.
const activeGroupBuyOfferRead = preparedRead(
  (db, shape: HostShape) =>
    db
      .select({ id: groupBuys.id, productId: groupBuyProducts.productId })
      .from(groupBuys)
      .leftJoin(groupBuyProducts, eq(groupBuyProducts.groupBuyId, groupBuys.id))
      .where(runningGroupBuyOf(hostParam(shape, groupBuys.hostId), columnPlaceholder(groupBuys.endAt, "now")))
      .limit(200)
      .prepare(),
  (shape) => shape,
);

/** The id of the host's active group buy that has not ended, or undefined. */
export async function getActiveGroupBuyId(db: Db, hostId: string | SQL, now: Date): Promise<string | undefined> {
  const [row] = await db.select({ id: groupBuys.id }).from(groupBuys).where(runningGroupBuyOf(hostId, now)).limit(1);
  return row?.id;
}
