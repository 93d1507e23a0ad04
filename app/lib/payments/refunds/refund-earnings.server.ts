import { getDb } from "~/db/client.server";
import {
  bookEarning,
  bookGroupBuySales,
  bookRefundEarningAtLevel,
  getLedgerRowByKey,
  refundedGrossCents,
  saleSourceKey,
} from "~/db/queries/earnings.server";
import { getGuessByPaymentKey } from "~/db/queries/guesses.server";
import { getGroupBuyForClose, orderAwaitsGroupBuyEnd } from "~/db/queries/group-buys.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import {
  getPaymentForRefund,
  listGroupBuyOrderReversals,
  listGroupBuyRestoredEndRefunds,
  orderRefundedCents,
} from "~/db/queries/refunds.server";
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

/**
 * What a pool reversal did, as the ledger needs it: its pool, what the pool's close left the host to carry, and
 * whether a restored share went to the host's open pool (decision 151) rather than back to the host.
 */
export type RefundReversal = {
  poolId: string | null;
  hostDebit: { hostId: string; debitCents: number } | null;
  carriedToPool?: boolean;
};

export function refundReversalOf(outcome: ReversalOutcome): RefundReversal {
  if (outcome.kind === "no_contribution") return { poolId: null, hostDebit: null };
  if (outcome.kind === "pool") return { poolId: outcome.poolId, hostDebit: null };
  return {
    poolId: outcome.poolId,
    hostDebit: { hostId: outcome.hostId, debitCents: outcome.debitCents },
    carriedToPool: outcome.carriedToPoolId !== null,
  };
}

/** The ledger key of a refund's or dispute's row. */
export function refundLedgerKey(kind: "refund" | "dispute", id: string): string {
  return `${kind}:${id}`;
}

/**
 * Books a refund's or dispute's transition (it starts counting, or with `restore` it stops) in the host's earnings.
 * The ledger follows the level of what is given back (decision 380): the sale's refunded gross becomes what counts on
 * its order now (every counted refund and dispute, at most the sale), and this transition books the difference from
 * what the ledger holds, under its own key. So a restore gives back only what other refunds or disputes no longer
 * cover (a failed refund under a lost dispute gives back nothing), and a refund or dispute capped by others is booked
 * in full once they stop counting, by the restore that uncovers it. The parts follow the sale's proportions
 * (`refundShares`); while the payment's pool is open the pool gives back its part, once it has closed the host carries
 * it (a restore after the close: the host gets it back, unless the pool share went to the host's open pool).
 */
