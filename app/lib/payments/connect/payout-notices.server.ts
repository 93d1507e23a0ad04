// A payout's result told to its account once per attempt (docs/product.md#notifications): a host's withdrawal or a
// prize sent, or failed (its money returned to the balance, to retry from Payouts); and, once per bank payout, a
// sent payout the bank did not accept.
import type { Payout } from "~/db/schema";
import { formatCents } from "~/domain/money";
import { siteOrigin } from "~/lib/config.server";
import { notify } from "~/lib/notify.server";

/** Tells the payout's account when it has just completed or failed; anything else tells nothing. */
export async function tellPayoutOutcome(env: Env, payout: Payout | null | undefined): Promise<void> {
  if (!payout || (payout.status !== "completed" && payout.status !== "failed")) return;
  const amount = formatCents(payout.amountCents, payout.currency);
  const what = payout.payoutType === "prize_winner" ? "prize" : "withdrawal";
  const sent = payout.status === "completed";
  await notify(env, payout.userId, "payout_result", {
    key: `payout-${sent ? "sent" : "failed"}:${payout.id}:${payout.attempt}`,
    subject: sent ? `Your ${what} of ${amount} is on its way` : `Your ${what} of ${amount} did not go through`,
    text: sent
      ? `We sent your ${what} of ${amount} to your payout account. Banks usually take a few business days.\n\n${siteOrigin(env)}/payouts`
      : `Your ${what} of ${amount} did not go through${payout.failureReason ? `: ${payout.failureReason}` : ""}. ` +
        `The money is back in your balance; check your payout method and try again from Payouts.\n\n${siteOrigin(env)}/payouts`,
    url: "/payouts",
  });
}

/**
 * Tells the payout's account, once per bank payout, that its bank did not accept a payout already sent to its payout
 * account (Stripe's `payout.failed`): the money stays in that account until its bank details are fixed.
 */
export async function tellBankPayoutFailed(env: Env, payout: Payout): Promise<void> {
  if (payout.bankPayoutStatus !== "failed" || !payout.bankPayoutId) return;
  const amount = formatCents(payout.amountCents, payout.currency);
  const what = payout.payoutType === "prize_winner" ? "prize" : "withdrawal";
  await notify(env, payout.userId, "payout_result", {
    key: `bank-payout-failed:${payout.bankPayoutId}`,
    subject: `Your bank did not accept your ${what} of ${amount}`,
    text:
      `Your ${what} of ${amount} reached your payout account, but your bank did not accept its payout. The money ` +
      `stays in your payout account; check its bank details and it is paid out again.\n\n${siteOrigin(env)}/payouts`,
    url: "/payouts",
  });
}
