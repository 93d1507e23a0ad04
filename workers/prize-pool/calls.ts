// What the pool object's calls take and give: the checks of each call's input (the RPC callers are the app's pool
// service and draw, but an object trusts no caller's shapes), the state a call returns, and the live message every
// socket receives. Pure functions; the calls themselves are the methods of PrizePool (workers/prize-pool.ts).

import { CONTRIBUTION_TYPES } from "~/domain/revenue";
import type {
  ContributionInput,
  PoolCloseReason,
  PoolInit,
  PoolLiveMessage,
  PoolState,
  PoolStatus,
  PoolWinner,
  ReversalInput,
} from "~/lib/pool-contract";
import type { StateRow } from "./storage";

const SOURCE_TYPES: readonly string[] = CONTRIBUTION_TYPES;

export function assertContribution(input: ContributionInput): void {
  if (typeof input.sourceKey !== "string" || input.sourceKey.length === 0 || input.sourceKey.length > 500) {
    throw new TypeError("A contribution needs a source key of 1 to 500 characters");
  }
  if (/[\r\n]/.test(input.sourceKey)) throw new TypeError("A source key cannot contain a line break");
  if (!SOURCE_TYPES.includes(input.sourceType)) throw new TypeError(`Unknown source type: ${input.sourceType}`);
  if (!Number.isSafeInteger(input.amountCents)) throw new TypeError("amountCents must be a whole number of cents");
  if (input.userId !== null && typeof input.userId !== "string") throw new TypeError("userId must be a string or null");
  if (typeof input.earnsEntry !== "boolean") throw new TypeError("earnsEntry must be a boolean");
}

/** The first init of a pool: its id, host and target. */
export function assertInit(params: PoolInit): void {
  if (typeof params.poolId !== "string" || params.poolId === "") throw new TypeError("poolId is required");
  if (typeof params.hostId !== "string" || params.hostId === "") throw new TypeError("hostId is required");
  if (!Number.isSafeInteger(params.targetCents) || params.targetCents < 0) {
    throw new TypeError("targetCents must be a whole number of cents");
  }
}

export function assertReversal(input: ReversalInput): void {
  if (typeof input.reversalKey !== "string" || input.reversalKey === "" || input.reversalKey.length > 500) {
    throw new TypeError("A reversal needs a key of 1 to 500 characters");
  }
  for (const value of [
    input.reversedCents,
    input.paymentCents,
    input.cumulativeReversedCents,
    input.givenBackCents ?? 0,
  ]) {
    if (!Number.isSafeInteger(value)) throw new TypeError("Reversal amounts must be whole numbers of cents");
  }
}

export function assertCloseReason(reason: PoolCloseReason): void {
  if (reason !== "target_reached" && reason !== "timer_expired" && reason !== "closed_early") {
    throw new TypeError(`Unknown close reason: ${reason}`);
  }
}

/** An end time given as epoch milliseconds or a Date, in milliseconds. */
export function toMs(value: number | Date): number {
  const ms = value instanceof Date ? value.getTime() : value;
  if (!Number.isFinite(ms)) throw new TypeError("endAt must be a time");
  return ms;
}

/** The pool's state as a call returns it. */
export function poolState(pool: StateRow, totals: { amountCents: number; entries: number }): PoolState {
  return {
    poolId: pool.pool_id,
    hostId: pool.host_id,
    status: pool.status as PoolStatus,
    targetCents: pool.target_cents,
    ...totals,
    currency: pool.currency,
    endAt: pool.end_at,
    closeReason: pool.close_reason as PoolCloseReason | null,
    closedAt: pool.closed_at,
    closeAt: pool.close_at,
    entriesDigest: pool.entries_digest,
    winner: pool.winner ? (JSON.parse(pool.winner) as PoolWinner) : null,
  };
}

/** The live message of a state (public: no user id), with the entry just issued when there is one. */
export function liveMessage(state: PoolState, lastEntry?: PoolLiveMessage["lastEntry"]): PoolLiveMessage {
  const message: PoolLiveMessage = {
    type: "pool",
    poolId: state.poolId,
    amountCents: state.amountCents,
    entries: state.entries,
    status: state.status,
    targetCents: state.targetCents,
  };
  if (lastEntry) message.lastEntry = { entryNumber: lastEntry.entryNumber };
  if (state.winner) {
    const { entryNumber, winnerName, prizeCents, blockHeight, blockHash } = state.winner;
    message.winner = { entryNumber, winnerName, prizeCents, blockHeight, blockHash };
  }
  return message;
}