export async function bookRefundEarnings(env: Env, input: RefundEarningsInput): Promise<void> {
  // A group buy's tier refund is booked with the group buy's sales when it is finalised (bookGroupBuySales). Its
  // restore (the refund failed) follows the level like every other: it gives back what it booked, pool part alike.
  if (input.origin === "group_buy" && !input.restore) return;
  const db = getDb(env);
  const key = refundLedgerKey(input.kind, input.id);
  const sourceKey = input.restore ? `${key}:restore` : key;
  if (await getLedgerRowByKey(db, sourceKey)) return;

  let saleKey: string | null = null;
  let referenceId: string | null = null;
  if (input.orderId) saleKey = saleSourceKey(input.orderId);
  else {
    const payment = await getPaymentForRefund(db, input.checkoutSessionId);
    if (payment?.purpose === "guess_entry") {
      const participant = await getGuessByPaymentKey(db, payment.id);
      if (participant) {
        saleKey = `guess:${participant.id}`;
        referenceId = participant.id;
      }
    }
  }
  const sale = saleKey ? await getLedgerRowByKey(db, saleKey) : undefined;
  const { hostDebit, poolId } = input.reversal;
  const what = input.kind === "refund" ? "Refund" : "Dispute";
  if (!sale) {
    // A group buy's order before the group buy ends: booked with its sale then (bookGroupBuyEarnings).
    if (input.orderId && (await orderAwaitsGroupBuyEnd(db, input.orderId))) return;
    // No booked sale (a host deposit, or a sale from before the ledger): only a host debit moves the host's money.
    if (input.restore) {
      const booked = await getLedgerRowByKey(db, key);
      if (!booked) return;
      await bookEarning(db, {
        ...restoreOf(booked),
        sourceKey,
        description: `${what} reversed: ${booked.description}`,
      });
      return;
    }
    if (!hostDebit || hostDebit.debitCents <= 0) return;
    await bookEarning(db, {
      hostId: hostDebit.hostId,
      kind: "refund",
      sourceKey: key,
      amountCents: -hostDebit.debitCents,
      // What went back to the buyer, all of it the host's to cover (gross = host + pool + platform, always).
      grossCents: -hostDebit.debitCents,
      currency: input.currency,
      description: `${what} after the prize pool closed`,
      orderId: input.orderId,
      poolId,
      referenceId,
      availableAt: new Date(),
    });
    return;
  }
  const shares: EventShares = {
    grossCents: sale.grossCents,
    hostCents: sale.amountCents,
    poolCents: sale.poolCents,
    platformCents: sale.platformCents,
  };
  // A restore after the pool closed gives the host back the pool's part, unless that part went to its open pool.
  const poolClosed = hostDebit !== null && !(input.restore && input.reversal.carriedToPool);
  // Computed from the ledger's level and booked only while the level is still that (another refund or dispute of
  // the order booked meanwhile: computed again).
  for (let attempt = 0; attempt < 5; attempt++) {
    // What the ledger gives back of the sale now, and what counts on its order (or, for a guess's fee, its payment).
    const level = await refundedGrossCents(db, { orderId: sale.orderId, referenceId: sale.referenceId });
    const booked = Math.min(sale.grossCents, level);
    const counted = sale.orderId
      ? await orderRefundedCents(db, sale.orderId)
      : ((await getPaymentForRefund(db, input.checkoutSessionId))?.refundedCents ?? 0);
    const target = Math.min(sale.grossCents, Math.max(0, counted));
    // The slice between the ledger's level and the order's: taken back (refundShares' parts are negative), or given
    // back by a restore (the same parts of the slice, positive).
    let slice: { parts: EventShares; description: string };
    if (!input.restore && target > booked) {
      slice = {
        parts: refundShares(target - booked, shares, booked, poolClosed),
        description: `${what}: ${sale.description}`,
      };
    } else if (input.restore && target < booked) {
      const parts = refundShares(booked - target, shares, target, poolClosed);
      slice = {
        parts: {
          grossCents: -parts.grossCents,
          hostCents: -parts.hostCents,
          poolCents: -parts.poolCents,
          platformCents: -parts.platformCents,
        },
        description:
          input.kind === "refund" ? `Refund failed: ${sale.description}` : `Dispute won: ${sale.description}`,
      };
    } else return;
    const outcome = await bookRefundEarningAtLevel(
      db,
      {
        hostId: sale.hostId,
        kind: "refund",
        sourceKey,
        amountCents: slice.parts.hostCents,
        grossCents: slice.parts.grossCents,
        poolCents: slice.parts.poolCents,
        platformCents: slice.parts.platformCents,
        currency: sale.currency,
        rates: sale.rates,
        description: slice.description,
        orderId: sale.orderId,
        poolId,
        referenceId: sale.referenceId,
        availableAt: new Date(),
      },
      { orderId: sale.orderId, referenceId: sale.referenceId },
      level,
    );
    if (outcome !== "moved") return;
  }
  console.error("refunds: the earnings ledger of an order kept moving; the next event of the order books it", {
    key: sourceKey,
  });
}

/** The exact opposite of a booked row (a restore of a row booked without a sale). */
function restoreOf(booked: NonNullable<Awaited<ReturnType<typeof getLedgerRowByKey>>>) {
  return {
    hostId: booked.hostId,
    kind: "refund" as const,
    amountCents: -booked.amountCents,
    grossCents: -booked.grossCents,
    poolCents: -booked.poolCents,
    platformCents: -booked.platformCents,
    currency: booked.currency,
    rates: booked.rates,
    orderId: booked.orderId,
    poolId: booked.poolId,
    referenceId: booked.referenceId,
    availableAt: new Date(),
  };
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
  // Then its own end refunds that failed (or were canceled) by now: booked above from the group buy's record, they
  // are restored here too, in case the failure was applied before they were booked (each restore once, by its key).
  const restored = (await listGroupBuyRestoredEndRefunds(db, groupBuyId)).map((r) => ({ ...r, restore: true }));
  for (const reversal of [
    ...(await listGroupBuyOrderReversals(db, groupBuyId)).map((r) => ({ ...r, restore: false })),
    ...restored,
  ]) {
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
        hostDebit: reversal.hostDebit
          ? { hostId: reversal.hostDebit.hostId, debitCents: reversal.hostDebit.amountCents }
          : null,
      },
      restore: reversal.restore,
    });
  }
}
