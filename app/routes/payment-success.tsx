import { useEffect } from "react";
import { data, redirect, useNavigate, useRevalidator } from "react-router";
import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import { formatCents } from "~/domain/money";
import { getOptionalUser } from "~/lib/auth.server";
import { signinRedirectUrl } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { confirmCheckout } from "~/lib/payments/webhook/confirm.server";
import { SPEND_LIMIT_PROMPT_TEXT } from "~/domain/spend-limits";
import { paymentEntryAfterwards } from "~/lib/entry-gate.server";
import type { Route } from "./+types/payment-success";

/** The delay before the success page moves on. */
const REDIRECT_DELAY_MS = 3000;

export const meta: Route.MetaFunction = () => pageMeta("Payment");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(context);
  const sessionId = new URL(request.url).searchParams.get("session_id");
  if (sessionId && !user) throw redirect(signinRedirectUrl(request));
  const result = await confirmCheckout(getEnv(context), sessionId, user);
  if (!result.ok) return data({ error: result.message, payment: null }, { status: result.status });
  const entry = user
    ? await paymentEntryAfterwards(getEnv(context), user.id, result.sessionId)
    : { noEntry: null, promptLimit: false };
  return {
    error: null,
    payment: {
      paid: result.paid,
      type: result.payment_type,
      amount: formatCents(result.amount, result.currency),
      description: result.description,
      orderNumber: result.orderNumber ?? null,
      entryNumber: result.entryNumber ?? null,
      toGame: result.payment_type === "guess_entry",
      noEntry: entry.noEntry,
      promptLimit: entry.promptLimit && result.paid,
      refund: result.refund
        ? { amount: formatCents(result.refund.amountCents, result.currency), reasons: result.refund.reasons }
        : null,
      next:
        result.payment_type === "guess_entry"
          ? `/guess-win?paid=${encodeURIComponent(result.sessionId)}`
          : "/dashboard",
    },
  };
}

export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  const { error, payment } = loaderData;
  const navigate = useNavigate();
  const revalidator = useRevalidator();

  useEffect(() => {
    // A refunded payment stays on the page: the buyer reads why; so does the spending-limit prompt.
    if (!payment || payment.refund || payment.promptLimit) return;
    // Paid: move on after 3 s. Still being confirmed (a delayed method or a webhook on its way): check again.
    const timer = payment.paid
      ? setTimeout(() => navigate(payment.next), REDIRECT_DELAY_MS)
      : setTimeout(() => revalidator.revalidate(), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [payment, navigate, revalidator]);

  if (!payment) {
    return (
      <Page title="Payment" width="narrow">
        <Card>
          <p role="alert" className="text-gray-800">
            {error === "No session ID found" ? error : "An error occurred while processing your payment"}
          </p>
          {error !== "No session ID found" ? <p className="mt-1 text-sm text-gray-600">{error}</p> : null}
          <div className="mt-4">
            <LinkButton to="/dashboard">Return to Dashboard</LinkButton>
          </div>
        </Card>
      </Page>
    );
  }
  return (
    <Page title={payment.paid ? "Payment successful!" : "Confirming your payment"} width="narrow">
      <Card>
        <dl className="space-y-2 text-sm">
          <div className="flex justify-between">
            <dt className="text-gray-600">Paid for</dt>
            <dd className="font-medium">{payment.description}</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-gray-600">Amount</dt>
            <dd className="font-medium">{payment.amount}</dd>
          </div>
          {payment.orderNumber ? (
            <div className="flex justify-between">
              <dt className="text-gray-600">Order</dt>
              <dd className="font-medium">{payment.orderNumber}</dd>
            </div>
          ) : null}
          {payment.entryNumber !== null ? (
            <div className="flex justify-between">
              <dt className="text-gray-600">Your prize pool entry number</dt>
              <dd className="font-bold text-emerald-700">#{payment.entryNumber}</dd>
            </div>
          ) : null}
        </dl>
        {payment.refund ? (
          <div
            className="mt-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
            role="alert"
            data-testid="payment-refunded"
          >
            <p className="font-medium">Refunded in full: {payment.refund.amount}</p>
            {payment.refund.reasons.map((reason) => (
              <p key={reason}>{reason}</p>
            ))}
          </div>
        ) : null}
        {payment.noEntry && !payment.refund ? (
          <p className="mt-4 rounded bg-amber-50 p-3 text-sm text-amber-900" data-testid="payment-no-entry">
            {payment.noEntry}
          </p>
        ) : null}
        {payment.promptLimit ? (
          <div className="mt-4 rounded bg-gray-50 p-3 text-sm text-gray-700" data-testid="spend-limit-prompt">
            <p>{SPEND_LIMIT_PROMPT_TEXT}</p>
            <div className="mt-2">
              <LinkButton to="/spending-limit" variant="secondary">
                Set a spending limit
              </LinkButton>
            </div>
          </div>
        ) : null}
        <p className="mt-4 text-sm text-gray-600" role="status">
          {payment.refund
            ? "Nothing was delivered for this payment."
            : payment.paid && payment.promptLimit
              ? "Thank you!"
              : payment.paid
                ? `Thank you! Taking you to ${payment.toGame ? "Guess & Win" : "your dashboard"} in 3 seconds...`
                : "Your payment is being confirmed. A bank transfer is confirmed when it arrives (usually 1-2 business days); this page checks again every few seconds."}
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <LinkButton to={payment.next}>{payment.toGame ? "Back to Guess & Win" : "Go to Dashboard"}</LinkButton>
          <LinkButton to="/my-orders" variant="secondary">
            My Orders
          </LinkButton>
        </div>
      </Card>
    </Page>
  );
}
