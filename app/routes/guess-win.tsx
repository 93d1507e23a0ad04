import { useEffect, useMemo, useState } from "react";
import { data, redirect, useFetcher } from "react-router";
import { EmptyState, Page, pageMeta, buttonClass } from "~/components/page";
import { getDb } from "~/db/client.server";
import {
  activeGameFeedPage,
  freeGuessEligibility,
  getActiveGameForGuess,
  getFanGameState,
  insertFreeGuess,
  listActiveGamesPage,
  listOpenPoolsForHosts,
  listSavedGamesPage,
  recordGameShare,
  setGameLike,
  setGameSave,
} from "~/db/queries/games.server";
import { CurrencyChoiceForm, CurrencySelect } from "~/components/shop-ui";
import { viewerCurrency } from "~/lib/currency.server";
import { getOptionalUser, viewerSession } from "~/lib/auth.server";
import { signinRedirectUrl } from "~/lib/guards.server";
import { TabNav } from "~/components/tab-nav";
import { SAVED_GAMES_TAB } from "~/domain/saved-lists";
import { getEnv } from "~/lib/context";
import { entryRefusal } from "~/lib/entry-eligibility.server";
import { describeCheckout } from "~/lib/payments/webhook/confirm.server";
import { GUESS_MESSAGES } from "~/lib/payments/checkout/quote.server";
import { getGuessByPaymentKey } from "~/db/queries/guesses.server";
import { getViewerPlace } from "~/db/queries/profiles.server";
import { LATE_GUESS_REASON } from "~/lib/payments/fulfil/fulfil-guess.server";
import { FeedCard } from "~/components/guess-win-feed-card";
import { sessionRefusal } from "~/domain/eligibility";
import {
  GUESS_WIN_MESSAGES,
  freeGuessSubmittedMessage,
  paymentBannerMessage,
  type FeedGame,
  type GuessWinActionData,
} from "~/lib/guess-win";
import type { Route } from "./+types/guess-win";

export const meta: Route.MetaFunction = () =>
  pageMeta("Guess & Win", "Answer a host's question; a correct guess earns an entry to the main prize.");

const MAX_PAGE = 500;

