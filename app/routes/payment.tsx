import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import { requireUser } from "~/lib/auth.server";
import type { Route } from "./+types/payment";

export const meta: Route.MetaFunction = () => pageMeta("Complete Payment");

export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

export default function Payment() {
  return (
    <Page title="Complete Payment" width="narrow" back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      <Card>
        <p className="text-gray-700">
          A payment starts from a Guess &amp; Win game or a group buy. This page will show what you are paying for and
          the amount, then hand you over to our card payment provider's secure checkout. We never see your card number.
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <LinkButton to="/guess-win">Guess &amp; Win</LinkButton>
          <LinkButton to="/shop" variant="secondary">
            Shop
          </LinkButton>
        </div>
      </Card>
    </Page>
  );
}
