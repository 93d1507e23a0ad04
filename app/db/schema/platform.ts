// The platform owner's settings and audit log.
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ADMIN_AUDIT_ACTIONS } from "../../domain/admin";
import { id, createdAt, updatedAt } from "./columns";
import { users } from "./accounts";
import { guessWinGames } from "./games";

/** Platform-wide settings by key (e.g. 'revenue_distribution_rules'). */
export const platformSettings = sqliteTable("platform_settings", {
  settingKey: text("setting_key").primaryKey(),
  settingValue: text("setting_value", { mode: "json" }).$type<unknown>().notNull(),
  updatedAt: updatedAt(),
});

/** Every action the platform owner takes, newest first on /admin. */
export const adminAuditLog = sqliteTable(
  "admin_audit_log",
  {
    id: id(),
    adminId: text("admin_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action", { enum: ADMIN_AUDIT_ACTIONS }).notNull(),
    targetUserId: text("target_user_id").references(() => users.id, { onDelete: "set null" }),
    targetGameId: text("target_game_id").references(() => guessWinGames.id, { onDelete: "set null" }),
    /** What changed (e.g. from/to status, the new rules, and what the change did). */
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("admin_audit_log_created_idx").on(t.createdAt)],
);

export type PlatformSetting = typeof platformSettings.$inferSelect;
export type AdminAuditRow = typeof adminAuditLog.$inferSelect;
