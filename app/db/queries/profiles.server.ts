import { and, desc, eq, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { tribeMembers, userProfiles } from "~/db/schema";

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
  followersCount: userProfiles.followersCount,
  showFollowers: userProfiles.showFollowers,
  profilePublic: userProfiles.profilePublic,
  status: userProfiles.status,
};

/** A profile by its user id or its slug (the user id wins if both match), or undefined. */
export async function getProfileByIdOrSlug(db: Db, idOrSlug: string) {
  const rows = await db
    .select(publicProfile)
    .from(userProfiles)
    .where(or(eq(userProfiles.userId, idOrSlug), eq(userProfiles.slug, idOrSlug)))
    .limit(2);
  return rows.find((row) => row.userId === idOrSlug) ?? rows[0];
}

/** The signed-in user's own profile, with the settings fields. */
export async function getOwnProfile(db: Db, userId: string) {
  const [row] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
  return row;
}

/** Public, active profiles for /explore: most followers first, one page at a time. */
export function listPublicProfiles(db: Db, { limit, offset = 0 }: { limit: number; offset?: number }) {
  return db
    .select({
      userId: userProfiles.userId,
      slug: userProfiles.slug,
      creatorName: userProfiles.creatorName,
      bio: userProfiles.bio,
      category: userProfiles.category,
      avatarUrl: userProfiles.avatarUrl,
      verified: userProfiles.verified,
      followersCount: userProfiles.followersCount,
      showFollowers: userProfiles.showFollowers,
    })
    .from(userProfiles)
    .where(and(eq(userProfiles.profilePublic, true), eq(userProfiles.status, "active")))
    .orderBy(desc(userProfiles.followersCount), desc(userProfiles.createdAt), desc(userProfiles.userId))
    .limit(limit)
    .offset(offset);
}

/** A host's tribe, newest members first. */
export function listTribeMembers(db: Db, hostId: string, limit: number) {
  return db
    .select({
      userId: tribeMembers.userId,
      status: tribeMembers.status,
      joinedAt: tribeMembers.joinedAt,
      creatorName: userProfiles.creatorName,
      avatarUrl: userProfiles.avatarUrl,
    })
    .from(tribeMembers)
    .leftJoin(userProfiles, eq(userProfiles.userId, tribeMembers.userId))
    .where(eq(tribeMembers.hostId, hostId))
    .orderBy(desc(tribeMembers.joinedAt))
    .limit(limit);
}
