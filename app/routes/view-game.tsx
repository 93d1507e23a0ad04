import { useState } from "react";
import { Form, useFetcher } from "react-router";
import { Link } from "~/components/link";
import { ErrorPage, errorTitle } from "~/components/error-page";
import {
  Badge,
  Button,
  Card,
  DateText,
  EmptyState,
  LinkButton,
  Page,
  Pagination,
  pageMeta,
  Stat,
  StatusBadge,
} from "~/components/page";
import { useFetcherToasts, type ToastOutcome } from "~/components/toaster";
import { getDb } from "~/db/client.server";
import { dailyParticipation, listGameGuesses, recordGameView } from "~/db/queries/game-host.server";
import { getGame } from "~/db/queries/games.server";
import { canEditGame, GAME_DELETE_CONFIRM, shownGameStatus } from "~/domain/catalog";
import { sessionRefusal } from "~/domain/eligibility";
import { formatCents } from "~/domain/money";
import { getRevenueRules } from "~/db/queries/platform.server";
import { poolShareText } from "~/domain/revenue";
import { getOptionalUser } from "~/lib/auth.server";
import { idParam, notFound, pageParam } from "~/lib/guards.server";
import { getCtx, getEnv } from "~/lib/context";
import type { Route } from "./+types/view-game";

const TABS = [
  { id: "overview", label: "Overview" },
  { id: "participants", label: "Participants" },
  { id: "analytics", label: "Analytics" },
] as const;
type Tab = (typeof TABS)[number]["id"];

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData?.game.question ?? errorTitle(error, "Game not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const env = getEnv(context);
  const db = getDb(env);
  const game = await getGame(db, idParam(params.id));
  const user = await getOptionalUser(context);
  const own = !!game && game.hostId === user?.id;
  // Anyone may read an active or finished game; drafts and paused games only their host.
  if (!game || (!own && game.status !== "active" && game.status !== "completed")) notFound();
  const requested = new URL(request.url).searchParams.get("tab");
  // Participants and Analytics are the host's; anyone else sees the Overview.
  const tab: Tab = own && TABS.some((t) => t.id === requested) ? (requested as Tab) : "overview";
  const page = pageParam(request);
  const [participants, daily, rules] = await Promise.all([
    tab === "participants" ? listGameGuesses(db, game.id, page) : null,
    tab === "analytics" ? dailyParticipation(db, game.id, 7) : null,
    getRevenueRules(db),
  ]);
  if (!own)
    getCtx(context).waitUntil(recordGameView(db, game.id).catch((err) => console.error("view count failed", err)));
  const { correctAnswer, ...publicFields } = game;
  // The correct answer leaves the server only to the game's host while it runs; once the game has ended it is public.
  const answerShown = own || game.status === "completed";
  return {
    game: publicFields,
    own,
    // Staff see why they cannot guess instead of Guess Now (checkout refuses them too).
    refusal: sessionRefusal(user?.role),
    signedIn: !!user,
    correctAnswer: answerShown ? correctAnswer : null,
    tab,
    page,
    participants,
    daily,
    poolShare: poolShareText(rules, "guess_win_entries"),
  };
}

/**
 * The host's controls on their game: pause/resume in place (optimistic, re-read after), delete (then the
 * management list shows the outcome), and the way back to the dashboard. Both post to the management action.
 */
