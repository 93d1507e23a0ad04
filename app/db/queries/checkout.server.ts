import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { checkoutSessions } from "~/db/schema";

/** What the payment result page shows of a checkout session, or undefined. */
export async function getCheckoutSummary(db: Db, id: string) {
  const [row] = await db
    .select({
      id: checkoutSessions.id,
      purpose: checkoutSessions.purpose,
      userId: checkoutSessions.userId,
      amountCents: checkoutSessions.amountCents,
      currency: checkoutSessions.currency,
      status: checkoutSessions.status,
      paymentStatus: checkoutSessions.paymentStatus,
    })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, id))
    .limit(1);
  return row;
}
