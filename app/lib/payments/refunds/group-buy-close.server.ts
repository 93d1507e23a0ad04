// The end of a group buy: finalisation (at the end date on the cron, or early by the host once the target is met) and
// cancellation (a deleted group buy that fans joined). Both refund through the payment provider, one refund per order
// with the idempotency key `group-buy:<order id>`, applied like every refund (refunds.server.ts: the order's refunded
// total, the pool share reversed, or booked to the host once the pool has closed); a tier refund never voids an entry. Every step can be repeated: the close is claimed once, each order's refund is recorded once
// (primary key), and a refund the provider has not confirmed is retried by the next cron run with the same key.

import { getDb } from "~/db/client.server";
import {
  claimGroupBuyClose,
  completeGroupBuyRefund,
  getGroupBuyForClose,
  listGroupBuyPaidOrders,
  listGroupBuyTiers,
  listGroupBuysToClose,
  listPendingGroupBuyRefunds,
  markGroupBuyFinalised,
  recordGroupBuyRefunds,
} from "~/db/queries/group-buys.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import {
  canCompleteEarly,
  GROUP_BUY_ACTION_MESSAGES,
  type GroupBuyOrderMoney,
  planGroupBuyCancellation,
  planGroupBuyFinalisation,
  planTierRefunds,
  recordedGroupBuyRule,
} from "~/domain/group-buy";
import { bookGroupBuyEarnings } from "~/lib/payments/refunds/refund-earnings.server";
import { sendRefund } from "./refund-request.server";
import { siteOrigin } from "~/lib/config.server";
import { notify } from "~/lib/notify.server";

export type CloseMode = "end" | "early" | "cancel";
export type CloseResult = { ok: true; refunded: number } | { ok: false; message: string };

/** The idempotency key of an order's one end-of-group-buy refund. */
export function groupBuyRefundKey(orderId: string): string {
  return `group-buy:${orderId}`;
}

async function orderMoney(env: Env, groupBuyId: string) {
  const db = getDb(env);
  const [rows, rules] = await Promise.all([listGroupBuyPaidOrders(db, groupBuyId), getRevenueRules(db)]);
  return rows.map((o): GroupBuyOrderMoney & { currency: string } => {
    const rule = recordedGroupBuyRule(o.metadata ?? null, rules.group_buy_sales);
    return {
      orderId: o.id,
      paidCents: o.amountCents,
      refundedCents: Math.min(o.refundedCents, o.amountCents),
      salesRmCents: o.salesRmCents ?? 0,
      poolPercent: rule.prizePoolPercent,
      platformFeePercent: rule.platformFeePercent,
      currency: o.currency,
    };
  });
}

/**
 * Closes a group buy. `end`: the cron, at or after the end date; `early`: the host, only once net sales reach the
 * target; `cancel`: the host deleting a group buy fans joined (everyone refunded in full). A `hostId` limits it to
 * that host's group buy. Calling it again (or concurrently) resumes the refunds and never repeats one.
 */
export async function closeGroupBuy(
  env: Env,
  groupBuyId: string,
  options: { mode: CloseMode; hostId?: string; now?: Date },
): Promise<CloseResult> {
  const db = getDb(env);
  const now = options.now ?? new Date();
  const groupBuy = await getGroupBuyForClose(db, groupBuyId);
  if (!groupBuy || (options.hostId && groupBuy.hostId !== options.hostId))
    return { ok: false, message: "Group buy not found" };

  if (groupBuy.status === "draft") return { ok: false, message: GROUP_BUY_ACTION_MESSAGES.notActive };
  if (groupBuy.status === "active") {
    if (options.mode === "cancel") {
      await claimGroupBuyClose(db, groupBuyId, { status: "cancelled", finalDiscountPercent: 0 });
    } else {
      if (options.mode === "end" && groupBuy.endAt.getTime() > now.getTime())
        return { ok: false, message: "This group buy has not ended yet" };
      const [tiers, money] = await Promise.all([listGroupBuyTiers(db, groupBuyId), orderMoney(env, groupBuyId)]);
      const plan = planGroupBuyFinalisation(tiers, groupBuy.targetCents, money);
      if (options.mode === "early" && !canCompleteEarly(plan.netSalesRmCents, groupBuy.targetCents)) {
        return { ok: false, message: GROUP_BUY_ACTION_MESSAGES.earlyBelowTarget };
      }
      await claimGroupBuyClose(db, groupBuyId, {
        status: "completed",
        finalDiscountPercent: plan.finalDiscountPercent,
      });
    }
  } else if (options.mode !== "end" && groupBuy.finalisedAt) {
    return {
      ok: false,
      message:
        groupBuy.status === "cancelled"
          ? "This group buy was already cancelled"
          : "This group buy is already completed",
    };
  }

  // Whoever claimed the close (this call, a racing one, or the admin suspending the host), the stored outcome
  // decides: each order without an end refund gets one now; orders that have one keep it (primary key).
  const closed = await getGroupBuyForClose(db, groupBuyId);
  if (!closed || (closed.status !== "completed" && closed.status !== "cancelled")) return { ok: true, refunded: 0 };
  return { ok: true, refunded: await settleClosedGroupBuy(env, closed) };
}

