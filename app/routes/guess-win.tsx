import { GameCard } from "~/components/cards";
import { EmptyState, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listActiveGames } from "~/db/queries/games.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/guess-win";

export const meta: Route.MetaFunction = () => pageMeta("Guess & Win", "Answer a creator's question; a correct guess earns an entry to the main prize.");

export async function loader({ context }: Route.LoaderArgs) {
  const games = await listActiveGames(getDb(getEnv(context)), { limit: 24 });
  return { games };
}

export default function GuessWin({ loaderData }: Route.ComponentProps) {
  const { games } = loaderData;
  return (
    <Page
      title="Guess & Win"
      subtitle="Entry fees go 100% to the creator's prize pool. Only a correct guess earns an entry number to the main prize."
    >
      {games.length === 0 ? (
        <EmptyState title="No active Guess & Win games yet" message="When creators publish games they appear here." />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {games.map((game) => (
            <li key={game.id}>
              <GameCard game={game} />
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
