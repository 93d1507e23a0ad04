import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { localProviderMovements, type LocalProviderMovement } from "~/db/schema";
import { LOCAL_MOVEMENT_SIGN, type LocalMovementKind } from "~/domain/payments";

// The local payment provider's own record of the money it moved (decision 400). Written only by the local provider.

export type LocalMovementInput = {
  /** What moved, once: 'capture:<session>', 'refund:<refund id>', 'refund_failed:<refund id>', 'dispute_…:<id>'. */
  id: string;
  checkoutSessionId: string;
  paymentIntentId: string;
  kind: LocalMovementKind;
  amountCents: number;
  currency: string;
};

/** Records one movement; the same id again records nothing (a retried click, a repeated idempotent refund). */
export async function recordLocalMovement(db: Db, movement: LocalMovementInput): Promise<void> {
  await db
    .insert(localProviderMovements)
    // Stamped by the clock the code runs on (a test that moves the clock sees payments at its times).
    .values({ ...movement, currency: movement.currency.toUpperCase(), createdAt: new Date() })
    .onConflictDoNothing({ target: localProviderMovements.id });
}

/** Every movement of one checkout, oldest first. */
export function listLocalMovements(db: Db, checkoutSessionId: string): Promise<LocalProviderMovement[]> {
  return db
    .select()
    .from(localProviderMovements)
    .where(eq(localProviderMovements.checkoutSessionId, checkoutSessionId))
    .orderBy(localProviderMovements.createdAt);
}

/** What the provider holds of a checkout's payment now: captured, less refunds and withdrawals, plus what came back. */
export async function localNetCents(db: Db, checkoutSessionId: string): Promise<number> {
  const rows = await listLocalMovements(db, checkoutSessionId);
  return rows.reduce((sum, r) => sum + LOCAL_MOVEMENT_SIGN[r.kind] * r.amountCents, 0);
}

/** Whether the provider captured a payment for this checkout. */
export async function isLocallyCaptured(db: Db, checkoutSessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(localProviderMovements)
    .where(sql`${localProviderMovements.id} = ${`capture:${checkoutSessionId}`}`);
  return Number(row?.n ?? 0) > 0;
}

/** Whether the provider recorded this movement already (a refund's id: the same idempotency key again). */
export async function hasLocalMovement(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: localProviderMovements.id })
    .from(localProviderMovements)
    .where(eq(localProviderMovements.id, id));
  return row !== undefined;
}
