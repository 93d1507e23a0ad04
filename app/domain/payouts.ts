// Payouts: the state machine of a payout request (a host's withdrawal or a winner's prize), payout methods and the
// product's messages (docs/product.md#payouts). Pure: no I/O.
//
//   pending ──start──► processing ──transfer_created──► completed ──transfer_reversed──► failed
//      │                   └────────transfer_failed──────────────────────────────────────► failed
//      └──cancel──► cancelled                                      failed ──retry──► pending
//
// A withdrawal takes its amount and fee from the balance when it is requested (pending); cancelling it, or its
// transfer failing or being reversed, returns both. A retry takes them again and creates a new transfer.

export const PAYOUT_STATUS_VALUES = ["pending", "processing", "completed", "failed", "cancelled"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUS_VALUES)[number];
export const PAYOUT_TYPE_VALUES = ["prize_winner", "host_earnings"] as const;
export type PayoutType = (typeof PAYOUT_TYPE_VALUES)[number];
/** A payout method is a bank account (through a connected account). */
export const PAYOUT_METHOD_TYPES = ["bank_account"] as const;

export const PAYOUT_EVENTS = [
  "start",
  "transfer_created",
  "transfer_failed",
  "transfer_reversed",
  "cancel",
  "retry",
  "settle_manually",
] as const;
export type PayoutEvent = (typeof PAYOUT_EVENTS)[number];

const TRANSITIONS: Readonly<Record<PayoutEvent, { from: readonly PayoutStatus[]; to: PayoutStatus }>> = {
  start: { from: ["pending"], to: "processing" },
  transfer_created: { from: ["processing"], to: "completed" },
  transfer_failed: { from: ["processing"], to: "failed" },
  transfer_reversed: { from: ["processing", "completed"], to: "failed" },
  cancel: { from: ["pending"], to: "cancelled" },
  retry: { from: ["failed"], to: "pending" },
  /** A prize Stripe cannot pay (the winner's country): the admin pays it another way and records how. */
  settle_manually: { from: ["pending", "failed"], to: "completed" },
};

/** The statuses an event may move a payout from (the WHERE of the conditional update). */
export function payoutEventFrom(event: PayoutEvent): readonly PayoutStatus[] {
  return TRANSITIONS[event].from;
}

/** The status an event moves a payout to (from one of `payoutEventFrom`'s; the SET of the conditional update). */
export function payoutEventTo(event: PayoutEvent): PayoutStatus {
  return TRANSITIONS[event].to;
}

/** Whether this event gives the withdrawn amount and fee back to the balance. */
export function eventReturnsMoney(event: PayoutEvent): boolean {
  return event === "cancel" || event === "transfer_failed" || event === "transfer_reversed";
}

export const PAYOUT_STATUS_LABELS: Readonly<Record<PayoutStatus, string>> = {
  pending: "Pending",
  processing: "Processing",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** The bank payout from the connected account (Stripe's schedule): shown for information. */
export const BANK_PAYOUT_STATUSES = ["paid", "failed"] as const;
export type BankPayoutStatus = (typeof BANK_PAYOUT_STATUSES)[number];

export const PRIZE_MESSAGES = {
  addMethod: "Add a payout method to receive your prize.",
  confirmEmail: "Confirm your email address to receive your prize.",
  settling: "Your prize is paid once the draw's settlement period ends.",
  manualNote: "Please describe how the prize was paid (at least 5 characters).",
  notSettleable: "Only an unpaid prize can be settled by hand.",
} as const;

/** The winner's mail when a pool is drawn. */
export function winnerMail(
  winnerName: string,
  prize: string,
  payableOn: string,
  claim: { url: string; by: string },
): { subject: string; text: string } {
  return {
    subject: `You won ${prize} in a Tribe prize pool!`,
    text: `Congratulations ${winnerName}!\n\nYour entry won the main prize of ${prize}. Claim it by ${claim.by} (within 30 days of this notice): ${claim.url}\nAn admin then checks your age and identity. It is paid to your payout account after the draw's settlement period, from ${payableOn}.\nIf you have no payout method yet, add one under Payouts on Tribe. A prize not claimed in time is drawn again.\n`,
  };
}

/** Payout history page size (docs/product.md#payouts). */
export const PAYOUT_HISTORY_PAGE_SIZE = 50;
/** Withdrawals take 1-3 business days; the estimated arrival shown when the provider gives none. */
export const DEFAULT_ESTIMATED_ARRIVAL_TEXT = "1-3 business days";
export const ESTIMATED_ARRIVAL_DAYS = 2;

/** The idempotency key of a payout attempt's transfer: the request id, then `-retry-N` for the Nth retry. */
export function transferIdempotencyKey(payoutId: string, attempt: number): string {
  return attempt === 0 ? payoutId : `${payoutId}-retry-${attempt}`;
}

/** The payout messages the product shows (docs/product.md#payouts) and our own for the Connect flow. */
export const PAYOUT_MESSAGES = {
  noMethod: "No payout method configured for winner",
  notVerified: "Payout method not verified",
  insufficient: "Insufficient funds in platform account",
  invalidBank: "Invalid bank account details",
  verificationRequired: "Bank account verification required",
  unavailable: "Payout temporarily unavailable",
  initiateFailed: "Failed to initiate payout",
  notRetryable: "Payout request not found or not in failed state",
  unknownType: "Unknown payout type",
  /** The host's own withdrawal without a default, verified method. */
  hostNoMethod: "Please add a verified payout method before withdrawing.",
  notCancellable: "Only a pending payout can be cancelled.",
  balanceChanged: "Withdrawal amount cannot exceed your withdrawable balance",
  negativeBalance: "Your balance is negative: withdrawals resume once new earnings cover it.",
} as const;

/** 'Withdrawal failed: {error}' (the failure text). */
export function withdrawalFailedText(error: string): string {
  return `Withdrawal failed: ${error}`;
}

/** A payout method is usable once it is verified (payouts enabled on the connected account) and the default. */
export function payoutMethodProblem(
  method: { verified: boolean; isDefault: boolean } | null | undefined,
): string | null {
  if (!method) return PAYOUT_MESSAGES.noMethod;
  if (!method.verified) return PAYOUT_MESSAGES.notVerified;
  if (!method.isDefault) return PAYOUT_MESSAGES.noMethod;
  return null;
}

/** An account number shown masked: '•••• 6789'. */
export function maskedAccount(last4: string): string {
  return last4 ? `•••• ${last4}` : "••••";
}
