import { useEffect, useMemo, useRef, useState } from "react";
import { data, useFetcher, useNavigate } from "react-router";
import { Link } from "~/components/link";
import { EmptyState, Page, pageMeta, buttonClass } from "~/components/page";
import { useToast } from "~/components/toaster";
import { getDb } from "~/db/client.server";
import {
  activeGameFeedPage,
  freeGuessEligibility,
  getActiveGameForGuess,
  getFanGameState,
  insertFreeGuess,
  listActiveGamesPage,
  listOpenPoolsForHosts,
  recordGameShare,
  setGameLike,
  setGameSave,
} from "~/db/queries/games.server";
import { countdownText } from "~/domain/countdown";
import { CURRENCIES, displayCurrency, formatIn, isSupportedCurrency, type SupportedCurrency } from "~/domain/currency";
import { TRIBE_JOIN_MESSAGES, type TribeJoinResult } from "~/domain/tribe";
import { getOptionalUser, viewerSession } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { describeCheckout } from "~/lib/payments/webhook/confirm.server";
import { GUESS_MESSAGES } from "~/lib/payments/checkout/quote.server";
import { poolProgressPercent } from "~/domain/pool";
import { livePoolAttributes, type PoolDisplayField } from "~/domain/pool-display";
import { getParticipantByPaymentKey } from "~/db/queries/guesses.server";
import { getProfileCountry } from "~/db/queries/profiles.server";
import { LATE_GUESS_REASON } from "~/lib/payments/fulfil/fulfil-guess.server";
import type { Route } from "./+types/guess-win";

export const meta: Route.MetaFunction = () =>
  pageMeta("Guess & Win", "Answer a host's question; a correct guess earns an entry to the main prize.");

/** The feed's texts (docs/product.md#guess-and-win). */
export const GUESS_WIN_MESSAGES = {
  signInPlay: "Please sign in to play",
  signInShare: "Please sign in to share",
  signInLike: "Please sign in to like this game",
  signInSave: "Please sign in to save this game",
  selectAnswer: "Please select an answer first!",
  freeAvailable: "Free Guess Available",
  shareForFree: "Share = 1 free guess",
  freeUsed: "Free guess already used for this game",
  freeFailed: "Failed to submit free guess. Please try again.",
  confirmEmail: "Please confirm your email to play a free guess: open the link we sent you when you signed up.",
  linkCopied: "Link copied to clipboard!",
  noOptions: "No options available",
  gameNotFound: "This game is not open for guesses",
  sealed:
    "Your guess is sealed: nobody learns whether it is right until the game ends, when the answer is published and a correct guess receives its entry in the host's prize pool.",
  unknown: "Unknown action",
} as const;

export function freeGuessSubmittedMessage(answer: string): string {
  return `Free guess submitted with answer: "${answer}". Good luck!`;
}

export function paymentBannerMessage(question: string, answer: string): string {
  return `Payment successful! You've entered the game "${question}" with answer "${answer}". Good luck!`;
}

const SHOWN_OPTIONS = 4;
const MAX_PAGE = 500;

