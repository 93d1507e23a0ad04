import { getDb } from "~/db/client.server";
import { getCheckoutSession, listWholePaymentRefunds } from "~/db/queries/checkout.server";
import { getOrderForCheckout } from "~/db/queries/orders.server";
import type { CheckoutSession } from "~/db/schema";
import type { SessionUser } from "~/lib/session.server";
import { CheckoutSessionObjectSchema } from "../shared/events.server";
import { fulfilCheckoutSession } from "../fulfil/fulfil.server";
import { getPaymentProvider } from "../providers/provider.server";
import type { ProviderOptions } from "../providers/types";

// The payment result page's confirmation (the original app's stripe-confirm call): what was paid for, for the
// buyer's own session only. With Stripe, a session the webhook has not reached yet is checked with Stripe and
// fulfilled here (fulfilment is idempotent, so the webhook arriving later changes nothing).

export const CONFIRM_MESSAGES = {
  noSession: "No session ID found",
  failed: "Failed to confirm payment",
} as const;

export type ConfirmedPayment = {
  ok: true;
  sessionId: string;
  /** Amount paid, in cents of `currency` (USD). */
  amount: number;
  currency: string;
  /** The checkout's purpose: 'product', 'host_deposit', 'guess_entry', 'group_buy', 'cart'. */
  payment_type: CheckoutSession["purpose"];
  /** False while a delayed payment (bank transfer) has not arrived. */
  paid: boolean;
  description: string;
  orderNumber?: string;
  entryNumber?: number | null;
  game_question?: string;
  selected_answer?: string;
  /** A payment that could not be delivered and was refunded in full: the amount refunded and why. */
  refund?: { amountCents: number; reasons: string[] };
};
export type ConfirmResult = ConfirmedPayment | { ok: false; status: 400 | 401 | 404; message: string };

const SESSION_ID = /^[A-Za-z0-9_]{1,255}$/;

/**
 * The payment success page's confirmation: with Stripe, a paid session the webhook has not reached yet is fulfilled
 * here. The one place besides the webhook that fulfils.
 */
export function confirmCheckout(
  env: Env,
  sessionId: string | null | undefined,
  user: SessionUser | null,
  options: ProviderOptions = {},
): Promise<ConfirmResult> {
  return readCheckout(env, sessionId, user, { fulfil: true, options });
}

/** What a buyer's own checkout paid for, as recorded (never asks the provider, never fulfils): for feed banners. */
export function describeCheckout(
  env: Env,
  sessionId: string | null | undefined,
  user: SessionUser | null,
): Promise<ConfirmResult> {
  return readCheckout(env, sessionId, user, { fulfil: false, options: {} });
}

async function readCheckout(
  env: Env,
  sessionId: string | null | undefined,
  user: SessionUser | null,
  { fulfil, options }: { fulfil: boolean; options: ProviderOptions },
): Promise<ConfirmResult> {
  const id = (sessionId ?? "").trim();
  if (!id) return { ok: false, status: 400, message: CONFIRM_MESSAGES.noSession };
  if (!user) return { ok: false, status: 401, message: CONFIRM_MESSAGES.failed };
  if (!SESSION_ID.test(id)) return { ok: false, status: 404, message: CONFIRM_MESSAGES.failed };

  const db = getDb(env);
  let row = await getCheckoutSession(db, id);
  if (fulfil && env.STRIPE_SECRET_KEY && (!row || (row.provider === "stripe" && row.paymentStatus === "unpaid"))) {
    try {
      const provider = getPaymentProvider(env, "", options);
      const session = await provider.retrieveSession(id);
      if (!row && session?.reference) {
        row = await getCheckoutSession(db, session.reference);
      }
      if (row && row.userId === user.id && session?.paymentStatus === "paid") {
        const parsed = CheckoutSessionObjectSchema.safeParse(session.raw);
        if (parsed.success) {
          await fulfilCheckoutSession(env, parsed.data);
          row = await getCheckoutSession(db, row.id);
        }
      }
    } catch (error) {
      // The webhook remains the way this payment gets applied; show what we know.
      console.error("confirm: could not check the session with the provider", { id, error });
    }
  }
  if (!row || row.userId !== user.id) return { ok: false, status: 404, message: CONFIRM_MESSAGES.failed };

  const result: ConfirmedPayment = {
    ok: true,
    sessionId: row.id,
    amount: row.amountCents,
    currency: row.currency,
    payment_type: row.purpose,
    paid: row.paymentStatus === "paid",
    description: row.metadata.description ?? (row.purpose === "host_deposit" ? "Prize pool deposit" : "Payment"),
  };
  const guess = row.purpose === "guess_entry";
  const question =
    row.metadata.game_question ?? row.metadata.question ?? (guess ? row.metadata.description : undefined);
  if (question) result.game_question = question;
  const answer = row.metadata.selected_answer ?? (guess ? row.metadata.answer : undefined);
  if (answer) result.selected_answer = answer;
  // A guess's entry number is not returned: it would tell whether the answer was right while the game runs.

  if (result.paid) {
    const whole = await listWholePaymentRefunds(db, row.id);
    if (whole.length > 0) {
      result.refund = {
        amountCents: whole.reduce((sum, r) => sum + r.amountCents, 0),
        reasons: [...new Set(whole.flatMap((r) => (r.reason ? [r.reason] : [])))],
      };
    }
  }
  if (row.purpose === "product" && result.paid) {
    const order = await getOrderForCheckout(db, [id, row.id]);
    if (order) {
      result.orderNumber = order.orderNumber;
      result.entryNumber = order.entryNumber;
    }
  }
  return result;
}
