import { useEffect, type ReactNode } from "react";
import { FreeEntryLink } from "~/components/free-entry-link";
import { data, isRouteErrorResponse, useFetcher } from "react-router";
import { Link } from "~/components/link";
import { TabNav } from "~/components/tab-nav";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Badge, Button, buttonClass, Card, DateText, EmptyState, pageMeta, Pagination } from "~/components/page";
import {
  Countdown,
  CurrencyChoiceForm,
  CurrencySelect,
  displayCents,
  formatIn,
  priceRangeText,
  ProductTiles,
} from "~/components/shop-ui";
import { useToast } from "~/components/toaster";
import { usePoolLive } from "~/components/use-pool-live";
import { getDb } from "~/db/client.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { listActiveGames } from "~/db/queries/games.server";
import { countViewerEntries, getCurrentPool } from "~/db/queries/pools.server";
import { listPoolMiniPrizes } from "~/db/queries/mini-prizes.server";
import { listShopProducts } from "~/db/queries/products.server";
import {
  getActiveGroupBuyOffer,
  getProfileByIdOrSlug,
  getViewerPlace,
  isTribeMember,
  listHostPoolWinners,
  listShippingCountryCodes,
  listUserEntryNumbers,
} from "~/db/queries/profiles.server";
import { countdownText } from "~/domain/countdown";
import { countryByCode, type SupportedCurrency } from "~/domain/currency";
import { viewerCurrency } from "~/lib/currency.server";
import { formatCents, progressPercent } from "~/domain/money";
import { miniPrizeQuantityText } from "~/domain/pool";
import { WINNER_PUBLICITY_TEXT } from "~/domain/prize-claims";
import { livePoolAttributes, type PoolDisplayField } from "~/domain/pool-display";
import { distributePool, poolShareText } from "~/domain/revenue";
import { TRIBE_JOIN_MESSAGES, tribeJoinOutcome, tribeJoinResult, type TribeJoinResult } from "~/domain/tribe";
import { getOptionalUser, viewerSession } from "~/lib/auth.server";
import { idParam, notFound, pageParam } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import type { Route } from "./+types/profile";

const TABS = [
  { id: "shop", label: "Shop" },
  { id: "games", label: "Guess & Win" },
  { id: "winner", label: "Winner" },
] as const;
type Tab = (typeof TABS)[number]["id"];

const COMING_SOON_MESSAGE = "Ahhh! Your country is still in 'coming soon' mode for this brand.";

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData?.profile.creatorName ?? errorTitle(error, "Creator Not Found"));

/** Not found unless the viewer may see the profile; a private one shows others only that it is private. */
function assertVisible(
  profile: Awaited<ReturnType<typeof getProfileByIdOrSlug>>,
  own: boolean,
): asserts profile is NonNullable<typeof profile> {
  if (!profile || (!own && profile.status !== "active")) notFound();
  if (!own && !profile.profilePublic)
    throw data({ privateProfile: true, creatorName: profile.creatorName }, { status: 403 });
}

/** This page's address without a previous join's outcome: where a Join Tribe posted without JavaScript returns. */
function joinReturnTo(url: URL): string {
  if (!url.searchParams.has("tribe")) return url.pathname + url.search;
  const search = new URLSearchParams(url.searchParams);
  search.delete("tribe");
  const text = search.toString();
  return text ? `${url.pathname}?${text}` : url.pathname;
}