function pageOf(url: URL): number {
  const n = Number(url.searchParams.get("page") ?? "1");
  return Number.isSafeInteger(n) && n >= 1 ? Math.min(n, MAX_PAGE) : 1;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const env = getEnv(context);
  const db = getDb(env);
  const url = new URL(request.url);
  const chosenCurrency = url.searchParams.get("currency");
  const session = viewerSession(context);
  // The viewer's country (for their local currency) is named by the session, so it goes to D1 with the session's
  // lookup; it is not read when a currency was chosen.
  const [user, viewerCountry] = await Promise.all([
    getOptionalUser(context),
    session && !chosenCurrency ? getProfileCountry(db, session) : undefined,
  ]);
  // ?game={id} (a profile's Free Guess link) opens the page that shows that game; its card is #game-{id}.
  const linkedGame = url.searchParams.get("game");
  const linkedPage =
    linkedGame && !url.searchParams.has("page") ? await activeGameFeedPage(db, linkedGame.slice(0, 64)) : null;
  const page = linkedPage ? Math.min(linkedPage, MAX_PAGE) : pageOf(url);
  const { games, hasMore } = await listActiveGamesPage(db, { page });
  const hostIds = [...new Set(games.map((g) => g.hostId))];
  const [pools, fan] = await Promise.all([
    listOpenPoolsForHosts(db, hostIds),
    user
      ? getFanGameState(
          db,
          user.id,
          games.map((g) => g.id),
          hostIds,
        )
      : null,
  ]);
  const poolByHost = new Map(pools.map((p) => [p.hostId, p]));

  let banner: string | null = null;
  let late = false;
  const paid = url.searchParams.get("paid");
  if (paid && user) {
    const confirmed = await describeCheckout(env, paid, user);
    if (confirmed.ok && confirmed.payment_type === "guess_entry" && confirmed.paid) {
      const guess = await getParticipantByPaymentKey(db, confirmed.sessionId);
      late = guess !== undefined && guess.confirmedAt === null;
      banner = late
        ? LATE_GUESS_REASON
        : paymentBannerMessage(confirmed.game_question ?? confirmed.description, confirmed.selected_answer ?? "");
    }
  }

  return {
    page,
    hasMore,
    // The currency the select starts on and the amounts are shown in (the viewer may switch it in the page).
    currency: displayCurrency(chosenCurrency, viewerCountry),
    banner,
    late,
    signedIn: user !== null,
    viewerId: user?.id ?? null,
    now: Date.now(),
    games: games.map((game) => {
      const pool = poolByHost.get(game.hostId);
      const member = fan?.tribes.includes(game.hostId) ?? false;
      const shared = fan?.shared.includes(game.id) ?? false;
      const freeUsed = fan?.freeUsed.includes(game.id) ?? false;
      return {
        id: game.id,
        hostId: game.hostId,
        hostName: game.hostName ?? "Host",
        hostAvatarUrl: game.hostAvatarUrl,
        question: game.question,
        imageUrl: game.imageUrl,
        videoUrl: game.videoUrl,
        options: Array.isArray(game.options) ? game.options : [],
        entryFeeCents: game.entryFeeCents,
        currency: game.currency,
        likesCount: game.likesCount,
        commentsCount: game.commentsCount,
        sharesCount: game.sharesCount,
        participantsCount: game.participantsCount,
        createdAt: game.createdAt.getTime(),
        pool: pool
          ? {
              id: pool.id,
              amountCents: pool.amountCents,
              targetCents: pool.targetCents,
              currency: pool.currency,
              endAt: pool.endAt.getTime(),
            }
          : null,
        liked: fan?.liked.includes(game.id) ?? false,
        saved: fan?.saved.includes(game.id) ?? false,
        member,
        shared,
        freeUsed,
        freeEligible: member && shared && !freeUsed,
      };
    }),
  };
}

export type FeedGame = Awaited<ReturnType<typeof loader>>["games"][number];

export type GuessWinActionData = {
  ok: boolean;
  intent: string;
  message?: string;
  gameId?: string;
  hostId?: string;
  count?: number;
  on?: boolean;
};

const SIGN_IN_MESSAGES: Record<string, string> = {
  "free-guess": GUESS_WIN_MESSAGES.signInPlay,
  share: GUESS_WIN_MESSAGES.signInShare,
  like: GUESS_WIN_MESSAGES.signInLike,
  save: GUESS_WIN_MESSAGES.signInSave,
};

function reply(body: GuessWinActionData, status = 200) {
  return data<GuessWinActionData>(body, { status });
}

function field(form: FormData, name: string, max = 500): string {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, max) : "";
}

