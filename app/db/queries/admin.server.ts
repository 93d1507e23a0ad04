import { count, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { guessWinGames, orders, products, userProfiles, users } from "~/db/schema";

/** Platform-wide totals for the owner's dashboard (COUNT queries; no rows are loaded). */
export async function platformCounts(db: Db) {
  const [u, p, o, g] = await db.batch([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(products),
    db.select({ n: count() }).from(orders),
    db.select({ n: count() }).from(guessWinGames),
  ]);
  return { users: u[0]?.n ?? 0, products: p[0]?.n ?? 0, orders: o[0]?.n ?? 0, games: g[0]?.n ?? 0 };
}

/** The newest accounts with their profile basics. */
export function listRecentUsers(db: Db, limit = 20) {
  return db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      createdAt: users.createdAt,
      creatorName: userProfiles.creatorName,
      status: userProfiles.status,
      followersCount: userProfiles.followersCount,
      totalRevenueCents: userProfiles.totalRevenueCents,
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .orderBy(desc(users.createdAt))
    .limit(limit);
}
