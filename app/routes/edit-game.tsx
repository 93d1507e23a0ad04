import { ErrorPage, errorTitle } from "~/components/error-page";
import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getGame } from "~/db/queries/games.server";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { assertOwner, idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/edit-game";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? "Edit Game" : errorTitle(error, "Game not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const game = await getGame(getDb(getEnv(context)), idParam(params.id));
  if (!game) notFound();
  assertOwner(game.hostId, user.id);
  return { game: { id: game.id, question: game.question } };
}

export default function EditGame({ loaderData }: Route.ComponentProps) {
  const { game } = loaderData;
  return (
    <Page title="Edit Game" subtitle={game.question} width="narrow" back={{ to: `/view-game/${game.id}`, label: "Back to game" }}>
      <Card>
        <p className="text-gray-700">
          This page will hold the game form with the current question, description, video, answer options, correct
          answer and entry fee, ready to change and save.
        </p>
        <div className="mt-4">
          <LinkButton to={`/view-game/${game.id}`} variant="secondary">
            Cancel
          </LinkButton>
        </div>
      </Card>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} notFound={{ title: "Game not found", message: "This game doesn't exist or has been deleted.", action: { to: "/guess-win-management", label: "Back to Guess & Win Management" } }} />;
}