/** Share, like, save and free guess (intent=...; Join Tribe posts to /tribe/join). Responses never carry a game's correct answer. */
export async function action({ request, context }: Route.ActionArgs) {
  const env = getEnv(context);
  const db = getDb(env);
  const user = await getOptionalUser(context);
  const form = await request.formData();
  const intent = field(form, "intent", 40);
  if (!(intent in SIGN_IN_MESSAGES)) return reply({ ok: false, intent, message: GUESS_WIN_MESSAGES.unknown }, 400);
  if (!user) return reply({ ok: false, intent, message: SIGN_IN_MESSAGES[intent] }, 401);

  const gameId = field(form, "gameId", 100);
  const game = gameId ? await getActiveGameForGuess(db, gameId) : undefined;
  if (!game) return reply({ ok: false, intent, gameId, message: GUESS_WIN_MESSAGES.gameNotFound }, 404);

  if (intent === "share") {
    const count = await recordGameShare(db, user.id, game);
    return reply({ ok: true, intent, gameId, count });
  }
  if (intent === "like" || intent === "save") {
    const on = field(form, "on", 5) !== "false";
    if (intent === "like") {
      const count = await setGameLike(db, user.id, game.id, on);
      return reply({ ok: true, intent, gameId, on, count });
    }
    await setGameSave(db, user.id, game.id, on);
    return reply({ ok: true, intent, gameId, on });
  }

  // free-guess
  if (game.hostId === user.id) return reply({ ok: false, intent, gameId, message: GUESS_MESSAGES.ownGame }, 403);
  const answer = field(form, "answer");
  if (!answer || !game.options.includes(answer)) {
    return reply({ ok: false, intent, gameId, message: GUESS_WIN_MESSAGES.selectAnswer }, 400);
  }
  // A free guess counts only for a confirmed account, so throw-away sign-ups cannot collect entries.
  if (!user.emailConfirmed) return reply({ ok: false, intent, gameId, message: GUESS_WIN_MESSAGES.confirmEmail }, 403);
  const eligibility = await freeGuessEligibility(db, user.id, game);
  if (eligibility === "used") return reply({ ok: false, intent, gameId, message: GUESS_WIN_MESSAGES.freeUsed }, 409);
  if (eligibility !== "eligible")
    return reply({ ok: false, intent, gameId, message: GUESS_WIN_MESSAGES.shareForFree }, 403);
  const isCorrect = answer === game.correctAnswer;
  let spent: Awaited<ReturnType<typeof insertFreeGuess>>;
  try {
    spent = await insertFreeGuess(db, { userId: user.id, gameId: game.id, answer, isCorrect, currency: "USD" });
  } catch (error) {
    console.error("guess-win: free guess failed", { gameId, error });
    return reply({ ok: false, intent, gameId, message: GUESS_WIN_MESSAGES.freeFailed }, 500);
  }
  if (!spent) return reply({ ok: false, intent, gameId, message: GUESS_WIN_MESSAGES.freeUsed }, 409);
  // Sealed: no entry now. A correct guess earns its entry when the host's pool round closes (the pool object
  // appends one per correct guess confirmed before its game ended).
  // The same answer whether right or wrong: correctness stays on the server while the game runs.
  return reply({ ok: true, intent, gameId, message: freeGuessSubmittedMessage(answer) });
}

// --- UI --------------------------------------------------------------------------------------------------------