function pageOf(url: URL): number {
  const n = Number(url.searchParams.get("page") ?? "1");
  return Number.isSafeInteger(n) && n >= 1 ? Math.min(n, MAX_PAGE) : 1;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const env = getEnv(context);
  const db = getDb(env);
  const url = new URL(request.url);
  const session = viewerSession(context);
  // "Saved" (?tab=saved): the signed-in fan's saved games, newest save first (docs/product.md#guess-and-win,
  // decision 610); a visitor choosing it is asked to sign in first.
  const saved = url.searchParams.get("tab") === SAVED_GAMES_TAB;
  if (saved && !session) throw redirect(signinRedirectUrl(request));
  // The viewer's country and chosen currency, and their saved games, are named by the session, so they go to D1 with
  // the session's lookup; the place is not read when the address names a currency (the feed's Load More).
  const [user, viewerPlace, savedPage] = await Promise.all([
    getOptionalUser(context),
    session && !url.searchParams.get("currency") ? getViewerPlace(db, session) : undefined,
    saved && session ? listSavedGamesPage(db, session, { page: pageOf(url) }) : null,
  ]);
  if (saved && !user) throw redirect(signinRedirectUrl(request));
  // ?game={id} (a profile's Free Guess link) opens the page that shows that game; its card is #game-{id}.
  const linkedGame = saved ? null : url.searchParams.get("game");
  const linkedPage =
    linkedGame && !url.searchParams.has("page") ? await activeGameFeedPage(db, linkedGame.slice(0, 64)) : null;
  const page = linkedPage ? Math.min(linkedPage, MAX_PAGE) : pageOf(url);
  const { games, hasMore } = savedPage ?? (await listActiveGamesPage(db, { page }));
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
      const guess = await getGuessByPaymentKey(db, confirmed.sessionId);
      late = guess !== undefined && guess.confirmedAt === null;
      banner = late
        ? LATE_GUESS_REASON
        : paymentBannerMessage(confirmed.game_question ?? confirmed.description, confirmed.selected_answer ?? "");
    }
  }

  return {
    tab: saved ? SAVED_GAMES_TAB : null,
    page,
    hasMore,
    // The currency the select starts on and the amounts are shown in (the viewer may switch it in the page).
    currency: viewerCurrency(request, viewerPlace),
    banner,
    late,
    signedIn: user !== null,
    viewerId: user?.id ?? null,
    // Staff see why they cannot guess instead of the guess buttons (checkout refuses them too).
    refusal: sessionRefusal(user?.role),
    now: Date.now(),
    games: games.map((game): FeedGame => {
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
  // A free guess can earn an entry: the same eligibility as every entry route (age, place, self-exclusion).
  const refusal = await entryRefusal(getEnv(context), {
    userId: user.id,
    hostId: game.hostId,
    route: "free_entry",
    now: new Date(),
  });
  if (refusal) return reply({ ok: false, intent, gameId, message: refusal.message }, 403);
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
  const currency = loaderData.currency;
  const more = useFetcher<typeof loader>();
  const now = useNow(loaderData.now);

  // A revalidation (after an action) refreshes the games it returns and keeps the pages loaded since; a
  // navigation to another page of the feed replaces the list. (State adjusted while rendering, once per answer.)
  const [seenLoad, setSeenLoad] = useState(loaderData);
  if (seenLoad !== loaderData) {
    setSeenLoad(loaderData);
    const ids = new Set(games.map((g) => g.id));
    if (loaderData.tab !== seenLoad.tab || !loaderData.games.every((g) => ids.has(g.id))) {
      setGames(loaderData.games);
      setPage(loaderData.page);
      setHasMore(loaderData.hasMore);
    } else {
      const fresh = new Map(loaderData.games.map((g) => [g.id, g]));
      setGames(games.map((g) => fresh.get(g.id) ?? g));
    }
  }

  // "Load More": the next page's games are appended once its answer arrives.
  const [seenMore, setSeenMore] = useState(more.data);
  if (more.state === "idle" && more.data && more.data !== seenMore) {
    const next = more.data;
    setSeenMore(next);
    const seen = new Set(games.map((g) => g.id));
    setGames([...games, ...next.games.filter((g) => !seen.has(g.id))]);
    setPage(next.page);
    setHasMore(next.hasMore);
  }

  const tabHref = loaderData.tab ? `/guess-win?tab=${loaderData.tab}` : "/guess-win";

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
        <>
          <CurrencySelect value={currency} />
          <CurrencyChoiceForm />
        </>
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
      <TabNav
        label="Guess & Win lists"
        tabs={[
          { id: "all", label: "All Games", href: "/guess-win" },
          { id: SAVED_GAMES_TAB, label: "Saved", href: `/guess-win?tab=${SAVED_GAMES_TAB}` },
        ]}
        current={loaderData.tab ?? "all"}
      />
      {games.length === 0 ? (
        page > 1 ? (
          // Past the last page (an old or hand-made address): there are games, just not this far.
          <EmptyState
            title="No more games"
            message="There are no more games on this page."
            action={{ to: tabHref, label: "Back to the first page" }}
          />
        ) : loaderData.tab ? (
          <EmptyState
            title="No saved games yet"
            message="Tap Save on a game to keep it here."
            action={{ to: "/guess-win", label: "See all games" }}
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
                      refusal={loaderData.refusal}
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
          {loaderData.tab ? <input type="hidden" name="tab" value={loaderData.tab} /> : null}
          {/* The next page's amounts are formatted in this page's currency: its loader need not read the viewer's place. */}
          <input type="hidden" name="currency" value={currency} />
          <button type="submit" className={buttonClass("secondary")} disabled={more.state !== "idle"}>
            {more.state !== "idle" ? "Loading..." : "Load More"}
          </button>
        </more.Form>
      ) : null}
    </Page>
  );
}