/** Games and winners per page of the profile's Guess & Win and Winner tabs. */
const GAMES_PAGE_SIZE = 12;
const WINNERS_PAGE_SIZE = 20;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const key = idParam(params.id);
  const db = getDb(getEnv(context));
  const session = viewerSession(context);
  const url = new URL(request.url);
  const search = url.searchParams;
  const requested = search.get("tab");
  const outcome = tribeJoinOutcome(search.get("tribe"));
  const tab: Tab = TABS.some((t) => t.id === requested) ? (requested as Tab) : "shop";
  // The Guess & Win and Winner tabs page through all of the host's games and winners (the shop tab links to the
  // paged shop instead).
  const page = tab === "shop" ? 1 : pageParam(request);
  const now = new Date();

  // One batch: the profile, and every read keyed by its host through the page's address (each read resolves the
  // host's id from it in SQL, and the host's current pool the same way). The shop tab's products are read even when the viewer's country turns out
  // to be "coming soon" (then they are not shown); nothing is shown before the visibility check below.
  const address = { idOrSlug: key };
  // The viewer's own reads name them by their session, so the session's lookup goes in the same batch.
  const [
    viewer,
    profile,
    pool,
    viewerPlace,
    shipsTo,
    member,
    rules,
    shopProducts,
    activeGroupBuy,
    games,
    winners,
    miniPrizes,
    poolEntryNumbers,
    viewerEntries,
  ] = await Promise.all([
    getOptionalUser(context),
    getProfileByIdOrSlug(db, key),
    getCurrentPool(db, address),
    session ? getViewerPlace(db, session) : undefined,
    listShippingCountryCodes(db, address),
    session ? isTribeMember(db, session, address) : false,
    getRevenueRules(db),
    tab === "shop" ? listShopProducts(db, { hostId: address, limit: 12 }) : null,
    tab === "shop" ? getActiveGroupBuyOffer(db, address, now) : undefined,
    tab === "games"
      ? listActiveGames(db, { hostId: address, limit: GAMES_PAGE_SIZE + 1, offset: (page - 1) * GAMES_PAGE_SIZE })
      : null,
    tab === "winner" ? listHostPoolWinners(db, address, WINNERS_PAGE_SIZE + 1, (page - 1) * WINNERS_PAGE_SIZE) : null,
    listPoolMiniPrizes(db, { currentOf: address }),
    session ? listUserEntryNumbers(db, { currentOf: address }, session) : ([] as number[]),
    // "Your entries: N of M": the signed-in viewer's own valid entries (their page is never cached).
    session ? countViewerEntries(db, address, session) : null,
  ]);
  const own = profile !== undefined && profile.userId === viewer?.id;
  assertVisible(profile, own);
  const country = countryByCode(profile.country);
  // The viewer's currency (decision 620: chosen and remembered, else their country's, else MYR), as on every page.
  const currency: SupportedCurrency = viewerCurrency(request, viewerPlace);
  const viewerCountry = viewerPlace?.country;
  // Coming soon: the signed-in viewer's country is not among the countries this host ships to (when they chose any).
  const comingSoon =
    !own && viewerCountry !== undefined && shipsTo.length > 0 && !shipsTo.includes(countryByCode(viewerCountry).code);
  const openPool = pool?.status === "open" ? pool : null;
  const products = comingSoon ? null : shopProducts;
  const groupBuy = comingSoon ? undefined : activeGroupBuy;
  // Entry numbers are shown for an open pool only.
  const entryNumbers = openPool ? poolEntryNumbers : [];

  return {
    poolShare: poolShareText(rules, "shop_sales"),
    profile: {
      userId: profile.userId,
      slug: profile.slug,
      creatorName: profile.creatorName,
      bio: profile.bio,
      category: profile.category,
      avatarUrl: profile.avatarUrl,
      coverImageUrl: profile.coverImageUrl,
      verified: profile.verified,
      followersCount: profile.followersCount,
      revenue: profile.showRevenue ? formatCents(profile.totalRevenueCents, profile.currency) : null,
    },
    own,
    viewerId: viewer?.id ?? null,
    member: !own && member,
    // A Join Tribe posted without JavaScript comes back here with its outcome (/tribe/join), shown like a fetcher's.
    tribeJoin: outcome ? tribeJoinResult(outcome) : null,
    joinReturnTo: joinReturnTo(url),
    tab,
    currency,
    // The tabs' and pages' links keep a currency the viewer chose; otherwise the rule picks it again.
    currencyChosen: Boolean(search.get("currency")),
    country: { name: country.name, currency: country.currency },
    comingSoon,
    shipsTo: shipsTo.map((code) => countryByCode(code).name),
    pool: pool
      ? {
          id: pool.id,
          status: pool.status,
          amountCents: pool.amountCents,
          targetCents: pool.targetCents,
          entries: pool.entriesCount,
          currency: pool.currency,
          endAt: pool.endAt.getTime(),
          timeLeft: countdownText(pool.endAt, now),
        }
      : null,
    miniPrizes: miniPrizes.map((m) => ({ id: m.id, name: m.name, quantity: miniPrizeQuantityText(m.quantityText) })),
    entryNumbers,
    // Null for a visitor (and on the host's own profile): a visitor's page is cached and shows no one's count.
    viewerEntries: own ? null : viewerEntries,
    products:
      products?.map((p) => ({
        id: p.id,
        name: p.name,
        image: p.image,
        price: priceRangeText(p, currency),
        // Group Buy for a product the host's active group buy offers; Buy Now for the others.
        groupBuyId: groupBuy?.productIds.includes(p.id) ? groupBuy.id : null,
        inStock: p.inStock,
      })) ?? null,
    page,
    hasNext:
      tab === "games"
        ? (games?.length ?? 0) > GAMES_PAGE_SIZE
        : tab === "winner"
          ? (winners?.length ?? 0) > WINNERS_PAGE_SIZE
          : false,
    games:
      games?.slice(0, GAMES_PAGE_SIZE).map((g) => ({
        id: g.id,
        question: g.question,
        imageUrl: g.imageUrl,
        options: g.options,
        entryFee: formatIn(g.entryFeeCents, g.currency, currency),
        likesCount: g.likesCount,
        commentsCount: g.commentsCount,
        sharesCount: g.sharesCount,
      })) ?? null,
    winners:
      winners?.slice(0, WINNERS_PAGE_SIZE).map((w) => ({
        id: w.id,
        poolId: w.poolId,
        winnerName: w.winnerName,
        prize: formatIn(w.prizeAmountCents, w.currency, currency),
        prizeType: w.prizeType,
        createdAt: w.createdAt.getTime(),
      })) ?? null,
  };
}

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { profile, own, tab, country, currency, products, games, winners, comingSoon, page, hasNext } = loaderData;
  const base = `/profile/${profile.slug ?? profile.userId}`;
  const tabHref = (id: Tab, pageNumber = 1) => {
    const search = new URLSearchParams();
    if (id !== "shop") search.set("tab", id);
    if (loaderData.currencyChosen) search.set("currency", currency);
    if (pageNumber > 1) search.set("page", String(pageNumber));
    const text = search.toString();
    return text ? `${base}?${text}` : base;
  };

  return (
    <div>
      <div className="h-40 bg-gradient-to-r from-brand-500 to-brand-700 sm:h-56">
        {profile.coverImageUrl ? (
          <img src={profile.coverImageUrl} alt="" className="h-full w-full object-cover" />
        ) : null}
      </div>
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="-mt-12 flex flex-wrap items-end gap-x-4 gap-y-2">
          {profile.avatarUrl ? (
            <img
              src={profile.avatarUrl}
              alt=""
              className="h-20 w-20 rounded-full border-4 border-white object-cover shadow sm:h-24 sm:w-24"
            />
          ) : (
            <span
              aria-hidden="true"
              className="grid h-20 w-20 place-items-center rounded-full border-4 border-white bg-brand-100 text-3xl font-bold text-brand-700 shadow sm:h-24 sm:w-24"
            >
              {profile.creatorName.charAt(0).toUpperCase()}
            </span>
          )}
          <div className="w-full min-w-0 pb-1 sm:w-auto sm:flex-1">
            <h1 className="flex flex-wrap items-center gap-2 text-2xl font-bold text-gray-900 sm:text-3xl">
              {profile.creatorName}
              {profile.verified ? <Badge tone="blue">Verified</Badge> : null}
            </h1>
            <p className="text-sm text-gray-600">
              {`${profile.category} · ${country.name} (${country.currency})`}
              {profile.followersCount !== null ? ` · ${profile.followersCount} tribes` : null}
              {profile.revenue ? ` · ${profile.revenue} revenue` : null}
            </p>
          </div>
          <ProfileActions loaderData={loaderData} />
        </div>
        {profile.bio ? <p className="mt-4 max-w-3xl whitespace-pre-line text-gray-700">{profile.bio}</p> : null}
        {loaderData.shipsTo.length > 0 ? (
          <p className="mt-2 text-sm text-gray-600">{`Ships to: ${loaderData.shipsTo.join(", ")}`}</p>
        ) : null}

        <div className="mt-4 flex flex-wrap items-end gap-2">
          <CurrencySelect value={currency} />
          <CurrencyChoiceForm />
        </div>

        <PoolPanel loaderData={loaderData} />

        <TabNav
          label="Profile sections"
          tabs={TABS.map((t) => ({ ...t, href: tabHref(t.id) }))}
          current={tab}
          className="mt-8"
          preventScrollReset
        />

        <div className="py-6">
          {tab === "shop" ? (
            comingSoon ? (
              <ComingSoon />
            ) : (
              <>
                <p className="mb-4 rounded-lg bg-brand-50 px-4 py-3 text-sm text-brand-700">
                  {`${loaderData.poolShare} sales power up the prize pool + buyer gets a unique entry number to the main prize`}
                </p>
                {!products || products.length === 0 ? (
                  <EmptyState title="No products available yet" />
                ) : (
                  <>
                    <ProductTiles products={products} detailsLabel="Details" />
                    <p className="mt-4 flex flex-wrap justify-between gap-2 text-sm text-gray-600">
                      <span>Pay in your local currency on the checkout page</span>
                      <Link to={`${base}/shop`} className="font-semibold text-brand-700 hover:underline">
                        See the whole shop
                      </Link>
                    </p>
                  </>
                )}
              </>
            )
          ) : null}

          {tab === "games" && games ? (
            games.length === 0 ? (
              page > 1 ? (
                <EmptyState
                  title="No more games"
                  message="There are no more games on this page."
                  action={{ to: tabHref("games"), label: "Back to the first page" }}
                />
              ) : (
                <EmptyState title="No active Guess & Win games yet" />
              )
            ) : (
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {games.map((game) => (
                  <li key={game.id}>
                    <ProfileGameCard game={game} own={own} />
                  </li>
                ))}
              </ul>
            )
          ) : null}

          {tab === "winner" && winners ? (
            winners.length === 0 && page > 1 ? (
              <EmptyState
                title="No more winners"
                message="There are no more winners on this page."
                action={{ to: tabHref("winner"), label: "Back to the first page" }}
              />
            ) : winners.length === 0 ? (
              <EmptyState
                title="No winners yet"
                message="Winners are drawn from a public Bitcoin block when a prize pool closes."
                action={{ to: "/winner-selection", label: "How winners are chosen" }}
              />
            ) : (
              <ul className="divide-y divide-gray-100 rounded-xl border border-gray-200 bg-white">
                {winners.map((w) => (
                  <li
                    key={w.id}
                    className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-3 text-sm"
                  >
                    <span className="flex items-center gap-2 font-medium text-gray-900">
                      {w.winnerName}
                      <Badge tone={w.prizeType === "main" ? "brand" : "gray"}>
                        {w.prizeType === "main" ? "Main Prize" : "Mini Prize"}
                      </Badge>
                    </span>
                    <span className="text-gray-700">{w.prize}</span>
                    <span className="text-gray-500">
                      <DateText value={w.createdAt} />
                    </span>
                    <Link to={`/winner-selection/${w.poolId}`} className="font-semibold text-brand-700 hover:underline">
                      Verify draw
                    </Link>
                  </li>
                ))}
              </ul>
            )
          ) : null}

          {tab !== "shop" ? <Pagination page={page} hasNext={hasNext} hrefFor={(n) => tabHref(tab, n)} /> : null}
        </div>
      </div>
    </div>
  );
}

