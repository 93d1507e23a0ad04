import { getDb } from "~/db/client.server";
import { bookEarning, bookGroupBuySales, getLedgerRowByKey, refundedGrossCents, saleSourceKey } from "~/db/queries/earnings.server";
import { getParticipantByPaymentKey } from "~/db/queries/guesses.server";
import { getGroupBuyForClose, orderAwaitsGroupBuyEnd } from "~/db/queries/group-buys.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { getPaymentForRefund, listGroupBuyOrderReversals } from "~/db/queries/refunds.server";
import { refundShares, type EventShares } from "~/domain/earnings";
import type { RefundOrigin } from "~/domain/payments";
import type { ReversalOutcome } from "~/lib/pools.server";

// A refund or lost dispute in the host's earnings ledger (docs/decisions/070 and 080): one row per refund or dispute
// id, keyed `refund:<id>` / `dispute:<id>`, taking back the parts of the sale in the proportions it was booked with.
// While the payment's pool is open the pool gives back its part; once it has closed (the reversal became a host
// debit) the host carries the pool's part too, which can drive the balance below zero. A restore (failed refund, won
// dispute) books the exact opposite row under '<key>:restore'. A group buy's sales are booked when it ends, so a refund
// of one of its orders before then waits for the end and is booked right after the sales (decision 340).

export type RefundEarningsInput = {
  kind: "refund" | "dispute";
  id: string;
  checkoutSessionId: string;
  orderId: string | null;
  amountCents: number;
  currency: string;
  origin: RefundOrigin;
  reversal: RefundReversal;
  restore: boolean;
};

/** What a pool reversal did, as the ledger needs it: its pool, and what the pool's close left the host to carry. */
export type RefundReversal = { poolId: string | null; hostDebit: { hostId: string; debitCents: number } | null };

export function refundReversalOf(outcome: ReversalOutcome): RefundReversal {
  if (outcome.kind === "no_contribution") return { poolId: null, hostDebit: null };
  if (outcome.kind === "pool") return { poolId: outcome.poolId, hostDebit: null };
  return { poolId: outcome.poolId, hostDebit: { hostId: outcome.hostId, debitCents: outcome.debitCents } };
}

/** The ledger key of a refund's or dispute's row. */
export function refundLedgerKey(kind: "refund" | "dispute", id: string): string {
  return `${kind}:${id}`;
}

export async function bookRefundEarnings(env: Env, input: RefundEarningsInput): Promise<void> {
  // A group buy's tier refund is booked with the group buy's sales when it is finalised (bookGroupBuySales).
  if (input.origin === "group_buy") return;
  const db = getDb(env);
  const key = refundLedgerKey(input.kind, input.id);
  if (input.restore) {
    const booked = await getLedgerRowByKey(db, key);
    if (!booked) return;
    await bookEarning(db, {
      hostId: booked.hostId,
      kind: "refund",
      sourceKey: `${key}:restore`,
      amountCents: -booked.amountCents,
      grossCents: -booked.grossCents,
      poolCents: -booked.poolCents,
      platformCents: -booked.platformCents,
      currency: booked.currency,
      rates: booked.rates,
      description: input.kind === "refund" ? `Refund failed: ${booked.description}` : `Dispute won: ${booked.description}`,
      orderId: booked.orderId,
      poolId: booked.poolId,
      referenceId: booked.referenceId,
      availableAt: new Date(),
    });
    return;
  }

  let saleKey: string | null = null;
  let referenceId: string | null = null;
  if (input.orderId) saleKey = saleSourceKey(input.orderId);
  else {
    const payment = await getPaymentForRefund(db, input.checkoutSessionId);
    if (payment?.purpose === "guess_entry") {
      const participant = await getParticipantByPaymentKey(db, payment.id);
      if (participant) {
        saleKey = `guess:${participant.id}`;
        referenceId = participant.id;
      }
    }
  }
  const sale = saleKey ? await getLedgerRowByKey(db, saleKey) : undefined;
  const { hostDebit, poolId } = input.reversal;
  const poolClosed = hostDebit !== null;
  const what = input.kind === "refund" ? "Refund" : "Dispute";
  if (!sale) {
    // A group buy's order before the group buy ends: booked with its sale then (bookGroupBuyEarnings).
    if (input.orderId && (await orderAwaitsGroupBuyEnd(db, input.orderId))) return;
    // No booked sale (a host deposit, or a sale from before the ledger): only a host debit moves the host's money.
    if (!hostDebit || hostDebit.debitCents <= 0) return;
    await bookEarning(db, {
      hostId: hostDebit.hostId,
      kind: "refund",
      sourceKey: key,
      amountCents: -hostDebit.debitCents,
      grossCents: 0,
      currency: input.currency,
      description: `${what} after the prize pool closed`,
      orderId: input.orderId,
      poolId,
      referenceId,
      availableAt: new Date(),
    });
    return;
  }
  const shares: EventShares = { grossCents: sale.grossCents, hostCents: sale.amountCents, poolCents: sale.poolCents, platformCents: sale.platformCents };
  const already = Math.min(sale.grossCents, await refundedGrossCents(db, { orderId: sale.orderId, referenceId: sale.referenceId }));
  const refundCents = Math.min(input.amountCents, sale.grossCents - already);
  if (refundCents <= 0) return;
  const parts = refundShares(refundCents, shares, already, poolClosed);
  await bookEarning(db, {
    hostId: sale.hostId,
    kind: "refund",
    sourceKey: key,
    amountCents: parts.hostCents,
    grossCents: parts.grossCents,
    poolCents: parts.poolCents,
    platformCents: parts.platformCents,
    currency: sale.currency,
    rates: sale.rates,
    description: `${what}: ${sale.description}`,
    orderId: sale.orderId,
    poolId,
    referenceId: sale.referenceId,
    availableAt: new Date(),
  });
}

/**
 * A finalised group buy in the host's earnings: each order's sale and tier refund (a completed one; a cancelled one
 * sold nothing), then each refund and dispute applied to its orders before then, other than its own tier and
 * cancellation refunds, booked as it would have been had the sale been booked already (decision 340). Every row is
 * booked once by its key, so this runs again whenever a refund of its orders is applied: one applied while the end
 * was being booked is booked then. Nothing happens before the group buy is finalised.
 */
export async function bookGroupBuyEarnings(env: Env, groupBuyId: string): Promise<void> {
  const db = getDb(env);
  const groupBuy = await getGroupBuyForClose(db, groupBuyId);
  if (!groupBuy?.finalisedAt) return;
  if (groupBuy.status === "completed") {
    const rules = await getRevenueRules(db);
    await bookGroupBuySales(db, groupBuyId, rules.group_buy_sales);
  }
  for (const reversal of await listGroupBuyOrderReversals(db, groupBuyId)) {
    await bookRefundEarnings(env, {
      kind: reversal.kind,
      id: reversal.key,
      checkoutSessionId: reversal.checkoutSessionId,
      orderId: reversal.orderId,
      amountCents: reversal.amountCents,
      currency: reversal.currency,
      origin: reversal.origin,
      reversal: {
        poolId: reversal.poolId,
        hostDebit: reversal.hostDebit ? { hostId: reversal.hostDebit.hostId, debitCents: reversal.hostDebit.amountCents } : null,
      },
      restore: false,
    });
  }
}
