// The platform owner's actions: account status (with everything a suspension does), Game Pause and the revenue
// distribution rules. Each one is checked, applied and written to the audit log.

import { getDb } from "~/db/client.server";
import {
  getAdminTarget,
  getGameStatus,
  getRevenueRulesSetting,
  listActiveGroupBuyIds,
  listPendingPayoutIds,
  recordAudit,
  saveRevenueRulesSetting,
  setAccountStatus,
  setGameStatusByAdmin,
} from "~/db/queries/admin.server";
import { ADMIN_MESSAGES, gamePauseSchema, statusChangedMessage, statusChangeSchema } from "~/domain/admin";
import { nextPauseStatus } from "~/domain/catalog";
import { parseRevenueRulesForm } from "~/domain/revenue-settings";
import type { SessionUser } from "~/lib/auth.server";
import { closeGroupBuy } from "~/lib/payments/refunds/group-buy-close.server";
import { processPayout } from "~/lib/payments/connect/payouts.server";
import { closePool, getOpenPool } from "~/lib/pools.server";

export type AdminActionResult =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 404 | 409; message: string; fieldErrors?: Record<string, string> };

const refuse = (status: 400 | 404 | 409, message: string, fieldErrors?: Record<string, string>): AdminActionResult => ({
  ok: false,
  status,
  message,
  ...(fieldErrors ? { fieldErrors } : {}),
});

/**
 * Changes an account's status. Suspending: sign-in refused and every session ended (in the same batch as the
 * status), payouts held, shop/games/group buys hidden (listing queries), checkouts refused, the open pool closed
 * and drawn as usual, active group buys cancelled. Re-activating releases the hold and shows everything again.
 */
export async function changeAccountStatus(
  env: Env,
  admin: SessionUser,
  form: FormData,
  origin: string,
): Promise<AdminActionResult> {
  const parsed = statusChangeSchema.safeParse({ userId: form.get("userId"), status: form.get("status") });
  if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? ADMIN_MESSAGES.invalidStatus);
  const { userId, status } = parsed.data;
  const db = getDb(env);
  const target = await getAdminTarget(db, userId);
  if (!target) return refuse(404, ADMIN_MESSAGES.userNotFound);
  if (target.userId === admin.id) return refuse(409, ADMIN_MESSAGES.ownAccount);
  if (target.status === status) return refuse(409, ADMIN_MESSAGES.statusUnchanged);

  await setAccountStatus(db, userId, status);
  const detail: Record<string, unknown> = { from: target.status, to: status };
  try {
    if (status === "suspended") {
      detail.sessionsEnded = true;
      detail.payoutsHeld = true;
      const pool = await getOpenPool(env, userId);
      if (pool) {
        await closePool(env, pool.id, "closed_early");
        detail.poolClosed = pool.id;
      }
      // Cancelled by the group buy's own rule: every paid order refunded in full (resumable, one refund per order).
      const cancelled: string[] = [];
      for (const groupBuyId of await listActiveGroupBuyIds(db, userId)) {
        const result = await closeGroupBuy(env, groupBuyId, { mode: "cancel" });
        if (result.ok) cancelled.push(groupBuyId);
        else console.error("group buy cancel on suspension failed", groupBuyId, result.message);
      }
      detail.groupBuysCancelled = cancelled;
    } else if (target.status === "suspended") {
      // The hold ends: payouts that waited during the suspension start now.
      detail.payoutsReleased = true;
      for (const payoutId of await listPendingPayoutIds(db, userId)) await processPayout(env, origin, payoutId);
    }
  } finally {
    await recordAudit(db, { adminId: admin.id, action: "user_status_changed", targetUserId: userId, detail });
  }
  return { ok: true, message: statusChangedMessage(target.creatorName, status) };
}

/** Game Pause, the host's toggle rule: a paused game resumes, any other becomes paused; a completed one is refused. */
export async function toggleGamePause(env: Env, admin: SessionUser, form: FormData): Promise<AdminActionResult> {
  const parsed = gamePauseSchema.safeParse({ gameId: form.get("gameId") });
  if (!parsed.success) return refuse(400, ADMIN_MESSAGES.gameNotFound);
  const db = getDb(env);
  const game = await getGameStatus(db, parsed.data.gameId);
  if (!game) return refuse(404, ADMIN_MESSAGES.gameNotFound);
  if (game.status === "completed") return refuse(409, ADMIN_MESSAGES.gameNotPausable);
  const next = nextPauseStatus(game.status);
  const changed = await setGameStatusByAdmin(db, { adminId: admin.id, gameId: game.id, from: game.status, to: next });
  if (!changed) return refuse(409, ADMIN_MESSAGES.gameNotPausable);
  return { ok: true, message: next === "paused" ? ADMIN_MESSAGES.gamePaused : ADMIN_MESSAGES.gameResumed };
}

/** Saves the revenue distribution rules when every source's shares add up to 100%. */
export async function saveRevenueRules(env: Env, admin: SessionUser, form: FormData): Promise<AdminActionResult> {
  const result = parseRevenueRulesForm((field) => form.get(field));
  if (!result.ok) {
    const errors = Object.fromEntries(
      Object.entries(result.errors).filter((e): e is [string, string] => Boolean(e[1])),
    );
    return refuse(400, Object.values(errors)[0] ?? ADMIN_MESSAGES.unknownAction, errors);
  }
  const db = getDb(env);
  const previous = await getRevenueRulesSetting(db);
  await saveRevenueRulesSetting(db, admin.id, result.setting, previous);
  return { ok: true, message: ADMIN_MESSAGES.rulesSaved };
}
