import { and, asc, count, desc, eq, inArray, or, sql } from "drizzle-orm";
import { alias, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { containsText } from "~/db/text-match.server";
import {
  adminAuditLog,
  groupBuys,
  guessWinGames,
  orders,
  payouts,
  platformSettings,
  products,
  sessions,
  userProfiles,
  users,
} from "~/db/schema";
import type { AccountStatus, AdminAuditAction, AdminUserQuery } from "~/domain/admin";
import { REVENUE_RULES_SETTING_KEY } from "~/domain/revenue";

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

const SORT_ORDER = {
  joined: [desc(users.createdAt), asc(users.id)],
  revenue: [desc(userProfiles.totalRevenueCents), desc(users.createdAt), asc(users.id)],
  followers: [desc(userProfiles.followersCount), desc(users.createdAt), asc(users.id)],
  name: [sql`${userProfiles.creatorName} COLLATE NOCASE ASC`, asc(users.id)],
} as const;

/**
 * One page of accounts for the owner: searched by name or e-mail, sorted and paginated in SQL. Returns one row
 * more than `pageSize` is asked for nowhere: `hasMore` tells whether a next page exists.
 */
export async function listAdminUsers(db: Db, { q, sort, page }: AdminUserQuery, pageSize: number) {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      createdAt: users.createdAt,
      creatorName: userProfiles.creatorName,
      status: userProfiles.status,
      followersCount: userProfiles.followersCount,
      totalRevenueCents: userProfiles.totalRevenueCents,
      payoutsHeld: userProfiles.payoutsHeld,
    })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(q ? or(containsText(userProfiles.creatorName, q), containsText(users.email, q)) : undefined)
    .orderBy(...SORT_ORDER[sort])
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  return { users: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/** The account an admin action targets, or null. */
export async function getAdminTarget(db: Db, userId: string) {
  const [row] = await db
    .select({
      userId: userProfiles.userId,
      creatorName: userProfiles.creatorName,
      status: userProfiles.status,
      role: users.role,
    })
    .from(userProfiles)
    .innerJoin(users, eq(users.id, userProfiles.userId))
    .where(eq(userProfiles.userId, userId))
    .limit(1);
  return row ?? null;
}

/** Sets an account's status: suspension also holds its payouts and ends every session at once; any other status releases the hold. */
export async function setAccountStatus(db: Db, userId: string, status: AccountStatus): Promise<void> {
  const suspended = status === "suspended";
  await db.batch([
    db
      .update(userProfiles)
      .set({ status, payoutsHeld: suspended, updatedAt: new Date() })
      .where(eq(userProfiles.userId, userId)),
    ...(suspended ? [db.delete(sessions).where(eq(sessions.userId, userId))] : []),
  ]);
}

/** Writes one audit row. */
export async function recordAudit(
  db: Db,
  row: {
    adminId: string;
    action: AdminAuditAction;
    targetUserId?: string | null;
    targetGameId?: string | null;
    detail: Record<string, unknown>;
  },
) {
  await db.insert(adminAuditLog).values({
    adminId: row.adminId,
    action: row.action,
    targetUserId: row.targetUserId ?? null,
    targetGameId: row.targetGameId ?? null,
    detail: row.detail,
  });
}

/** The newest audit rows with the names of the admin and the target. */
export async function listAuditLog(db: Db, { page, pageSize }: { page: number; pageSize: number }) {
  const admin = alias(userProfiles, "admin_profile");
  const target = alias(userProfiles, "target_profile");
  const rows = await db
    .select({
      id: adminAuditLog.id,
      action: adminAuditLog.action,
      detail: adminAuditLog.detail,
      createdAt: adminAuditLog.createdAt,
      adminName: admin.creatorName,
      targetUserId: adminAuditLog.targetUserId,
      targetName: target.creatorName,
      targetGameId: adminAuditLog.targetGameId,
      gameQuestion: guessWinGames.question,
    })
    .from(adminAuditLog)
    .leftJoin(admin, eq(admin.userId, adminAuditLog.adminId))
    .leftJoin(target, eq(target.userId, adminAuditLog.targetUserId))
    .leftJoin(guessWinGames, eq(guessWinGames.id, adminAuditLog.targetGameId))
    .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  return { rows: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/** Active and paused games platform-wide, newest first, for the Game Pause list. */
export function listPausableGames(db: Db, limit: number) {
  return db
    .select({
      id: guessWinGames.id,
      question: guessWinGames.question,
      status: guessWinGames.status,
      hostId: guessWinGames.hostId,
      hostName: userProfiles.creatorName,
      createdAt: guessWinGames.createdAt,
    })
    .from(guessWinGames)
    .leftJoin(userProfiles, eq(userProfiles.userId, guessWinGames.hostId))
    .where(inArray(guessWinGames.status, ["active", "paused"]))
    .orderBy(desc(guessWinGames.createdAt))
    .limit(limit);
}

export async function getGameStatus(db: Db, gameId: string) {
  const [row] = await db
    .select({
      id: guessWinGames.id,
      status: guessWinGames.status,
      hostId: guessWinGames.hostId,
      question: guessWinGames.question,
    })
    .from(guessWinGames)
    .where(eq(guessWinGames.id, gameId))
    .limit(1);
  return row ?? null;
}

/** Pauses or resumes a game (only from the status read, so two admins cannot flip it twice) and audits it. */
export async function setGameStatusByAdmin(
  db: Db,
  input: {
    adminId: string;
    gameId: string;
    from: (typeof guessWinGames.$inferSelect)["status"];
    to: "active" | "paused";
  },
): Promise<boolean> {
  const updated = await db
    .update(guessWinGames)
    .set({ status: input.to, updatedAt: new Date() })
    .where(and(eq(guessWinGames.id, input.gameId), eq(guessWinGames.status, input.from)))
    .returning({ id: guessWinGames.id });
  if (updated.length !== 1) return false;
  await recordAudit(db, {
    adminId: input.adminId,
    action: input.to === "paused" ? "game_paused" : "game_resumed",
    targetGameId: input.gameId,
    detail: { from: input.from, to: input.to },
  });
  return true;
}

/** The stored revenue distribution setting (raw, as saved), or null. */
export async function getRevenueRulesSetting(db: Db): Promise<unknown> {
  const [row] = await db
    .select({ value: platformSettings.settingValue })
    .from(platformSettings)
    .where(eq(platformSettings.settingKey, REVENUE_RULES_SETTING_KEY))
    .limit(1);
  return row?.value ?? null;
}

/** Saves the revenue distribution setting and its audit row in one batch. */
export async function saveRevenueRulesSetting(
  db: Db,
  adminId: string,
  setting: Record<string, unknown>,
  previous: unknown,
) {
  const now = new Date();
  await db.batch([
    db
      .insert(platformSettings)
      .values({ settingKey: REVENUE_RULES_SETTING_KEY, settingValue: setting, updatedAt: now })
      .onConflictDoUpdate({ target: platformSettings.settingKey, set: { settingValue: setting, updatedAt: now } }),
    db.insert(adminAuditLog).values({
      adminId,
      action: "revenue_rules_updated",
      detail: { from: previous, to: setting },
      createdAt: now,
    }),
  ]);
}

/** A host's active group buys (ids), to cancel them on suspension. */
export async function listActiveGroupBuyIds(db: Db, hostId: string, limit = 50): Promise<string[]> {
  const rows = await db
    .select({ id: groupBuys.id })
    .from(groupBuys)
    .where(and(eq(groupBuys.hostId, hostId), eq(groupBuys.status, "active")))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** True while the platform owner holds the account's payouts (it is suspended): no payout may start. */
export async function arePayoutsHeld(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ held: userProfiles.payoutsHeld })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .limit(1);
  return row?.held === true;
}

/** The account's payouts still waiting to start (held during a suspension), oldest first. */
export async function listPendingPayoutIds(db: Db, userId: string, limit = 50): Promise<string[]> {
  const rows = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.status, "pending")))
    .orderBy(asc(payouts.createdAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** True when the account's profile status is 'suspended' (sign-in refuses it). */
export async function isAccountSuspended(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ status: userProfiles.status })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .limit(1);
  return row?.status === "suspended";
}

/**
 * SQL condition for listing queries: the host behind `hostId` is not suspended (their shop, games and group buys
 * show). The suspended accounts are read once per query through their partial index (user_profiles_suspended_idx,
 * migration 0034), not looked up again for every row: a search that matches 5,000 products paid two index lookups
 * per product for it (decision 590).
 */
export function hostNotSuspended(hostId: AnySQLiteColumn) {
  return sql`${hostId} not in (select ${userProfiles.userId} from ${userProfiles} where ${userProfiles.status} = 'suspended')`;
}
