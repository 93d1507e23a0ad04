import type { Db } from "~/db/client.server";
import { findRecordedSource } from "~/db/queries/pools.server";
import { poolShareCents, recordedGroupBuyRule } from "~/domain/group-buy";
import { reversedPartsCents } from "~/domain/payments";
import { poolContributionCents, type RevenueRules } from "~/domain/revenue";
import { addContribution } from "~/lib/pools.server";

// The pipeline's pool-ledger step: money in (a contribution keyed by the payment) and, for refunds and lost
// disputes, money back (see refunds.server.ts). The pool module decides everything inside the pool.

type ContributionInput = Parameters<typeof addContribution>[1];

/** addContribution, with the ledger's own record as the answer when a repeat does not report the entry. */
export async function contribute(
  env: Env,
  db: Db,
  input: ContributionInput,
): Promise<{ poolId: string; entryNumber: number | null }> {
  const result = await addContribution(env, input);
  if (!result.duplicate || result.entryNumber !== null || !input.earnsEntry) return result;
  return (await findRecordedSource(db, input.sourceKey)) ?? result;
}

/** One order of a payment for several orders, as its share of the payment's one contribution is counted. */
type ContributingOrder = { amountCents: number; metadata?: Record<string, unknown> | null };

/** The pool percent recorded on an order at payment, else the rule's. */
function recordedPoolPercent(order: ContributingOrder, fallback: number): number {
  const recorded = order.metadata?.pool_percent;
  return typeof recorded === "number" ? recorded : fallback;
}

/**
 * The pool share of one order of a group-buy join or a cart, rounded per order: a group-buy order's at its recorded
 * percent (`poolShareCents`), a cart order's shop-sales share at the checkout's rates with its recorded percent.
 * (and platform fee, the split its sale row is booked with). A join's contribution, and a cart host's, is the sum of its orders' shares; their refunds give back each order's
 * share by the one rule (`orderSharesGivenBackCents`), as the earnings ledger books them.
 */
export function orderPoolShareCents(
  purpose: "group_buy" | "cart",
  order: ContributingOrder,
  rates: RevenueRules,
): number {
  if (purpose === "group_buy") {
    const rule = recordedGroupBuyRule(order.metadata, rates.group_buy_sales);
    return poolShareCents(order.amountCents, rule.prizePoolPercent, rule.platformFeePercent);
  }
  const shopSales = {
    ...rates.shop_sales,
    prizePoolPercent: recordedPoolPercent(order, rates.shop_sales.prizePoolPercent),
  };
  return poolContributionCents("shop_sales", order.amountCents, { ...rates, shop_sales: shopSales });
}

/**
 * What a join's or a cart host's contribution has given back once its orders are refunded as they are now: each
 * order's share at its own refunded level (decision 380), summed.
 */
export function orderSharesGivenBackCents(
  purpose: "group_buy" | "cart",
  orders: readonly (ContributingOrder & { refundedCents: number })[],
  rates: RevenueRules,
): number {
  return reversedPartsCents(
    orders.map((o) => ({
      partCents: orderPoolShareCents(purpose, o, rates),
      paymentCents: o.amountCents,
      reversedCents: o.refundedCents,
    })),
  );
}
