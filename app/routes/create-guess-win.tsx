import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import { requireUser } from "~/lib/auth.server";
import type { Route } from "./+types/create-guess-win";

export const meta: Route.MetaFunction = () => pageMeta("Create Guess & Win");

export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

export default function CreateGuessWin() {
  return (
    <Page title="Create Guess & Win" subtitle="100% of entry fees go to your prize pool." width="narrow" back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      <Card>
        <p className="text-gray-700">
          This page will hold the game form: a question and description, a video of at least 30 seconds (upload or
          link), 2 to 6 answer options with the correct one marked, and a minimum entry fee of USD 1 to 100.
        </p>
        <div className="mt-4">
          <LinkButton to="/dashboard" variant="secondary">
            Cancel
          </LinkButton>
        </div>
      </Card>
    </Page>
  );
}
