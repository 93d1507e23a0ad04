import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { preparedRead } from "~/db/prepared.server";
import { shownTribeMemberCount } from "~/db/queries/profiles.server";
import { prizePools, userProfiles } from "~/db/schema";

/** Up to `limit` public host profiles with the most tribe members, each with its open pool (if any). */
export async function featuredHosts(db: Db, limit = 3) {
  return featuredHostsRead(db).all({ limit });
}

const featuredHostsRead = preparedRead((db) =>
  db
    .select({
      id: userProfiles.userId,
      slug: userProfiles.slug,
      creatorName: userProfiles.creatorName,
      bio: userProfiles.bio,
      category: userProfiles.category,
      avatarUrl: userProfiles.avatarUrl,
      verified: userProfiles.verified,
      followersCount: shownTribeMemberCount,
      poolId: prizePools.id,
      poolAmountCents: prizePools.amountCents,
      poolTargetCents: prizePools.targetCents,
      poolCurrency: prizePools.currency,
      poolEndAt: prizePools.endAt,
    })
    .from(userProfiles)
    .leftJoin(prizePools, and(eq(prizePools.hostId, userProfiles.userId), eq(prizePools.status, "open")))
    .where(and(eq(userProfiles.profilePublic, true), ne(userProfiles.status, "suspended")))
    .orderBy(desc(userProfiles.followersCount), desc(userProfiles.createdAt))
    .limit(sql.placeholder("limit"))
    .prepare(),
);
