// The prize pool's contract: the RPC shapes of the PrizePool Durable Object (workers/prize-pool.ts implements
// them; app/lib/pools.server.ts and app/lib/draw.server.ts call them) and the live message every socket receives.
// Both sides import this module, so nothing in app/ imports workers/. Live messages are public: they carry no user
// id and nothing that tells whether a guess was right (guesses earn their entries only when the pool closes).

import type { PoolCloseReason, PoolStatus } from "~/domain/pool";
import type { ContributionType } from "~/domain/revenue";

export type { PoolCloseReason, PoolStatus };
export type ContributionSourceType = ContributionType;

export interface PoolInit {
  poolId: string;
  hostId: string;
  targetCents: number;
  /** Epoch milliseconds or a Date. */
  endAt: number | Date;
  /** Defaults to USD. */
  currency?: string;
}

export interface ContributionInput {
  /** Stripe event / payment id or similar: a key seen before is ignored. */
  sourceKey: string;
  sourceType: ContributionSourceType;
  /** Negative for withdrawals. */
  amountCents: number;
  currency: string;
  userId: string | null;
  /** Purchases earn an entry number; host deposits, guess fees and ad revenue do not. */
  earnsEntry: boolean;
}

export interface ContributionResult {
  /** True when the contribution is in this pool's ledger (now, or already for a duplicate). */
  accepted: boolean;
  duplicate: boolean;
  entryNumber: number | null;
  /** The pool's total after this call (sum of the ledger). */
  amountCents: number;
  /** The pool's number of valid entries after this call. */
  entries: number;
  /**
   * True when the contribution asked for an entry and its account already held the per-person cap: the money
   * counts, no entry was made (decision 560). Absent otherwise.
   */
  capReached?: boolean;
  /** Why it was not accepted: the pool has closed (send the money to the host's next pool) or was never set up. */
  reason?: "closed" | "uninitialised";
  closeReason?: PoolCloseReason | null;
}

/** A refund or dispute event against a contribution, applied by the pool object while it is open. */
export interface ReversalInput {
  /** The refund or dispute id (+ ':restore' for a restoring event): applied once. */
  reversalKey: string;
  /** The contribution source key of the reversed payment. */
  sourceKey: string;
  /** This event's amount of the payment (negative restores). */
  reversedCents: number;
  paymentCents: number;
  /** The payment's reversed amount after this event. */
  cumulativeReversedCents: number;
  /** A payment for several orders: the share it gives back in all after this event, order by order (domain/pool.ts). */
  givenBackCents?: number;
  /** True for a reversal that never voids (or restores) the entry: a group buy's tier refund. */
  keepEntry?: boolean;
}

export interface ReversalResult {
  /**
   * applied: a ledger row was appended now; duplicate: the reversal key was seen before; closed: the pool no longer
   * takes ledger rows (book `shareCents` against the host); unknown_source: the payment is not in this pool.
   */
  outcome: "applied" | "duplicate" | "closed" | "unknown_source" | "uninitialised";
  /** The pool share of this event (positive reverses, negative restores), 0 when nothing is owed. */
  shareCents: number;
  /** The entry number held by the payment, or null. */
  entryNumber: number | null;
  /** Whether that entry is void after this event. */
  entryVoided: boolean;
  /** The pool share of this payment reversed in the pool's ledger so far (after this call). */
  poolReversedCents: number;
  /** The pool's total after this call. */
  amountCents: number;
}

/** One line of a frozen entry list. */
export interface PoolEntry {
  entryNumber: number;
  sourceKey: string;
  userId: string | null;
  /** A void entry keeps its number and its line; the draw skips it. */
  voided: boolean;
  /** The ledger row's source type (product_purchase, free_entry...): entries.txt names it (decision 530). */
  sourceType: string;
}

/**
 * The platform owner's void of an entry before the freeze (a free entry, decision 530). voided: void now;
 * already_void: it was; closed: the list is frozen (or the pool is past its end), nothing changed; unknown_source: no
 * entry under that key in this pool.
 */
export interface VoidEntryResult {
  outcome: "voided" | "already_void" | "closed" | "unknown_source" | "uninitialised";
  entryNumber: number | null;
}

/**
 * A correct, confirmed guess, appended when its pool round closes: with an entry, unless its guesser may no longer
 * enter (account closed, or self-excluded since the guess: `earnsEntry` false), when it is recorded without one.
 */
export interface SealedGuessEntry {
  /** guess:{guess id} */
  sourceKey: string;
  userId: string;
  earnsEntry: boolean;
}

export interface PoolWinner {
  entryNumber: number;
  userId: string | null;
  winnerName: string;
  prizeCents: number;
  blockHeight: number;
  blockHash: string;
}

export interface PoolState {
  poolId: string;
  hostId: string;
  status: PoolStatus;
  targetCents: number;
  amountCents: number;
  /** Valid entries (void entries excluded). */
  entries: number;
  currency: string;
  endAt: number;
  closeReason: PoolCloseReason | null;
  closedAt: number | null;
  /** When a target hit will close the pool (epoch ms), or null. */
  closeAt: number | null;
  entriesDigest: string | null;
  winner: PoolWinner | null;
}

/** The public part of a winner in a live message (no user id). */
export interface PoolLiveWinner {
  entryNumber: number;
  winnerName: string;
  prizeCents: number;
  blockHeight: number;
  blockHash: string;
}

/**
 * What every connected socket receives on connect and after each accepted contribution, reversal, close and draw.
 * Stable shape; public (no user id, nothing about guesses).
 */
export interface PoolLiveMessage {
  type: "pool";
  poolId: string;
  amountCents: number;
  entries: number;
  status: PoolStatus;
  targetCents: number;
  /** The entry number just issued (a purchase's; guesses are never announced one by one). */
  lastEntry?: { entryNumber: number };
  winner?: PoolLiveWinner;
}

/** The WebSocket path of a pool's live updates (served by workers/pools-api.ts). */
export function poolSocketPath(poolId: string): string {
  return `/api/pools/${encodeURIComponent(poolId)}/live`;
}
