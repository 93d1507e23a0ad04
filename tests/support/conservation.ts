import { env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { expect } from "vitest";
import { earningsLedger, orders } from "~/db/schema";
import { poolStub } from "~/lib/pools.server";
import { db } from "../helpers";

/**
 * A payment's money as the app keeps it, over its orders: what was captured and refunded, the host's earnings, the
 * platform's fees and the pool share booked in the earnings ledger, and what the pool holds.
 */
export async function moneyOf(checkoutSessionId: string) {
  const placed = await db().select().from(orders).where(eq(orders.checkoutSessionId, checkoutSessionId));
  const rows = await db()
    .select()
    .from(earningsLedger)
    .where(
      inArray(
        earningsLedger.orderId,
        placed.map((o) => o.id),
      ),
    );
  const sum = <T>(list: T[], pick: (item: T) => number) => list.reduce((total, item) => total + pick(item), 0);
  const pool = await poolStub(env, placed[0]!.poolId!).state();
  return {
    orders: placed,
    capturedCents: sum(placed, (o) => o.amountCents),
    refundedCents: sum(placed, (o) => o.refundedCents),
    hostCents: sum(rows, (r) => r.amountCents),
    platformCents: sum(rows, (r) => r.platformCents),
    bookedPoolCents: sum(rows, (r) => r.poolCents),
    poolCents: pool.amountCents,
  };
}

/** captured - refunded = host earnings + pool + platform fees, and the pool holds what the ledger books, to the cent. */
export async function expectConserved(checkoutSessionId: string, label: string) {
  const money = await moneyOf(checkoutSessionId);
  expect(money.bookedPoolCents, `${label}: the pool share booked in the earnings ledger is what the pool holds`).toBe(
    money.poolCents,
  );
  expect(money.hostCents + money.poolCents + money.platformCents, `${label}: captured - refunded`).toBe(
    money.capturedCents - money.refundedCents,
  );
  return money;
}