function useNow(initial: number): number {
  const [now, setNow] = useState(initial);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export default function GuessWin({ loaderData }: Route.ComponentProps) {
  const [games, setGames] = useState<FeedGame[]>(loaderData.games);
  const [page, setPage] = useState(loaderData.page);
  const [hasMore, setHasMore] = useState(loaderData.hasMore);
  const [currency, setCurrency] = useState<SupportedCurrency>(loaderData.currency);
  const more = useFetcher<typeof loader>();
  const now = useNow(loaderData.now);

  // A revalidation (after an action) refreshes the games it returns and keeps the pages loaded since; a
  // navigation to another page of the feed replaces the list.
  useEffect(() => {
    setGames((list) => {
      const ids = new Set(list.map((g) => g.id));
      if (!loaderData.games.every((g) => ids.has(g.id))) {
        setPage(loaderData.page);
        setHasMore(loaderData.hasMore);
        return loaderData.games;
      }
      const fresh = new Map(loaderData.games.map((g) => [g.id, g]));
      return list.map((g) => fresh.get(g.id) ?? g);
    });
  }, [loaderData]);

  // A navigation that names another currency (?currency=) starts the select on it.
  useEffect(() => setCurrency(loaderData.currency), [loaderData.currency]);

  useEffect(() => {
    const next = more.data;
    if (!next || more.state !== "idle") return;
    setGames((list) => {
      const seen = new Set(list.map((g) => g.id));
      return [...list, ...next.games.filter((g) => !seen.has(g.id))];
    });
    setPage(next.page);
    setHasMore(next.hasMore);
  }, [more.data, more.state]);

  const groups = useMemo(() => {
    const byHost = new Map<string, FeedGame[]>();
    for (const game of games) byHost.set(game.hostId, [...(byHost.get(game.hostId) ?? []), game]);
    return [...byHost.values()];
  }, [games]);

  return (
    <Page
      title="Guess & Win"
      subtitle="Entry fees go 100% to the host's prize pool. Only a correct guess earns an entry number to the main prize, given when the game ends."
      actions={
        <label className="flex items-center gap-2 text-sm text-gray-700">
          Currency
          <select
            name="currency"
            value={currency}
            onChange={(e) => isSupportedCurrency(e.target.value) && setCurrency(e.target.value)}
            className="rounded-lg border border-gray-300 bg-white px-2 py-1.5 text-sm"
          >
            {CURRENCIES.map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} ({c.symbol})
              </option>
            ))}
          </select>
        </label>
      }
    >
      {loaderData.banner ? (
        <p
          role="status"
          className="mb-4 rounded-lg border border-green-200 bg-green-50 p-3 text-sm font-medium text-green-800"
        >
          {loaderData.banner}
          {loaderData.late ? null : <span className="mt-1 block font-normal">{GUESS_WIN_MESSAGES.sealed}</span>}
        </p>
      ) : null}
      {games.length === 0 ? (
        page > 1 ? (
          // Past the last page (an old or hand-made address): there are games, just not this far.
          <EmptyState
            title="No more games"
            message="There are no more games on this page."
            action={{ to: "/guess-win", label: "Back to the first page" }}
          />
        ) : (
          <EmptyState title="No active Guess & Win games yet" message="When hosts publish games they appear here." />
        )
      ) : (
        <div className="space-y-8">
          {groups.map((group) => (
            <section key={group[0]!.hostId} aria-label={group[0]!.hostName} className="space-y-4">
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {group.map((game) => (
                  <li key={game.id} id={`game-${game.id}`} className="scroll-mt-20">
                    <FeedCard
                      game={game}
                      currency={currency}
                      now={now}
                      signedIn={loaderData.signedIn}
                      isOwnGame={game.hostId === loaderData.viewerId}
                    />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      {hasMore ? (
        <more.Form method="get" action="/guess-win" className="mt-8 flex justify-center">
          <input type="hidden" name="page" value={page + 1} />
          {/* The next page's amounts are formatted here, in the select's currency: its loader need not read the viewer's country. */}
          <input type="hidden" name="currency" value={currency} />
          <button type="submit" className={buttonClass("secondary")} disabled={more.state !== "idle"}>
            {more.state !== "idle" ? "Loading..." : "Load More"}
          </button>
        </more.Form>
      ) : null}
    </Page>
  );
}

function FeedCard({
  game,
  currency,
  now,
  signedIn,
  isOwnGame,
}: {
  game: FeedGame;
  currency: SupportedCurrency;
  now: number;
  signedIn: boolean;
  isOwnGame: boolean;
}) {
  const toast = useToast();
  const navigate = useNavigate();
  const [answer, setAnswer] = useState<string | null>(null);
  const [expanded, setExpanded] = useState(false);
  const [liked, setLiked] = useState(game.liked);
  const [likes, setLikes] = useState(game.likesCount);
  const [saved, setSaved] = useState(game.saved);
  const tribe = useFetcher<TribeJoinResult>();
  const share = useFetcher<GuessWinActionData>();
  const like = useFetcher<GuessWinActionData>();
  const save = useFetcher<GuessWinActionData>();
  const free = useFetcher<GuessWinActionData>();
  const before = useRef({ liked: game.liked, likes: game.likesCount, saved: game.saved });

  useEffect(() => {
    setLiked(game.liked);
    setLikes(game.likesCount);
    setSaved(game.saved);
  }, [game.liked, game.likesCount, game.saved]);

  const signInFirst = (message: string) => {
    toast({ message, type: "error" });
    navigate(`/signin?redirectTo=${encodeURIComponent("/guess-win")}`);
  };

  // Results of the fetchers: messages, and rollback of an optimistic toggle that failed.
  useEffect(() => {
    const d = tribe.data;
    if (tribe.state === "idle" && d?.message) toast({ message: d.message, type: d.ok ? "success" : "error" });
  }, [tribe.data, tribe.state]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const d = free.data;
    if (free.state === "idle" && d?.message) toast({ message: d.message, type: d.ok ? "success" : "error" });
  }, [free.data, free.state]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const d = like.data;
    if (like.state !== "idle" || !d) return;
    if (d.ok && typeof d.count === "number") setLikes(d.count);
    if (!d.ok) {
      setLiked(before.current.liked);
      setLikes(before.current.likes);
      if (d.message) toast({ message: d.message, type: "error" });
    }
  }, [like.data, like.state]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const d = save.data;
    if (save.state !== "idle" || !d) return;
    if (!d.ok) {
      setSaved(before.current.saved);
      if (d.message) toast({ message: d.message, type: "error" });
    }
  }, [save.data, save.state]); // eslint-disable-line react-hooks/exhaustive-deps

  const onLike = () => {
    if (!signedIn) return signInFirst(GUESS_WIN_MESSAGES.signInLike);
    before.current = { ...before.current, liked, likes };
    const on = !liked;
    setLiked(on);
    setLikes((n) => Math.max(0, n + (on ? 1 : -1)));
    like.submit({ intent: "like", gameId: game.id, on: String(on) }, { method: "post", action: "/guess-win" });
  };
  const onSave = () => {
    if (!signedIn) return signInFirst(GUESS_WIN_MESSAGES.signInSave);
    before.current = { ...before.current, saved };
    setSaved(!saved);
    save.submit({ intent: "save", gameId: game.id, on: String(!saved) }, { method: "post", action: "/guess-win" });
  };
  const onShare = async () => {
    if (!signedIn) return signInFirst(GUESS_WIN_MESSAGES.signInShare);
    share.submit({ intent: "share", gameId: game.id }, { method: "post", action: "/guess-win" });
    const link = `${window.location.origin}/view-game/${game.id}`;
    try {
      if (typeof navigator.share === "function") {
        await navigator.share({ title: game.question, url: link });
        return;
      }
    } catch {
      // Cancelled or refused: fall back to copying the link.
    }
    try {
      await navigator.clipboard.writeText(link);
      toast({ message: GUESS_WIN_MESSAGES.linkCopied, type: "success", durationMs: 2000 });
    } catch (error) {
      console.error("share: could not copy the link", error);
    }
  };
  const onFree = () => {
    if (!signedIn) return signInFirst(GUESS_WIN_MESSAGES.signInPlay);
    if (!answer) return toast({ message: GUESS_WIN_MESSAGES.selectAnswer, type: "error" });
    free.submit({ intent: "free-guess", gameId: game.id, answer }, { method: "post", action: "/guess-win" });
  };
  const onPaid = () => {
    if (!signedIn) return signInFirst(GUESS_WIN_MESSAGES.signInPlay);
    if (!answer) return toast({ message: GUESS_WIN_MESSAGES.selectAnswer, type: "error" });
    navigate(`/payment?game=${encodeURIComponent(game.id)}&answer=${encodeURIComponent(answer)}`);
  };

  const joined = game.member || (tribe.data?.ok ?? false) || tribe.data?.outcome === "already";
  const freeDone = game.freeUsed || (free.data?.ok ?? false);
  const shared = game.shared || (share.data?.ok ?? false);
  const shares = share.data?.ok && typeof share.data.count === "number" ? share.data.count : game.sharesCount;
  const options = expanded ? game.options : game.options.slice(0, SHOWN_OPTIONS);
  const pool = game.pool;
  const progress = pool ? poolProgressPercent(pool.amountCents, pool.targetCents) : 0;
  // The strip follows the pool live over the page's one socket (public/page.js).
  const follow = (field: PoolDisplayField) => livePoolAttributes(pool?.id, field, currency);

  return (
    <article className="flex h-full flex-col overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm">
      <header className="flex items-center justify-between gap-2 p-3">
        <Link to={`/profile/${game.hostId}`} className="flex min-w-0 items-center gap-2 hover:underline">
          {game.hostAvatarUrl ? (
            <img src={game.hostAvatarUrl} alt="" width={32} height={32} className="h-8 w-8 rounded-full object-cover" />
          ) : (
            <span
              aria-hidden="true"
              className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-100 text-sm font-bold text-brand-700"
            >
              {game.hostName.slice(0, 1).toUpperCase()}
            </span>
          )}
          <span className="truncate text-sm font-semibold text-gray-900">{game.hostName}</span>
        </Link>
        {isOwnGame ? null : (
          <tribe.Form method="post" action="/tribe/join">
            <input type="hidden" name="hostId" value={game.hostId} />
            <button
              type="submit"
              disabled={joined || tribe.state !== "idle"}
              onClick={(e) => {
                if (!signedIn) {
                  e.preventDefault();
                  signInFirst(TRIBE_JOIN_MESSAGES["sign-in"]);
                }
              }}
              className={buttonClass(joined ? "secondary" : "primary", "sm")}
            >
              {joined ? "Tribe Member" : "Join Tribe"}
            </button>
          </tribe.Form>
        )}
      </header>

      <div className="grid grid-cols-3 gap-2 border-y border-gray-100 bg-gray-50 px-3 py-2 text-xs">
        <div>
          <p className="text-gray-500">Prize pool</p>
          <p className="font-semibold text-gray-900" {...follow("amount")}>
            {pool ? formatIn(pool.amountCents, pool.currency, currency) : "Inactive"}
          </p>
        </div>
        <div>
          <p className="text-gray-500">Target</p>
          <p className="font-semibold text-gray-900" {...follow("target")}>
            {pool ? formatIn(pool.targetCents, pool.currency, currency) : "—"}
          </p>
        </div>
        <div>
          <p className="text-gray-500">Ends in</p>
          <p className="font-semibold tabular-nums text-gray-900">
            {pool ? countdownText(pool.endAt, new Date(now)) : "—"}
          </p>
        </div>
        {pool ? (
          <div className="col-span-3 h-1.5 overflow-hidden rounded-full bg-gray-200" aria-hidden="true">
            <div className="h-full bg-brand-600" style={{ width: `${progress}%` }} {...follow("bar")} />
          </div>
        ) : null}
      </div>

      {game.videoUrl ? (
        <video
          src={game.videoUrl}
          controls
          preload="metadata"
          playsInline
          className="aspect-video w-full bg-black object-contain"
        />
      ) : game.imageUrl ? (
        <img src={game.imageUrl} alt="" loading="lazy" className="aspect-video w-full object-cover" />
      ) : null}

      <div className="flex flex-1 flex-col p-4">
        <div className="flex items-center justify-between text-sm text-gray-600">
          <div className="flex items-center gap-3">
            <button type="button" onClick={onLike} aria-pressed={liked} className="hover:text-brand-700">
              {liked ? "♥" : "♡"} <span>{likes}</span>
              <span className="sr-only"> likes</span>
            </button>
            <span>
              💬 {game.commentsCount}
              <span className="sr-only"> comments</span>
            </span>
            <button type="button" onClick={onShare} className="hover:text-brand-700">
              ↗ <span>{shares}</span>
              <span className="sr-only"> shares</span>
            </button>
          </div>
          <button
            type="button"
            onClick={onSave}
            aria-pressed={saved}
            className="text-sm font-medium hover:text-brand-700"
          >
            {saved ? "Saved" : "Save"}
          </button>
        </div>

        <h2 className="mt-3 font-semibold text-gray-900">{game.question}</h2>
        {game.options.length === 0 ? (
          <p className="mt-3 text-sm text-gray-500">{GUESS_WIN_MESSAGES.noOptions}</p>
        ) : (
          <fieldset className="mt-3">
            <legend className="sr-only">Choose your answer</legend>
            <div className="grid grid-cols-2 gap-2">
              {options.map((option) => (
                <label
                  key={option}
                  className={`cursor-pointer truncate rounded-lg border px-2 py-1.5 text-sm ${
                    answer === option
                      ? "border-brand-600 bg-brand-50 font-semibold text-brand-800"
                      : "border-gray-200 text-gray-700"
                  }`}
                >
                  <input
                    type="radio"
                    name={`answer-${game.id}`}
                    value={option}
                    checked={answer === option}
                    onChange={() => setAnswer(option)}
                    className="sr-only"
                  />
                  {option}
                </label>
              ))}
            </div>
            {game.options.length > SHOWN_OPTIONS ? (
              <button
                type="button"
                onClick={() => setExpanded((v) => !v)}
                className="mt-2 text-xs font-medium text-brand-700 hover:underline"
              >
                {expanded ? "Show less" : `Show more (${game.options.length - SHOWN_OPTIONS})`}
              </button>
            ) : null}
          </fieldset>
        )}

        <p className="mt-3 text-xs text-gray-600">
          Entry from{" "}
          <span className="font-semibold text-gray-900">{formatIn(game.entryFeeCents, game.currency, currency)}</span>
          {currency !== "USD" ? " (charged in USD)" : null} · {game.participantsCount} players
        </p>
        <p className="mt-1 text-xs font-medium text-brand-700">
          {signedIn && game.freeEligible && !freeDone
            ? GUESS_WIN_MESSAGES.freeAvailable
            : freeDone
              ? "Free guess used · sealed until the game ends"
              : GUESS_WIN_MESSAGES.shareForFree}
        </p>

        <div className="mt-auto flex gap-2 pt-4">
          {signedIn && (game.freeEligible || (shared && joined)) && !freeDone ? (
            <button
              type="button"
              onClick={onFree}
              disabled={!answer || free.state !== "idle"}
              className={buttonClass("secondary", "md", "flex-1")}
            >
              {free.state !== "idle" ? "Submitting..." : "Free Guess"}
            </button>
          ) : null}
          <button type="button" onClick={onPaid} disabled={!answer} className={buttonClass("primary", "md", "flex-1")}>
            Paid Guess
          </button>
        </div>
      </div>
    </article>
  );
}
