import type { Db } from "~/db/client.server";
import { claimCheckoutReserving } from "~/db/queries/checkout.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import type { CheckoutSession } from "~/db/schema";
import { FulfilmentDataError, paymentIntentOf, type CheckoutSessionObject } from "../shared/events.server";
import type { FulfilOutcome } from "./fulfil.server";
import { contributionKey } from "../shared/payment-records";
import { contribute } from "./pool-ledger.server";

/** A host's deposit into their own pool: 100% of it is added to the pool, and it never earns an entry. */
export async function fulfilHostDeposit(
  env: Env,
  db: Db,
  row: CheckoutSession,
  session: CheckoutSessionObject,
): Promise<FulfilOutcome> {
  if (!row.hostId) throw new FulfilmentDataError(`deposit checkout ${row.id} has no host`);
  const reservation = {
    hostId: row.hostId,
    sourceType: "host_deposit" as const,
    sourceKey: contributionKey(session.id),
    amountCents: row.amountCents,
    currency: row.currency,
    userId: row.userId,
    earnsEntry: false,
  };
  const claimed = await claimCheckoutReserving(
    db,
    row.id,
    { paymentIntentId: paymentIntentOf(session), now: new Date(), rates: await getRevenueRules(db) },
    reservation,
  );
  // The contribution is keyed by the session, so a resumed or repeated call adds it once.
  const contribution = await contribute(env, db, reservation);
  return {
    kind: claimed ? "fulfilled" : "already_fulfilled",
    checkoutId: row.id,
    purpose: row.purpose,
    poolId: contribution.poolId,
    entryNumber: null,
  };
}
