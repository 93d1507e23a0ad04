// The demo fan's monthly spending limit on entries (docs/product.md#spend-limits): set at sign-up, so
// /spending-limit and Settings > Responsible play show one. Amounts in USD cents, the checkout currency.
import type { Seed } from "./context";

/** The demo fan chose USD 2,000 a month (enough for the demo's purchases, so it shows without stopping them). */
const DEMO_FAN_LIMIT_USD_CENTS = 200_000;

export function addSpendLimits(seed: Seed): void {
  seed.rows.spendLimits.push({
    userId: seed.demoFan.id,
    monthlyUsdCents: DEMO_FAN_LIMIT_USD_CENTS,
    pendingUsdCents: null,
    pendingFrom: null,
    updatedAt: seed.demoFan.createdAt,
  });
}
