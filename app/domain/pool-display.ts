import { formatIn, type SupportedCurrency } from "./currency";
import { poolProgressPercent } from "./pool";
import { distributePool } from "./revenue";

/** A pool's figures as a page shows them, in the page's display currency. */
export type PoolDisplay = { amount: string; target: string; mainPrize: string; percent: number };

/** Which figure an element marked `data-pool` shows (its `data-pool-show`); "bar" is a progress bar's width. */
export const POOL_DISPLAY_FIELDS = ["amount", "target", "mainPrize", "percent", "bar"] as const;
export type PoolDisplayField = (typeof POOL_DISPLAY_FIELDS)[number];

/** The texts a page renders for a pool, and that /api/pools/live sends with every update so the two always agree. */
export function poolDisplay(
  pool: { amountCents: number; targetCents: number },
  poolCurrency: string,
  to: SupportedCurrency,
): PoolDisplay {
  return {
    amount: formatIn(pool.amountCents, poolCurrency, to),
    target: formatIn(pool.targetCents, poolCurrency, to),
    mainPrize: formatIn(distributePool(pool.amountCents).mainPrize, poolCurrency, to),
    percent: poolProgressPercent(pool.amountCents, pool.targetCents),
  };
}

/**
 * The attributes that make an element follow a pool live (public/page.js): its text (or, for "bar", its width) is
 * replaced with the pool's figure on every update. The display currency is the element's `data-pool-currency`, or
 * that of its nearest ancestor carrying one (a grid of cards names it once); one page uses one currency. An element
 * with only `data-pool-show` follows the pool its nearest `data-pool` ancestor names (a shop card's pool strip).
 */
export function livePoolAttributes(
  poolId: string | null | undefined,
  show: PoolDisplayField,
  currency?: SupportedCurrency,
) {
  if (!poolId) return {};
  return currency
    ? { "data-pool": poolId, "data-pool-show": show, "data-pool-currency": currency }
    : { "data-pool": poolId, "data-pool-show": show };
}

/** The id of the page's one polite live region (app/components/app-shell.tsx) that says a pool's state changed. */
export const POOL_ANNOUNCER_ID = "pool-announcer";

/**
 * What the page's live region says of a pool in this state: that it reached its target, closed, or was drawn; null
 * while it is open below its target. A page announces a change of this text, never the amount's every tick
 * (docs/decisions/630-phone-and-keyboard.md); /api/pools/live sends it with every update so page.js says the same.
 */
export function poolStateAnnouncement(pool: {
  status: "open" | "closed" | "drawn";
  amountCents: number;
  targetCents: number;
}): string | null {
  if (pool.status === "drawn") return "The prize pool's winner has been drawn.";
  if (pool.status === "closed") return "The prize pool has closed.";
  if (pool.targetCents > 0 && pool.amountCents >= pool.targetCents) return "The prize pool has reached its target.";
  return null;
}
