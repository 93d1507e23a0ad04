import { useNavigate } from "react-router";
import { Button, Card, LinkButton, Page, pageMeta } from "~/components/page";
import type { Route } from "./+types/payment-cancel";

export const meta: Route.MetaFunction = () => pageMeta("Payment cancelled");

export default function PaymentCancel() {
  const navigate = useNavigate();
  return (
    <Page title="Payment cancelled" width="narrow">
      <Card>
        <p className="text-gray-800">Your payment was cancelled. No charges were made.</p>
        <div className="mt-4 flex flex-wrap gap-3">
          <LinkButton to="/">Return to Home</LinkButton>
          <Button variant="secondary" onClick={() => navigate(-1)}>
            Go Back
          </Button>
        </div>
      </Card>
    </Page>
  );
}
