import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getCheckoutSummary } from "~/db/queries/checkout.server";
import { formatCents } from "~/domain/money";
import { getOptionalUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/payment-success";

const SESSION_ID = /^[A-Za-z0-9_-]{1,255}$/;

export const meta: Route.MetaFunction = () => pageMeta("Payment");

export async function loader({ request, context }: Route.LoaderArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id");
  if (!sessionId) return { state: "missing" as const, payment: null };
  if (!SESSION_ID.test(sessionId)) return { state: "unknown" as const, payment: null };
  const session = await getCheckoutSummary(getDb(getEnv(context)), sessionId);
  if (!session) return { state: "unknown" as const, payment: null };
  // Amounts are shown only to the person who paid; anyone else with the link sees the status alone.
  const mine = session.userId !== null && session.userId === getOptionalUser(context)?.id;
  return {
    state: session.paymentStatus === "paid" ? ("paid" as const) : ("pending" as const),
    payment: {
      purpose: session.purpose,
      amount: mine ? formatCents(session.amountCents, session.currency) : null,
    },
  };
}

export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  const { state, payment } = loaderData;
  const next = payment?.purpose === "guess_entry" ? { to: "/guess-win", label: "Back to Guess & Win" } : { to: "/dashboard", label: "Go to Dashboard" };
  if (state === "missing" || state === "unknown") {
    return (
      <Page title="Payment" width="narrow">
        <Card>
          <p role="alert" className="text-gray-800">
            {state === "missing" ? "No session ID found" : "We couldn't find this payment."}
          </p>
          <div className="mt-4 flex gap-3">
            <LinkButton to="/dashboard">Return to Dashboard</LinkButton>
          </div>
        </Card>
      </Page>
    );
  }
  return (
    <Page title={state === "paid" ? "Payment successful!" : "Confirming your payment"} width="narrow">
      <Card>
        <p className="text-gray-800">
          {state === "paid"
            ? "Thank you! Your payment went through."
            : "Your payment is being confirmed with the card provider. This usually takes a few seconds; refresh this page to check again."}
        </p>
        {payment?.amount ? <p className="mt-2 text-sm text-gray-600">Amount: {payment.amount}</p> : null}
        <div className="mt-4 flex flex-wrap gap-3">
          <LinkButton to={next.to}>{next.label}</LinkButton>
          <LinkButton to="/my-orders" variant="secondary">
            My Orders
          </LinkButton>
        </div>
      </Card>
    </Page>
  );
}
