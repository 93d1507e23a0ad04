// The demo fan's monthly spending limit on entries (docs/product.md#spend-limits): set at sign-up, so
// /spending-limit and Settings > Responsible play show one. Amounts in USD cents, the checkout currency.
import type { Seed } from "./context";

/** The demo fan chose USD 150 a month. */
const DEMO_FAN_LIMIT_USD_CENTS = 15_000;

export function addSpendLimits(seed: Seed): void {
  seed.rows.spendLimits.push({
    userId: seed.demoFan.id,
    monthlyUsdCents: DEMO_FAN_LIMIT_USD_CENTS,
    pendingUsdCents: null,
    pendingFrom: null,
    updatedAt: seed.demoFan.createdAt,
  });
}
