import { arePayoutsHeld } from "~/db/queries/admin.server";
import { prizeClaimCleared } from "~/db/queries/prize-claims.server";
import { getDb } from "~/db/client.server";
import { getWithdrawalFeePercent, hostBalances } from "~/db/queries/earnings.server";
import { tellPayoutOutcome } from "./payout-notices.server";
import {
  applyPayoutEvent,
  createWithdrawal,
  getDefaultPayoutMethod,
  getPayout,
  getUnverifiedConnectMethod,
  insertConnectMethod,
  retryWithdrawal,
  setPayoutDestination,
} from "~/db/queries/payouts.server";
import type { Payout } from "~/db/schema";
import { MS_PER_DAY } from "~/domain/countdown";
import { withdrawalFeeCents } from "~/domain/earnings";
import {
  ESTIMATED_ARRIVAL_DAYS,
  PAYOUT_MESSAGES,
  payoutMethodProblem,
  transferIdempotencyKey,
  withdrawalFailedText,
} from "~/domain/payouts";
import { validateWithdrawal, withdrawableBalanceCents } from "~/domain/revenue";
import { simulateLocalBankPayout } from "./connect-events.server";
import { getConnectProvider } from "./connect.server";
import { TransferRefusedError, type ConnectProvider } from "./connect-types";

// Withdrawals and prize payouts through Stripe Connect: request (pending, money taken atomically), transfer
// (processing -> completed, or failed with the money returned), cancel, retry. Connect events (reversals, bank
// payouts, account updates) are applied by connect-events.server.ts.

export type WithdrawResult = { ok: true; payout: Payout } | { ok: false; status: 400 | 409 | 502; message: string };

/** Connect account onboarding: creates the Express account once, then returns the onboarding address. */
export async function startPayoutOnboarding(
  env: Env,
  origin: string,
  user: { id: string; email: string; creatorName: string },
  returnPath: string,
  provider: ConnectProvider = getConnectProvider(env, origin),
): Promise<string> {
  const db = getDb(env);
  let method = await getUnverifiedConnectMethod(db, user.id);
  if (!method) {
    const { accountId } = await provider.createExpressAccount({ userId: user.id, email: user.email, country: null });
    await insertConnectMethod(db, { userId: user.id, accountId, holderName: user.creatorName });
    method = await getUnverifiedConnectMethod(db, user.id);
  }
  const accountId = method!.connectedAccountId!;
  const { url } = await provider.createOnboardingLink(accountId, `${origin}${returnPath}`, `${origin}${returnPath}`);
  return url;
}

/**
 * A host's withdrawal of `amountInput` (decimal text): the amount's checks (docs/product.md#payouts), a default
 * verified method, then one atomic step that creates the pending request and takes the amount and fee only if the
 * available balance covers them, then the transfer. Money never leaves beyond the withdrawable balance, even for
 * concurrent requests.
 */
export async function requestWithdrawal(
  env: Env,
  origin: string,
  hostId: string,
  amountInput: unknown,
  now = new Date(),
  provider?: ConnectProvider,
): Promise<WithdrawResult> {
  const db = getDb(env);
  const [balances, feePercent, method] = await Promise.all([
    hostBalances(db, hostId, now),
    getWithdrawalFeePercent(db),
    getDefaultPayoutMethod(db, hostId),
  ]);
  const withdrawable = withdrawableBalanceCents(balances.availableCents, feePercent);
  const checked = validateWithdrawal(amountInput, withdrawable);
  if (!checked.ok) {
    const message = balances.availableCents < 0 ? PAYOUT_MESSAGES.negativeBalance : checked.message;
    return { ok: false, status: 400, message };
  }
  if (payoutMethodProblem(method) || !method?.connectedAccountId)
    return { ok: false, status: 400, message: PAYOUT_MESSAGES.hostNoMethod };
  const feeCents = withdrawalFeeCents(checked.amountCents, balances.availableCents, feePercent);
  const id = crypto.randomUUID();
  const created = await createWithdrawal(db, {
    id,
    hostId,
    amountCents: checked.amountCents,
    feeCents,
    currency: balances.currency,
    methodId: method.id,
    accountId: method.connectedAccountId,
    now,
  });
  // Another request (or a refund) took the money between the check and the step: nothing was written.
  if (!created) return { ok: false, status: 409, message: PAYOUT_MESSAGES.balanceChanged };
  const payout = await processPayout(env, origin, id, now, provider);
  return { ok: true, payout: payout ?? (await getPayout(db, id))! };
}

/**
 * Moves a pending payout on: processing, then the transfer to its connected account (idempotency key = the request
 * id, per attempt); completed with the transfer id, or failed (its money returned) when the provider refuses.
 * A transfer call that errors for another reason leaves it processing: the same key is tried again later.
 */
