import { Link } from "react-router";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Badge, Card, DateText, LinkButton, Page, pageMeta, Stat, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getGame } from "~/db/queries/games.server";
import { formatCents } from "~/domain/money";
import { getOptionalUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/view-game";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData?.game.question ?? errorTitle(error, "Game not found"));

export async function loader({ params, context }: Route.LoaderArgs) {
  const game = await getGame(getDb(getEnv(context)), idParam(params.id));
  const user = getOptionalUser(context);
  const own = !!game && game.hostId === user?.id;
  // Anyone may read an active or finished game; drafts and paused games only their host.
  if (!game || (!own && game.status !== "active" && game.status !== "completed")) notFound();
  const { correctAnswer, ...publicFields } = game;
  // The correct answer never leaves the server except to the game's host.
  return { game: publicFields, own, correctAnswer: own ? correctAnswer : null };
}

export default function ViewGame({ loaderData }: Route.ComponentProps) {
  const { game, own, correctAnswer } = loaderData;
  return (
    <Page
      title={game.question}
      subtitle={
        game.hostName ? (
          <>
            by{" "}
            <Link to={`/profile/${game.hostId}`} className="font-medium text-brand-700 hover:underline">
              {game.hostName}
            </Link>
          </>
        ) : undefined
      }
      back={own ? { to: "/dashboard", label: "Back to Dashboard" } : { to: "/guess-win", label: "Back to Guess & Win" }}
      actions={
        <>
          <StatusBadge status={game.status} />
          {own ? (
            <LinkButton to={`/edit-game/${game.id}`} variant="secondary">
              Edit
            </LinkButton>
          ) : null}
        </>
      }
    >
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-4 lg:col-span-2">
          {game.videoUrl ? (
            <video src={game.videoUrl} controls preload="metadata" className="aspect-video w-full rounded-xl bg-black" />
          ) : game.imageUrl ? (
            <img src={game.imageUrl} alt="" className="aspect-video w-full rounded-xl object-cover" />
          ) : null}
          {game.description ? <p className="whitespace-pre-line text-gray-700">{game.description}</p> : null}
          <Card>
            <h2 className="font-semibold text-gray-900">Answer options</h2>
            {game.options.length === 0 ? (
              <p className="mt-2 text-sm text-gray-600">No options available</p>
            ) : (
              <ul className="mt-3 grid gap-2 sm:grid-cols-2">
                {game.options.map((option) => (
                  <li key={option} className="flex items-center justify-between rounded-lg border border-gray-200 px-3 py-2 text-sm">
                    {option}
                    {correctAnswer === option ? <Badge tone="green">Correct</Badge> : null}
                  </li>
                ))}
              </ul>
            )}
            <p className="mt-3 text-sm text-gray-600">
              Entry from {formatCents(game.entryFeeCents, game.currency)}. 100% of entry fees go to the prize pool; only a
              correct guess earns an entry number.
            </p>
          </Card>
        </div>
        <div className="grid grid-cols-2 content-start gap-3 lg:grid-cols-1">
          <Stat label="Participants" value={game.participantsCount} />
          <Stat label="Entry fees collected" value={formatCents(game.totalEntryFeesCents, game.currency)} />
          <Stat label="Views" value={game.viewsCount} />
          <Stat label="Likes" value={game.likesCount} hint={<>Published <DateText value={game.createdAt} /></>} />
        </div>
      </div>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} notFound={{ title: "Game not found", message: "This game doesn't exist or is no longer available.", action: { to: "/guess-win", label: "Back to Guess & Win" } }} />;
}
