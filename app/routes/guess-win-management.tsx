import { Link } from "react-router";
import { Table } from "~/components/cards";
import { DateText, EmptyState, LinkButton, Page, pageMeta, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listHostGames } from "~/db/queries/games.server";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/guess-win-management";

export const meta: Route.MetaFunction = () => pageMeta("Guess & Win Management");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const games = await listHostGames(getDb(getEnv(context)), user.id, 50);
  return { games };
}

export default function GuessWinManagement({ loaderData }: Route.ComponentProps) {
  const { games } = loaderData;
  return (
    <Page
      title="Guess & Win Management"
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={<LinkButton to="/create-guess-win">Create Game</LinkButton>}
    >
      {games.length === 0 ? (
        <EmptyState title="No games yet" message="Create a Guess & Win game; 100% of entry fees go to your prize pool." action={{ to: "/create-guess-win", label: "Create Game" }} />
      ) : (
        <Table head={["Question", "Status", "Entry fee", "Participants", "Entry fees", "Created", "Actions"]}>
          {games.map((g) => (
            <tr key={g.id}>
              <td className="px-4 py-2 font-medium text-gray-900">{g.question}</td>
              <td className="px-4 py-2">
                <StatusBadge status={g.status} />
              </td>
              <td className="px-4 py-2 whitespace-nowrap">{formatCents(g.entryFeeCents, g.currency)}</td>
              <td className="px-4 py-2">{g.participantsCount}</td>
              <td className="px-4 py-2 whitespace-nowrap">{formatCents(g.totalEntryFeesCents, g.currency)}</td>
              <td className="px-4 py-2 whitespace-nowrap">
                <DateText value={g.createdAt} />
              </td>
              <td className="px-4 py-2 whitespace-nowrap">
                <span className="flex gap-3 text-sm font-semibold">
                  <Link to={`/view-game/${g.id}`} className="text-brand-700 hover:underline">
                    View
                  </Link>
                  <Link to={`/edit-game/${g.id}`} className="text-gray-700 hover:underline">
                    Edit
                  </Link>
                </span>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
}
