import { data, useFetcher } from "react-router";
import { Link } from "~/components/link";
import { Table } from "~/components/cards";
import { DateText, EmptyState, LinkButton, Page, pageMeta, Pagination, StatusBadge } from "~/components/page";
import { useFetcherToasts } from "~/components/toaster";
import { getDb } from "~/db/client.server";
import { deleteOrEndGame, getHostGame, listHostGamesWithStats, togglePause } from "~/db/queries/game-host.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { poolShareText } from "~/domain/revenue";
import { canEditGame, GAME_DELETE_CONFIRM, gameStatusLabel, shownGameStatus } from "~/domain/catalog";
import { formatCents } from "~/domain/money";
import { forbidden, idParam, notFound, pageParam, requireUser } from "~/lib/guards.server";
import { getCtx, getEnv } from "~/lib/context";
import { admitEndedGames } from "~/lib/pools.server";
import { deleteVideo } from "~/lib/uploads.server";
import { GAME_MESSAGES } from "~/lib/game-form";
import type { Route } from "./+types/guess-win-management";

export const meta: Route.MetaFunction = () => pageMeta("Guess & Win Management");

const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const page = pageParam(request);
  const db = getDb(getEnv(context));
  const [rows, rules] = await Promise.all([
    listHostGamesWithStats(db, user.id, { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE }),
    getRevenueRules(db),
  ]);
  return {
    games: rows.slice(0, PAGE_SIZE),
    page,
    hasNext: rows.length > PAGE_SIZE,
    poolShare: poolShareText(rules, "guess_win_entries"),
  };
}

type ActionResult = { ok: boolean; intent: string; gameId: string; message: string; status?: string; outcome?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const gameId = idParam(typeof form.get("gameId") === "string" ? (form.get("gameId") as string) : undefined);
  const game = await getHostGame(db, gameId);
  if (!game) notFound();
  if (game.hostId !== user.id) forbidden();

  if (intent === "toggle-pause") {
    let status: Awaited<ReturnType<typeof togglePause>>;
    try {
      status = await togglePause(db, gameId, user.id);
    } catch (err) {
      console.error("game status update failed", err);
      return data<ActionResult>(
        { ok: false, intent, gameId, message: GAME_MESSAGES.statusFailed("Please try again.") },
        { status: 500 },
      );
    }
    if (!status) {
      const message = GAME_MESSAGES.statusFailed(
        game.status === "completed" ? "This game has ended" : "Please try again.",
      );
      return data<ActionResult>({ ok: false, intent, gameId, message }, { status: 409 });
    }
    const message = status === "paused" ? "Game paused successfully" : "Game resumed successfully";
    return data<ActionResult>({ ok: true, intent, gameId, message, status });
  }
  if (intent === "delete") {
    let result: Awaited<ReturnType<typeof deleteOrEndGame>>;
    try {
      result = await deleteOrEndGame(db, gameId, user.id);
    } catch (err) {
      console.error("game delete failed", err);
      return data<ActionResult>({ ok: false, intent, gameId, message: GAME_MESSAGES.deleteFailed }, { status: 500 });
    }
    if (!result)
      return data<ActionResult>({ ok: false, intent, gameId, message: GAME_MESSAGES.deleteFailed }, { status: 409 });
    if (result.videoKey) {
      const key = result.videoKey;
      getCtx(context).waitUntil(deleteVideo(env, key).catch((err) => console.error("game video delete failed", err)));
    }
    if (result.outcome === "ended") {
      // The game ended inside its pool round: its correct guesses' entries go to the host's open pool now.
      await admitEndedGames(env, user.id);
    }
    const message =
      result.outcome === "ended"
        ? "Game ended: it has paid participants, who keep their entries"
        : "Game deleted successfully";
    return data<ActionResult>({ ok: true, intent, gameId, message, outcome: result.outcome });
  }
  return data<ActionResult>({ ok: false, intent, gameId, message: "Unknown action" }, { status: 400 });
}

