// The platform owner's page: account statuses, the user list's sort orders and page size, and the audit log's actions.

import { z } from "zod";
import { searchQuerySchema } from "./search";

/** An account's status (user_profiles.status), which the platform owner sets on the admin dashboard. */
export const ACCOUNT_STATUSES = ["active", "suspended", "pending"] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** The user list's sort options: join date, revenue, followers, name (docs/product.md#roles). */
export const ADMIN_USER_SORTS = ["joined", "revenue", "followers", "name"] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];
export const ADMIN_USER_SORT_LABELS: Record<AdminUserSort, string> = {
  joined: "Join date",
  revenue: "Revenue",
  followers: "Followers",
  name: "Name",
};

export const ADMIN_PAGE_SIZE = 20;
export const ADMIN_AUDIT_PAGE_SIZE = 20;

/** Every action the platform owner can take; each one writes an audit row. */
export const ADMIN_AUDIT_ACTIONS = [
  "user_status_changed",
  "game_paused",
  "game_resumed",
  "revenue_rules_updated",
  "ad_revenue_recorded",
  "prize_settled_by_hand",
  "pool_cap_updated",
  "excluded_places_updated",
  "prize_id_checked",
  // Issue 29's free routes (decision 530).
  "free_entry_voided",
  "postal_entry_recorded",
] as const;
export type AdminAuditAction = (typeof ADMIN_AUDIT_ACTIONS)[number];

export const ADMIN_MESSAGES = {
  userNotFound: "User not found",
  gameNotFound: "Game not found",
  invalidStatus: "Please choose a status: active, suspended or pending.",
  ownAccount: "You cannot change the status of your own account.",
  statusUnchanged: "The account already has this status.",
  gamePaused: "Game paused successfully",
  gameResumed: "Game resumed successfully",
  gameNotPausable: "A completed game cannot be paused or resumed.",
  rulesSaved: "Revenue distribution rules saved.",
  unknownAction: "Unknown action.",
} as const;

export function statusChangedMessage(name: string, status: AccountStatus): string {
  return `${name} is now ${status}.`;
}

/** The list's query string: search text, sort and page, each falling back to its default when invalid. */
export const adminUserQuerySchema = z.object({
  q: searchQuerySchema,
  sort: z.enum(ADMIN_USER_SORTS).catch("joined"),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
export type AdminUserQuery = z.infer<typeof adminUserQuerySchema>;

export const statusChangeSchema = z.object({
  userId: z.string().trim().min(1, ADMIN_MESSAGES.userNotFound).max(64, ADMIN_MESSAGES.userNotFound),
  status: z.enum(ACCOUNT_STATUSES, { error: ADMIN_MESSAGES.invalidStatus }),
});

export const gamePauseSchema = z.object({
  gameId: z.string().trim().min(1, ADMIN_MESSAGES.gameNotFound).max(64, ADMIN_MESSAGES.gameNotFound),
});