function HostGameActions({ id, status }: { id: string; status: string }) {
  const pause = useFetcher<ToastOutcome>();
  useFetcherToasts([pause]);
  const current = shownGameStatus(status, pause.state !== "idle");
  return (
    <>
      <StatusBadge status={current} />
      <LinkButton to="/dashboard" variant="ghost">
        Dashboard
      </LinkButton>
      {canEditGame(status) ? (
        <LinkButton to={`/edit-game/${id}`} variant="secondary">
          Edit
        </LinkButton>
      ) : null}
      {status !== "completed" ? (
        <pause.Form method="post" action="/guess-win-management">
          <input type="hidden" name="gameId" value={id} />
          <Button type="submit" name="intent" value="toggle-pause" variant="secondary">
            {current === "paused" ? "Resume" : "Pause"}
          </Button>
        </pause.Form>
      ) : null}
      <Form
        method="post"
        action="/guess-win-management"
        onSubmit={(e) => {
          if (!window.confirm(GAME_DELETE_CONFIRM)) e.preventDefault();
        }}
      >
        <input type="hidden" name="gameId" value={id} />
        <Button type="submit" name="intent" value="delete" variant="danger">
          Delete
        </Button>
      </Form>
    </>
  );
}

function DailyChart({ daily }: { daily: { date: string; count: number }[] }) {
  const max = Math.max(1, ...daily.map((d) => d.count));
  return (
    <figure>
      <div className="flex h-48 items-end gap-2" role="img" aria-label="Guesses per day over the last 7 days">
        {daily.map((d) => (
          <div key={d.date} className="flex h-full flex-1 flex-col items-center justify-end gap-1">
            <span className="text-xs font-medium text-gray-700">{d.count}</span>
            <div
              className="w-full rounded-t bg-brand-500"
              style={{ height: `${(d.count / max) * 100}%`, minHeight: d.count ? 4 : 1 }}
            />
            <span className="text-xs text-gray-500">{d.date.slice(5)}</span>
          </div>
        ))}
      </div>
      <figcaption className="mt-2 text-sm text-gray-600">Guesses per day (UTC), last 7 days</figcaption>
    </figure>
  );
}