function ProfileActions({ loaderData }: Pick<Route.ComponentProps, "loaderData">) {
  const { profile, own, member, viewerId, tribeJoin, joinReturnTo } = loaderData;
  const fetcher = useFetcher<TribeJoinResult>();
  const toast = useToast();
  useEffect(() => {
    if (fetcher.data) toast({ message: fetcher.data.message, type: fetcher.data.ok ? "success" : "error" });
  }, [fetcher.data, toast]);
  const joined = member || fetcher.data?.ok === true || fetcher.data?.outcome === "already";

  async function share() {
    const url = window.location.origin + window.location.pathname;
    if (navigator.share) {
      try {
        await navigator.share({ title: profile.creatorName, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast({ message: "Link copied to clipboard!", type: "success", durationMs: 2000 });
    } catch {
      toast({ message: url, type: "info" });
    }
  }

  return (
    <div className="flex flex-col items-end gap-2 pb-1">
      <div className="flex flex-wrap gap-2">
        {own ? (
          <>
            <Link to="/settings" className={buttonClass("secondary", "sm")}>
              Edit profile
            </Link>
            <Link to="/wishlist" className={buttonClass("secondary", "sm")}>
              Wishlist
            </Link>
          </>
        ) : (
          <form
            method="post"
            action="/tribe/join"
            onSubmit={(event) => {
              // Hydrated: the join goes through the fetcher and answers as data (a toast); without JavaScript the
              // form posts natively with returnTo and comes back to this page with the outcome.
              event.preventDefault();
              if (!viewerId) return toast({ message: TRIBE_JOIN_MESSAGES["sign-in"], type: "error" });
              fetcher.submit({ hostId: profile.userId }, { method: "post", action: "/tribe/join" });
            }}
          >
            <input type="hidden" name="hostId" value={profile.userId} />
            <input type="hidden" name="returnTo" value={joinReturnTo} />
            <button
              type="submit"
              disabled={joined || fetcher.state !== "idle"}
              className={buttonClass("primary", "sm")}
            >
              {joined ? "Tribe Member" : "Join Tribe"}
            </button>
          </form>
        )}
        <Button variant="secondary" size="sm" onClick={share} data-share="">
          Share
        </Button>
        {own ? null : (
          <Link to={`/chat?creator=${profile.userId}`} className={buttonClass("secondary", "sm")}>
            Chat
          </Link>
        )}
      </div>
      {tribeJoin ? (
        <p role="status" className={`text-sm ${tribeJoin.ok ? "text-green-700" : "text-red-700"}`}>
          {tribeJoin.message}
        </p>
      ) : null}
    </div>
  );
}

function PoolPanel({ loaderData }: { loaderData: Route.ComponentProps["loaderData"] }) {
  const { pool, currency, miniPrizes, viewerId } = loaderData;
  const live = usePoolLive(pool?.status === "open" ? pool.id : null, {
    poolId: pool?.id ?? "",
    amountCents: pool?.amountCents ?? 0,
    entries: pool?.entries ?? 0,
    status: pool?.status ?? "closed",
    targetCents: pool?.targetCents ?? 0,
  });
  // The viewer's own entry numbers come from the loader: live messages are public and carry no user id.
  const entryNumbers = loaderData.entryNumbers;

  if (!pool) {
    return (
      <div className="mt-6">
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <PoolStat label="Prize Pool" value="—" />
          <PoolStat label="Target" value="—" />
          <PoolStat label="Timer" value="—" />
          <PoolStat label="Main Prize (60%)" value="—" />
        </div>
        <p className="mt-3 text-sm text-gray-600">Prize pool inactive: this creator has no prize pool running yet.</p>
      </div>
    );
  }
  const show = (cents: number) => formatCents(displayCents(cents, pool.currency, currency), currency);
  const progress = progressPercent(live.amountCents, live.targetCents);
  // A signed-in viewer's page is hydrated and follows the pool with usePoolLive (entry numbers too); a visitor's
  // page is static, and /page.js keeps these figures current.
  const follow = (field: PoolDisplayField) =>
    viewerId || pool.status !== "open" ? {} : livePoolAttributes(pool.id, field, currency);
  return (
    <div className="mt-6">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <PoolStat
          label="Prize Pool"
          value={<span {...follow("amount")}>{show(live.amountCents)}</span>}
          live={pool.status === "open"}
        />
        <PoolStat label="Target" value={show(live.targetCents)} />
        <PoolStat label="Timer" value={<Countdown endAt={pool.endAt} initial={pool.timeLeft} />} />
        <PoolStat
          label="Main Prize (60%)"
          value={<span {...follow("mainPrize")}>{show(distributePool(live.amountCents).mainPrize)}</span>}
        />
      </div>
      <div
        className="mt-3 h-2 overflow-hidden rounded-full bg-gray-200"
        role="progressbar"
        aria-label="Prize pool progress"
        aria-valuenow={progress}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full bg-brand-500 transition-[width]" style={{ width: `${progress}%` }} {...follow("bar")} />
      </div>
      <p className="mt-1 flex justify-between text-xs text-gray-500">
        <span>
          <span {...follow("percent")}>{progress}%</span> of target
        </span>
        <span>
          {live.entries} {live.entries === 1 ? "entry" : "entries"}
          {live.status !== "open" ? ` · ${live.status === "drawn" ? "Winner drawn" : "Closed, drawing soon"}` : ""}
        </span>
      </p>
      {loaderData.viewerEntries !== null ? (
        <p className="mt-2 text-sm font-medium text-gray-800" data-testid="your-entries">
          {`Your entries: ${loaderData.viewerEntries} of ${live.entries}`}
        </p>
      ) : null}
      <p className="mt-2 text-xs text-gray-500">
        {WINNER_PUBLICITY_TEXT}{" "}
        <Link to="/winners" className="underline">
          Winners
        </Link>
      </p>
      {pool.status === "open" && viewerId !== loaderData.profile.userId ? (
        <FreeEntryLink hostId={loaderData.profile.userId} />
      ) : null}
      {entryNumbers.length > 0 ? (
        <p className="mt-3 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800">{`Your entry numbers: ${entryNumbers.join(", ")}`}</p>
      ) : null}
      {miniPrizes.length > 0 ? (
        <Card className="mt-4">
          <h2 className="text-sm font-semibold text-gray-900">Mini Prizes</h2>
          <ul className="mt-2 divide-y divide-gray-100 text-sm">
            {miniPrizes.map((m) => (
              <li key={m.id} className="flex justify-between gap-4 py-1.5">
                <span className="text-gray-800">{m.name}</span>
                <span className="text-gray-500">{m.quantity}</span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  );
}

function PoolStat({ label, value, live = false }: { label: string; value: ReactNode; live?: boolean }) {
  return (
    <Card className="!p-3">
      <p className="flex items-center gap-1.5 text-xs text-gray-600">
        {label}
        {live ? <span role="img" className="h-1.5 w-1.5 rounded-full bg-green-500" aria-label="live" /> : null}
      </p>
      <p className="mt-0.5 text-lg font-bold text-gray-900">{value}</p>
    </Card>
  );
}

/** The notice closes with a native dialog form, so it works on a page sent without hydration too. */
function ComingSoon() {
  return (
    <>
      <EmptyState title="Coming soon to your country" message="This brand doesn't ship to your country yet." />
      <dialog
        open
        aria-modal="true"
        aria-labelledby="coming-soon-title"
        className="fixed inset-0 z-50 hidden h-full max-h-none w-full max-w-none place-items-center bg-black/40 p-4 open:grid"
      >
        <div className="w-full max-w-sm rounded-xl bg-white p-6 text-center shadow-xl">
          <p id="coming-soon-title" className="text-base font-semibold text-gray-900">
            {COMING_SOON_MESSAGE}
          </p>
          <form method="dialog">
            <button type="submit" className={buttonClass("primary", "md", "mt-4")} autoFocus>
              Got it
            </button>
          </form>
        </div>
      </dialog>
    </>
  );
}

type GameCard = NonNullable<Route.ComponentProps["loaderData"]["games"]>[number];

/** `own`: the host's own profile, where they cannot guess (the server refuses it too): the game's page instead. */
function ProfileGameCard({ game, own }: { game: GameCard; own: boolean }) {
  const shown = game.options.slice(0, 4);
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm">
      {game.imageUrl ? (
        <img src={game.imageUrl} alt="" loading="lazy" className="aspect-video w-full object-cover" />
      ) : null}
      <div className="flex flex-1 flex-col p-4">
        <h3 className="font-semibold text-gray-900">{game.question}</h3>
        <p className="mt-1 text-xs text-gray-500">
          {game.likesCount} likes · {game.commentsCount} comments · {game.sharesCount} shares
        </p>
        {shown.length > 0 ? (
          <ul className="mt-3 grid grid-cols-2 gap-2">
            {shown.map((option) => (
              <li key={option} className="truncate rounded-lg border border-gray-200 px-2 py-1.5 text-sm text-gray-700">
                {option}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-sm text-gray-500">No options available</p>
        )}
        {game.options.length > shown.length ? (
          <p className="mt-1 text-xs text-gray-500">+{game.options.length - shown.length} more options</p>
        ) : null}
        <p className="mt-4 text-sm text-gray-600">
          Entry fee <span className="font-semibold text-gray-900">{game.entryFee}</span>
        </p>
        <div className="mt-3 flex gap-2">
          {own ? (
            <Link to={`/view-game/${game.id}`} className={buttonClass("secondary", "sm", "flex-1")}>
              View Game
            </Link>
          ) : (
            <>
              {/* Free guesses are played on the feed: this opens the feed at this game's card. */}
              <Link
                to={`/guess-win?game=${encodeURIComponent(game.id)}#game-${game.id}`}
                className={buttonClass("secondary", "sm", "flex-1")}
              >
                Free Guess
              </Link>
              {/* The game itself, where a fan picks an answer and pays (free guesses are played on the feed). */}
              <Link to={`/view-game/${game.id}`} className={buttonClass("primary", "sm", "flex-1")}>
                Guess Now
              </Link>
            </>
          )}
        </div>
      </div>
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 403 && error.data?.privateProfile) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-gray-900">This profile is private</h1>
        <p className="mt-2 text-gray-600">{`${String(error.data.creatorName)} keeps their profile private.`}</p>
        <Link to="/" className={buttonClass("secondary", "md", "mt-6")}>
          Back to Home
        </Link>
      </div>
    );
  }
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Creator Not Found",
        message: "This creator doesn't exist or their profile is private.",
        action: { to: "/", label: "Back to Home" },
      }}
    />
  );
}
