import { useEffect, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { CommentIcon, HeartIcon, ShareIcon } from "~/components/icons";
import { Link } from "~/components/link";
import { buttonClass } from "~/components/page";
import { useToast } from "~/components/toaster";
import { countdownText } from "~/domain/countdown";
import { formatIn, type SupportedCurrency } from "~/domain/currency";
import { poolProgressPercent } from "~/domain/pool";
import { livePoolAttributes, type PoolDisplayField } from "~/domain/pool-display";
import { TRIBE_JOIN_MESSAGES, type TribeJoinResult } from "~/domain/tribe";
import { GUESS_WIN_MESSAGES, SHOWN_OPTIONS, type FeedGame, type GuessWinActionData } from "~/lib/guess-win";

/** One game of the Guess & Win feed: host, pool strip, question, options, like/save/share and the guess buttons. */
export function FeedCard({
  game,
  currency,
  now,
  signedIn,
  isOwnGame,
  refusal = null,
}: {
  game: FeedGame;
  currency: SupportedCurrency;
  now: number;
  signedIn: boolean;
  isOwnGame: boolean;
  /** Why this viewer may not guess at all (sessionRefusal: staff), shown instead of the guess buttons. */
  refusal?: string | null;
}) {
  // No guess on one's own game, nor by an account that may not enter (the server refuses both too).
  const barred = isOwnGame || refusal !== null;
  const toast = useToast();
  const navigate = useNavigate();
  const [answer, setAnswer] = useState<string | null>(null);
  const [expanded, setExpanded] = useState(false);
  const tribe = useFetcher<TribeJoinResult>();
  const share = useFetcher<GuessWinActionData>();
  const like = useFetcher<GuessWinActionData>();
  const save = useFetcher<GuessWinActionData>();
  const free = useFetcher<GuessWinActionData>();
  // Like and save are optimistic: `mine` is what the viewer's last click set, `before` what it replaced (shown again
  // when the request fails). The game's own figures reset both when the loaders bring new ones.
  const fromGame = { liked: game.liked, likes: game.likesCount, saved: game.saved };
  const [mine, setMine] = useState(fromGame);
  const [before, setBefore] = useState(fromGame);
  const [seen, setSeen] = useState(fromGame);
  if (seen.liked !== fromGame.liked || seen.likes !== fromGame.likes || seen.saved !== fromGame.saved) {
    setSeen(fromGame);
    setMine(fromGame);
  }
  const likeFailed = like.state === "idle" && like.data?.ok === false;
  const likeCount =
    like.state === "idle" && like.data?.ok && typeof like.data.count === "number" ? like.data.count : null;
  const liked = likeFailed ? before.liked : mine.liked;
  const likes = likeFailed ? before.likes : (likeCount ?? mine.likes);
  const saved = save.state === "idle" && save.data?.ok === false ? before.saved : mine.saved;

  const signInFirst = (message: string) => {
    toast({ message, type: "error" });
    navigate(`/signin?redirectTo=${encodeURIComponent("/guess-win")}`);
  };

  // Results of the fetchers: their messages (a failed like or save is rolled back above, while rendering).
  useEffect(() => {
    const d = tribe.data;
    if (tribe.state === "idle" && d?.message) toast({ message: d.message, type: d.ok ? "success" : "error" });
  }, [tribe.data, tribe.state, toast]);
  useEffect(() => {
    const d = free.data;
    if (free.state === "idle" && d?.message) toast({ message: d.message, type: d.ok ? "success" : "error" });
  }, [free.data, free.state, toast]);
  useEffect(() => {
    const d = like.data;
    if (like.state === "idle" && d && !d.ok && d.message) toast({ message: d.message, type: "error" });
  }, [like.data, like.state, toast]);
  useEffect(() => {
    const d = save.data;
    if (save.state === "idle" && d && !d.ok && d.message) toast({ message: d.message, type: "error" });
  }, [save.data, save.state, toast]);

  const onLike = () => {
    if (!signedIn) return signInFirst(GUESS_WIN_MESSAGES.signInLike);
    const on = !liked;
    setBefore({ ...before, liked, likes });
    setMine({ ...mine, liked: on, likes: Math.max(0, likes + (on ? 1 : -1)) });
    like.submit({ intent: "like", gameId: game.id, on: String(on) }, { method: "post", action: "/guess-win" });
  };
  const onSave = () => {
    if (!signedIn) return signInFirst(GUESS_WIN_MESSAGES.signInSave);
    setBefore({ ...before, saved });
    setMine({ ...mine, saved: !saved });
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
              <HeartIcon filled={liked} /> <span>{likes}</span>
              <span className="sr-only"> likes</span>
            </button>
            <span>
              <CommentIcon /> {game.commentsCount}
              <span className="sr-only"> comments</span>
            </span>
            <button type="button" onClick={onShare} className="hover:text-brand-700">
              <ShareIcon /> <span>{shares}</span>
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
                  {/* A host cannot guess on their own game, nor staff on any (the server refuses them too). */}
                  {barred ? null : (
                    <input
                      type="radio"
                      name={`answer-${game.id}`}
                      value={option}
                      checked={answer === option}
                      onChange={() => setAnswer(option)}
                      className="sr-only"
                    />
                  )}
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
          {isOwnGame
            ? GUESS_WIN_MESSAGES.ownGame
            : refusal !== null
              ? refusal
              : signedIn && game.freeEligible && !freeDone
                ? GUESS_WIN_MESSAGES.freeAvailable
                : freeDone
                  ? "Free guess used · sealed until the game ends"
                  : GUESS_WIN_MESSAGES.shareForFree}
        </p>

        <div className="mt-auto flex gap-2 pt-4">
          {isOwnGame ? (
            <Link to={`/view-game/${game.id}`} className={buttonClass("secondary", "md", "flex-1")}>
              View Game
            </Link>
          ) : null}
          {!barred && signedIn && (game.freeEligible || (shared && joined)) && !freeDone ? (
            <button
              type="button"
              onClick={onFree}
              disabled={!answer || free.state !== "idle"}
              className={buttonClass("secondary", "md", "flex-1")}
            >
              {free.state !== "idle" ? "Submitting..." : "Free Guess"}
            </button>
          ) : null}
          {barred ? null : (
            <button
              type="button"
              onClick={onPaid}
              disabled={!answer}
              className={buttonClass("primary", "md", "flex-1")}
            >
              Paid Guess
            </button>
          )}
        </div>
      </div>
    </article>
  );
}