export async function processPayout(
  env: Env,
  origin: string,
  payoutId: string,
  now = new Date(),
  provider?: ConnectProvider,
): Promise<Payout | null> {
  const db = getDb(env);
  const payout = await getPayout(db, payoutId);
  if (!payout) return null;
  // A suspended account's payouts are held by the platform owner: they wait, pending, until it is re-activated.
  if (payout.status === "pending" && (await arePayoutsHeld(db, payout.userId))) return payout;
  // A prize waits, pending, for its claim: confirmed by the winner and their ID check recorded (decision 540).
  if (payout.status === "pending" && payout.payoutType === "prize_winner" && !(await prizeClaimCleared(db, payout.id)))
    return payout;
  let current: Payout | null = payout;
  if (payout.status === "pending") current = await applyPayoutEvent(db, payout, "start", now);
  if (!current || current.status !== "processing") return (await getPayout(db, payoutId)) ?? null;
  if (!current.connectedAccountId) {
    const failed = await applyPayoutEvent(db, current, "transfer_failed", now, {
      failureReason: PAYOUT_MESSAGES.noMethod,
    });
    await tellPayoutOutcome(env, failed);
    return failed;
  }
  const connect = provider ?? getConnectProvider(env, origin);
  try {
    const transfer = await connect.createTransfer({
      amountCents: current.amountCents,
      currency: current.currency,
      destination: current.connectedAccountId,
      idempotencyKey: transferIdempotencyKey(current.id, current.attempt),
      metadata: { payout_id: current.id, payout_type: current.payoutType, attempt: String(current.attempt) },
    });
    const done = await applyPayoutEvent(db, current, "transfer_created", now, {
      transferId: transfer.id,
      estimatedArrivalAt: new Date(now.getTime() + ESTIMATED_ARRIVAL_DAYS * MS_PER_DAY),
    });
    await tellPayoutOutcome(env, done);
    if (done && connect.name === "local") {
      try {
        await simulateLocalBankPayout(env, origin, done);
      } catch (error) {
        console.error("payout: the local bank payout event could not be delivered", { payoutId, error });
      }
    }
    return (await getPayout(db, payoutId)) ?? null;
  } catch (error) {
    if (error instanceof TransferRefusedError) {
      const failed = await applyPayoutEvent(db, current, "transfer_failed", now, { failureReason: error.message });
      await tellPayoutOutcome(env, failed);
      return failed;
    }
    console.error("payout: transfer call failed; left processing for a retry with the same key", { payoutId, error });
    return (await getPayout(db, payoutId)) ?? null;
  }
}

/** Cancels one of the user's pending payouts (its amount and fee return). */
export async function cancelPayout(
  env: Env,
  userId: string,
  payoutId: string,
  now = new Date(),
): Promise<{ ok: true } | { ok: false; status: 404 | 409; message: string }> {
  const db = getDb(env);
  const payout = await getPayout(db, payoutId);
  if (!payout || payout.userId !== userId) return { ok: false, status: 404, message: "Payout request not found" };
  if (payout.payoutType !== "host_earnings") return { ok: false, status: 409, message: PAYOUT_MESSAGES.notCancellable };
  const done = await applyPayoutEvent(db, payout, "cancel", now);
  return done ? { ok: true } : { ok: false, status: 409, message: PAYOUT_MESSAGES.notCancellable };
}

/** Retries one of the user's failed payouts: back to pending (money taken again), then a new transfer. */
export async function retryPayout(
  env: Env,
  origin: string,
  userId: string,
  payoutId: string,
  now = new Date(),
  provider?: ConnectProvider,
): Promise<WithdrawResult> {
  const db = getDb(env);
  const payout = await getPayout(db, payoutId);
  if (!payout || payout.userId !== userId || payout.status !== "failed") {
    return { ok: false, status: 409, message: PAYOUT_MESSAGES.notRetryable };
  }
  const method = await getDefaultPayoutMethod(db, userId);
  const problem = payoutMethodProblem(method);
  if (problem || !method?.connectedAccountId)
    return {
      ok: false,
      status: 400,
      message: payout.payoutType === "host_earnings" ? PAYOUT_MESSAGES.hostNoMethod : problem!,
    };
  if (method.connectedAccountId !== payout.connectedAccountId) {
    // Paid to the current default account from now on.
    await setPayoutDestination(db, payout.id, method.id, method.connectedAccountId);
  }
  const retried = await retryWithdrawal(db, payout, now);
  if (!retried) return { ok: false, status: 409, message: withdrawalFailedText(PAYOUT_MESSAGES.balanceChanged) };
  const after = await processPayout(env, origin, payout.id, now, provider);
  return { ok: true, payout: after ?? (await getPayout(db, payout.id))! };
}
