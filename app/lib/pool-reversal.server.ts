// A payment's reversal against the pool it contributed to, and then against that pool's draw. The pool service
// (app/lib/pools.server.ts) moves the money and names the frozen entry the reversal voided; this caller hands that
// entry to the draw (app/lib/draw.server.ts), which may redraw the prize. Neither of the two imports the other's
// step, so they form no import cycle.

import { disqualifyWinner } from "~/lib/draw.server";
import { reversePoolShare, type PaymentReversal, type ReversalOutcome } from "~/lib/pools.server";

/**
 * Applies a refund or dispute event (or a restoring event) to the pool the payment contributed to
 * (`reversePoolShare`); once that pool has closed, the entry the reversal voids is disqualified, and if it holds the
 * drawn winning entry whose prize has not settled, the prize is redrawn from a fresh commitment when the buyer or the
 * provider started the reversal (`voidsDraw`). Idempotent per reversal key.
 */
export async function applyPaymentReversal(env: Env, reversal: PaymentReversal): Promise<ReversalOutcome> {
  const { outcome, disqualify } = await reversePoolShare(env, reversal);
  if (outcome.kind !== "host_debit" || disqualify === null) return outcome;
  const redrawn = await disqualifyWinner(
    env,
    disqualify.poolId,
    disqualify.entryNumber,
    disqualify.reversalKey,
    disqualify.voidsDraw,
  );
  return { ...outcome, redrawn };
}
