import type { CheckoutPurpose } from "~/domain/payments";
import type { GroupBuyInfo } from "./world";

// What the test knows of a run, apart from the system: the checkouts it started and paid, the provider events it
// holds back, and a log of the steps (printed with a failure).

export type ModelCheckout = {
  id: string;
  purpose: CheckoutPurpose;
  /** Orders a fulfilled payment makes (cart and join lines; 1 for a buy-now); 0 for guesses and deposits. */
  lines: number;
  productIds: string[];
  groupBuyId: string | null;
  /** The provider captured the money (its own record says so). */
  captured: boolean;
  /** The payment's event reached the webhook at least once. */
  delivered: boolean;
  /** Reversals the buyer obtained (a lost dispute, a dashboard refund with no metadata), when each was made. */
  buyerReversals: { at: number; full: boolean }[];
};

/** A standing draw the model has seen: its pool's winner, and the prize payout it expects pending. */
export type ModelDraw = {
  drawId: string;
  poolId: string;
  entryNumber: number;
  checkoutId: string | null;
  drawnAt: number;
  payoutId: string | null;
};

export type HeldEvent = {
  label: string;
  checkoutId: string;
  event: { id: string; type: string };
  /** Deliveries tried so far (an event the webhook refused is retried, like the provider's few retries). */
  attempts: number;
};

export type Model = {
  checkouts: ModelCheckout[];
  held: HeldEvent[];
  groupBuys: (GroupBuyInfo & { state: "active" | "ended" | "cancelled" | "deleted" })[];
  log: string[];
  /** Pool id to its standing draw, as last seen (a voided one is removed once checked). */
  draws: Map<string, ModelDraw>;
};

/** What the runs of a file reached, printed at the end (a draw the runs never reach tests nothing). */
export const stats = { drawn: 0, voided: 0, hostRefundsOfWinners: 0, freeEntries: 0, postalEntries: 0, freeVoids: 0 };

export function newModel(groupBuys: GroupBuyInfo[]): Model {
  return {
    checkouts: [],
    held: [],
    groupBuys: groupBuys.map((g) => ({ ...g, state: "active" })),
    log: [],
    draws: new Map(),
  };
}

/** The provider retries a refused event a few times only (its sandbox: 3); the model does the same. */
export const PROVIDER_ATTEMPTS = 3;

/** Picks list[index mod length], or undefined for an empty list. */
export function pick<T>(list: readonly T[], index: number): T | undefined {
  return list.length === 0 ? undefined : list[index % list.length];
}