export default function ViewGame({ loaderData }: Route.ComponentProps) {
  const { game, own, refusal, correctAnswer, tab, page, participants, daily, poolShare } = loaderData;
  const [chosen, setChosen] = useState("");
  const [chooseError, setChooseError] = useState<string | null>(null);
  const canGuess = !own && refusal === null && game.status === "active";
  const tabHref = (id: Tab) => (id === "overview" ? `/view-game/${game.id}` : `/view-game/${game.id}?tab=${id}`);
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
      back={
        own
          ? { to: "/guess-win-management", label: "Back to Guess & Win Management" }
          : { to: "/guess-win", label: "Back to Guess & Win" }
      }
      actions={own ? <HostGameActions id={game.id} status={game.status} /> : <StatusBadge status={game.status} />}
    >
      {own ? (
        <nav aria-label="Game tabs" className="mb-6 flex gap-2 border-b border-gray-200">
          {TABS.map((t) => (
            <Link
              key={t.id}
              to={tabHref(t.id)}
              aria-current={tab === t.id ? "page" : undefined}
              className={`-mb-px border-b-2 px-3 py-2 text-sm font-semibold ${tab === t.id ? "border-brand-600 text-brand-700" : "border-transparent text-gray-600 hover:text-gray-900"}`}
            >
              {t.label}
            </Link>
          ))}
        </nav>
      ) : null}

      {tab === "overview" ? (
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="space-y-4 lg:col-span-2">
            {game.videoUrl ? (
              <video
                src={game.videoUrl}
                controls
                preload="metadata"
                playsInline
                className="aspect-video w-full rounded-xl bg-black"
              />
            ) : game.imageUrl ? (
              <img src={game.imageUrl} alt="" className="aspect-video w-full rounded-xl object-cover" />
            ) : null}
            {game.description ? <p className="whitespace-pre-line text-gray-700">{game.description}</p> : null}
            <Card>
              <h2 className="font-semibold text-gray-900">Answer options</h2>
              {game.options.length === 0 ? (
                <p className="mt-2 text-sm text-gray-600">No options available</p>
              ) : (
                <Form
                  method="get"
                  action="/payment"
                  onSubmit={(e) => {
                    if (!chosen) {
                      e.preventDefault();
                      setChooseError("Please select an answer first.");
                    }
                  }}
                >
                  <input type="hidden" name="game" value={game.id} />
                  <ul className="mt-3 grid gap-2 sm:grid-cols-2">
                    {game.options.map((option) => (
                      <li key={option}>
                        <label className="flex items-center justify-between gap-2 rounded-lg border border-gray-200 px-3 py-2 text-sm">
                          <span className="flex items-center gap-2">
                            {canGuess ? (
                              <input
                                type="radio"
                                name="answer"
                                value={option}
                                checked={chosen === option}
                                onChange={() => {
                                  setChosen(option);
                                  setChooseError(null);
                                }}
                              />
                            ) : null}
                            {option}
                          </span>
                          {correctAnswer === option ? <Badge tone="green">Correct</Badge> : null}
                        </label>
                      </li>
                    ))}
                  </ul>
                  {chooseError ? (
                    <p role="alert" className="mt-2 text-sm text-red-600">
                      {chooseError}
                    </p>
                  ) : null}
                  {!own && refusal !== null && game.status === "active" ? (
                    <p className="mt-4 text-sm font-medium text-gray-700">{refusal}</p>
                  ) : null}
                  {canGuess ? (
                    <button
                      type="submit"
                      className="mt-4 w-full rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
                    >
                      Guess Now
                    </button>
                  ) : null}
                </Form>
              )}
              <p className="mt-3 text-sm text-gray-600">
                Entry from {formatCents(game.entryFeeCents, game.currency)}. {poolShare} of entry fees go to the prize
                pool; only a correct guess earns an entry number.
              </p>
            </Card>
          </div>
          <div className="grid grid-cols-2 content-start gap-3 lg:grid-cols-1">
            <Stat label="Participants" value={game.participantsCount} />
            <Stat label="Entry fees collected" value={formatCents(game.totalEntryFeesCents, game.currency)} />
            <Stat label="Views" value={game.viewsCount} />
            <Stat
              label="Likes"
              value={game.likesCount}
              hint={
                <>
                  Published <DateText value={game.createdAt} />
                </>
              }
            />
          </div>
        </div>
      ) : null}

      {tab === "participants" && participants ? (
        participants.participants.length === 0 && page === 1 ? (
          <EmptyState title="No participants yet" message="Guesses on this game will show here." />
        ) : (
          <>
            <div className="relative overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm">
              <table className="min-w-full divide-y divide-gray-200 text-sm">
                <thead className="bg-gray-50">
                  <tr>
                    {["Participant", "Answer", "Kind", "Fee", "Correct", "Date"].map((h) => (
                      <th key={h} scope="col" className="px-4 py-2 text-left font-semibold text-gray-700">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-gray-100">
                  {participants.participants.map((p) => (
                    <tr key={p.id}>
                      <td className="px-4 py-2">{p.name ?? "Participant"}</td>
                      <td className="px-4 py-2">{p.answer}</td>
                      <td className="px-4 py-2">{p.kind === "paid" ? "Paid" : "Free"}</td>
                      <td className="px-4 py-2 whitespace-nowrap">{formatCents(p.entryFeeCents, p.currency)}</td>
                      <td className="px-4 py-2">
                        {p.isCorrect ? <Badge tone="green">Correct</Badge> : <span className="text-gray-500">No</span>}
                      </td>
                      <td className="px-4 py-2 whitespace-nowrap">
                        <DateText value={p.createdAt} withTime />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination
              page={page}
              hasNext={participants.hasNext}
              hrefFor={(p) => `/view-game/${game.id}?tab=participants&page=${p}`}
            />
          </>
        )
      ) : null}

      {tab === "analytics" && daily ? (
        <Card>
          <h2 className="mb-4 font-semibold text-gray-900">Daily participation</h2>
          <DailyChart daily={daily} />
        </Card>
      ) : null}
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Game not found",
        message: "This game doesn't exist or is no longer available.",
        action: { to: "/guess-win", label: "Back to Guess & Win" },
      }}
    />
  );
}
