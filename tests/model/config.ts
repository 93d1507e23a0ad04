import { MAX_CART_LINES } from "~/domain/cart";
import { MAX_GROUP_BUY_LINES } from "~/domain/group-buy";

// The model-based money test's settings (docs/decisions/400-model-based-money-test.md). Everything a run depends on
// is here: change a weight to 0 to leave a command out, or set REPLAY to a failure's seed and path to replay it.

/** The fixed seed `npm test` runs with. */
export const SEED = 2026_11_26;
/** Runs and commands per run: sized to finish well inside TIME_BUDGET_MS on 2 shared cores (see the decision). */
export const NUM_RUNS = 25;
export const MAX_COMMANDS = 30;
/** The test's own time limit (vitest testTimeout for this file). */
export const TIME_BUDGET_MS = 130_000;

/**
 * A failure to replay, as the failure prints it: { seed, path, replayPath }. With REPLAY set, the test runs that one
 * (already shrunk) counterexample and prints every step it took.
 */
export const REPLAY: { seed: number; path: string; replayPath: string } | null = null;

/** The largest cart and group-buy join the app allows (the domain's limits): commands build every size up to them. */
export const LARGEST_CART = MAX_CART_LINES;
export const LARGEST_JOIN = MAX_GROUP_BUY_LINES;

/**
 * true (the committed default) generates every command form. false keeps commands to small carts and joins, full
 * reversals after their payment, no deletions and no held group-buy payments: a way to look past a bug found there
 * while it is open (decision 400).
 */
export const INCLUDE_KNOWN_BUG_COMMANDS = true;

/** How often each command is drawn (0: never). With the switch above off, commands keep to the forms that
 * reach no known bug (commands.ts, `knownBugs`). */
export const WEIGHTS = {
  cart: 4,
  buyNow: 3,
  guess: 2,
  deposit: 1,
  groupBuyJoin: 3,
  openGroupBuy: 1,
  deliverHeld: 6,
  raceHeld: 2,
  dashboardRefund: 2,
  hostRefund: 2,
  dispute: 2,
  restoreRefund: 1,
  failTierRefund: 1,
  deleteProduct: 1,
  deleteGroupBuy: 1,
  endGroupBuy: 1,
  cancelGroupBuy: 1,
  closePool: 2,
  draw: 2,
  advanceClock: 2,
  cron: 1,
  quiescent: 2,
  // Issue 29's free routes (decision 530).
  freeEntry: 2,
  postalEntry: 1,
  voidFreeEntry: 1,
} as const;
export type CommandName = keyof typeof WEIGHTS;