/**
 * Settles a closed (completed or cancelled) group buy's paid orders: each order without its end refund gets one (the
 * final tier's, or in full after a cancellation), recorded once per order (primary key), sent with the order's
 * idempotency key; then the group buy is marked finalised and the host's share booked (each row once). The close
 * runs it, the cron resumes it, and so does a payment that arrives after the close (fulfil-group-buy.server.ts): its
 * orders are settled exactly as those paid before (decision 370).
 */
export async function settleClosedGroupBuy(
  env: Env,
  closed: { id: string; name: string; status: string; finalDiscountPercent: number | null },
): Promise<number> {
  const db = getDb(env);
  const money = await orderMoney(env, closed.id);
  const refunds =
    closed.status === "cancelled"
      ? planGroupBuyCancellation(money)
      : planTierRefunds(money, closed.finalDiscountPercent ?? 0);
  await recordGroupBuyRefunds(
    db,
    closed.id,
    refunds.map((r, i) => ({
      orderId: r.orderId,
      kind: closed.status === "cancelled" ? "cancellation" : "final_tier",
      amountCents: r.refundCents,
      currency: money[i]!.currency,
      poolReversalCents: r.poolReversalCents,
    })),
  );
  const refunded = await sendPendingRefunds(env, closed.id, closed.name);
  await markGroupBuyFinalised(db, closed.id);
  // Group-buy revenue counts once finalised (decision 340).
  await bookGroupBuyEarnings(env, closed.id);
  await tellHostGroupBuyFinalised(env, closed, money.length);
  return refunded;
}

/** The host hears once that the group buy was finalised: its final tier and the refunds it made. */
async function tellHostGroupBuyFinalised(
  env: Env,
  closed: { id: string; name: string; status: string; finalDiscountPercent: number | null },
  orderCount: number,
): Promise<void> {
  const groupBuy = await getGroupBuyForClose(getDb(env), closed.id);
  if (!groupBuy) return;
  const cancelled = closed.status === "cancelled";
  const discount = closed.finalDiscountPercent ?? 0;
  const orders = `${orderCount} paid order${orderCount === 1 ? "" : "s"}`;
  await notify(env, groupBuy.hostId, "group_buy_finalised", {
    key: `group-buy-finalised:${closed.id}`,
    subject: `Group buy "${closed.name}" ${cancelled ? "cancelled" : "finalised"}`,
    text: cancelled
      ? `Your group buy "${closed.name}" was cancelled: its ${orderCount} paid order${orderCount === 1 ? " is" : "s are"} refunded in full.`
      : discount > 0
        ? `Your group buy "${closed.name}" ended at ${discount}% off: its ${orders} ${orderCount === 1 ? "was" : "were"} refunded the difference, and your share is in your earnings.\n\n${siteOrigin(env)}/group-buy-management`
        : `Your group buy "${closed.name}" ended with no discount: its ${orders} ${orderCount === 1 ? "keeps its" : "keep their"} price, and your share is in your earnings.\n\n${siteOrigin(env)}/group-buy-management`,
    url: "/group-buy-management",
  });
}

/**
 * Sends the recorded refunds the provider has not accepted yet. The provider call carries the order's idempotency
 * key, so a retry after a crash returns the same refund; the order's refunded total grows once, with the refund id.
 */
async function sendPendingRefunds(env: Env, groupBuyId: string, groupBuyName: string): Promise<number> {
  const db = getDb(env);
  const pending = await listPendingGroupBuyRefunds(db, groupBuyId);
  if (pending.length === 0) return 0;
  let sent = 0;
  for (const refund of pending) {
    const checkoutSessionId = refund.checkoutSessionId;
    if (!checkoutSessionId) continue;
    try {
      const result = await sendRefund(env, {
        checkoutSessionId,
        orderId: refund.orderId,
        paymentIntentId: refund.paymentIntentId ?? checkoutSessionId,
        currency: refund.currency,
        amountCents: refund.amountCents,
        origin: "group_buy",
        reason:
          refund.kind === "cancellation"
            ? `The group buy "${groupBuyName}" was cancelled.`
            : `The group buy "${groupBuyName}" reached a discount tier.`,
        idempotencyKey: groupBuyRefundKey(refund.orderId),
      });
      if (!result.ok) throw new Error(result.message);
      // The refund (its order's refunded total, the pool share, with the order's pool closed a host debit) was
      // applied by sendRefund; this stores its id on the group buy's record, once.
      if (!(await completeGroupBuyRefund(db, refund.orderId, result.refundId))) continue;
      sent++;
      // The buyer's mail goes from the refund path (applyRefund), once per refund.
    } catch (error) {
      // Left pending: the next cron run retries with the same idempotency key.
      console.error(`group buy ${groupBuyId}: refund of order ${refund.orderId} failed`, error);
    }
  }
  return sent;
}

/** The cron step: closes group buys past their end and resumes closes whose refunds are not all done. */
export async function runGroupBuyCron(env: Env, now: Date) {
  const db = getDb(env);
  const { due, unfinished } = await listGroupBuysToClose(db, now);
  const closed: string[] = [];
  const errors: string[] = [];
  for (const id of [...new Set([...due, ...unfinished])]) {
    try {
      const result = await closeGroupBuy(env, id, { mode: "end", now });
      if (result.ok) closed.push(id);
    } catch (error) {
      console.error(`cron: group buy ${id} close failed`, error);
      errors.push(id);
    }
  }
  return { closed, errors };
}