type Game = Route.ComponentProps["loaderData"]["games"][number];

function GameRow({ game }: { game: Game }) {
  const pause = useFetcher<ActionResult>();
  const remove = useFetcher<ActionResult>();
  useFetcherToasts([pause, remove]);

  // Optimistic status while the toggle is in flight; the loader's value returns (rollback) when it fails.
  const status = shownGameStatus(game.status, pause.state !== "idle");

  if (remove.state !== "idle" && remove.formData?.get("intent") === "delete") return null;

  return (
    <tr>
      <td className="px-4 py-2 font-medium text-gray-900">{game.question}</td>
      <td className="px-4 py-2">
        <StatusBadge status={status} />
        <span className="sr-only">{gameStatusLabel(status)}</span>
      </td>
      <td className="px-4 py-2 whitespace-nowrap">{formatCents(game.entryFeeCents, game.currency)}</td>
      <td className="px-4 py-2">{game.participantsCount}</td>
      <td className="px-4 py-2 whitespace-nowrap">{formatCents(game.totalEntryFeesCents, game.currency)}</td>
      <td className="px-4 py-2">{game.viewsCount}</td>
      <td className="px-4 py-2">{game.likesCount}</td>
      <td className="px-4 py-2 whitespace-nowrap">
        <DateText value={game.createdAt} />
      </td>
      <td className="px-4 py-2 whitespace-nowrap">
        <span className="flex items-center gap-3 text-sm font-semibold">
          <Link to={`/view-game/${game.id}`} className="text-brand-700 hover:underline">
            View
          </Link>
          {canEditGame(game.status) ? (
            <Link to={`/edit-game/${game.id}`} className="text-gray-700 hover:underline">
              Edit
            </Link>
          ) : null}
          {game.status !== "completed" ? (
            <pause.Form method="post">
              <input type="hidden" name="gameId" value={game.id} />
              <button type="submit" name="intent" value="toggle-pause" className="text-amber-700 hover:underline">
                {status === "paused" ? "Resume" : "Pause"}
              </button>
            </pause.Form>
          ) : null}
          <remove.Form
            method="post"
            onSubmit={(e) => {
              if (!window.confirm(GAME_DELETE_CONFIRM)) e.preventDefault();
            }}
          >
            <input type="hidden" name="gameId" value={game.id} />
            <button type="submit" name="intent" value="delete" className="text-red-600 hover:underline">
              Delete
            </button>
          </remove.Form>
        </span>
      </td>
    </tr>
  );
}

export default function GuessWinManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { games, page, hasNext, poolShare } = loaderData;
  return (
    <Page
      title="Guess & Win Management"
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={<LinkButton to="/create-guess-win">Create Game</LinkButton>}
    >
      {actionData?.message ? (
        <p
          role="status"
          className={`mb-4 rounded-lg px-3 py-2 text-sm ${actionData.ok ? "bg-green-50 text-green-800" : "bg-red-50 text-red-700"}`}
        >
          {actionData.message}
        </p>
      ) : null}
      {games.length === 0 && page === 1 ? (
        <EmptyState
          title="No games yet"
          message={`Create a Guess & Win game; ${poolShare} of entry fees go to your prize pool.`}
          action={{ to: "/create-guess-win", label: "Create Game" }}
        />
      ) : games.length === 0 ? (
        // Past the last page (an old or hand-made address): there are games, just not this far.
        <EmptyState
          title="No more games"
          message="There are no more games on this page."
          action={{ to: "/guess-win-management", label: "Back to the first page" }}
        />
      ) : (
        <Table
          head={[
            "Question",
            "Status",
            "Entry fee",
            "Participants",
            "Entry fees",
            "Views",
            "Likes",
            "Created",
            "Actions",
          ]}
        >
          {games.map((g) => (
            <GameRow key={g.id} game={g} />
          ))}
        </Table>
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={(n) => `/guess-win-management?page=${n}`} />
    </Page>
  );
}
