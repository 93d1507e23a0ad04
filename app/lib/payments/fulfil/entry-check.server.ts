import type { CheckoutSession } from "~/db/schema";
import { isSupportedCurrency, convertCents } from "~/domain/currency";
import type { EntryRoute } from "~/domain/eligibility";
import { SPEND_LIMIT_CURRENCY, type CardFunding } from "~/domain/spend-limits";
import { decideEntry, type EntryDecision } from "~/lib/entry-gate.server";
import { paymentIntentOf, sessionCardFunding, type CheckoutSessionObject } from "../shared/events.server";
import { getPaymentProvider } from "../providers/provider.server";

// Fulfilment's entry check (decision 520): every entry check asked again for a paid payment, with its card's
// funding type, and recorded once per payment and host (app/lib/entry-gate.server.ts). Never fails a payment.

/**
 * How the payment was funded: from the event when it carries the charge (an expanded payment intent), else from the
 * provider; a lookup that fails is a card of unknown type (counted toward the credit-card cap), logged.
 */
async function paymentFunding(
  env: Env,
  row: CheckoutSession,
  session: CheckoutSessionObject,
): Promise<CardFunding | null> {
  const carried = sessionCardFunding(session);
  if (carried !== undefined) return carried;
  const paymentIntentId = paymentIntentOf(session) ?? row.paymentIntentId;
  try {
    if (!paymentIntentId && row.provider !== "local") return "unknown";
    return await getPaymentProvider(env, "").cardFunding({
      paymentIntentId: paymentIntentId ?? "",
      checkoutSessionId: row.id,
    });
  } catch (error) {
    console.warn("entry check: the card's funding type could not be read; counted as a credit card", {
      checkout: row.id,
      error,
    });
    return "unknown";
  }
}

/** What a payment's amount counts toward the month, in USD cents (payments are charged in USD, decision 290). */
function usdCents(amountCents: number, currency: string): number {
  const code = currency.toUpperCase();
  if (code === SPEND_LIMIT_CURRENCY || !isSupportedCurrency(code)) return amountCents;
  return convertCents(amountCents, code, SPEND_LIMIT_CURRENCY);
}

/**
 * Whether the payment's entry with `hostId` is earned: a checkout without an account (nothing to check against)
 * earns it as before; otherwise the entry gate decides, once per payment and host.
 */
export async function checkPaymentEntry(
  env: Env,
  row: CheckoutSession,
  session: CheckoutSessionObject,
  entry: { hostId: string; amountCents: number; route: EntryRoute },
): Promise<EntryDecision> {
  if (!row.userId) return { earnsEntry: true, refusal: null, message: null };
  return decideEntry(env, {
    checkoutId: row.id,
    userId: row.userId,
    hostId: entry.hostId,
    route: entry.route,
    amountUsdCents: usdCents(entry.amountCents, row.currency),
    funding: () => paymentFunding(env, row, session),
    now: new Date(),
  });
}
