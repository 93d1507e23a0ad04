import { Form } from "react-router";
import { Link } from "~/components/link";
import { StarIcon } from "~/components/icons";
import { Badge, buttonClass, EmptyState, Page, pageMeta, Section } from "~/components/page";
import { ImageBox } from "~/components/image-box";
import { formatIn, priceRangeText } from "~/components/shop-ui";
import { getDb } from "~/db/client.server";
import { listExploreGames, listExploreProducts } from "~/db/queries/explore.server";
import { getViewerPlace, listPublicProfiles } from "~/db/queries/profiles.server";
import { isSignupCategory, SIGNUP_CATEGORIES } from "~/domain/catalog";
import { viewerCurrency } from "~/lib/currency.server";
import { viewerSession } from "~/lib/auth.server";
import { derivedRating } from "~/domain/rating";
import { getEnv } from "~/lib/context";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import { pageParam } from "~/lib/guards.server";
import type { Route } from "./+types/explore";
import { SEARCH_MAX_LENGTH, searchText } from "~/domain/search";

/** Per 'Load More Content': 12 more hosts, 20 more products (the latest 20) and 20 more games. */
const HOSTS_STEP = 12;
const PRODUCTS_STEP = 20;
const GAMES_STEP = 20;
/** Load More grows the lists up to this many steps. */
const MAX_PAGES = 10;

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = () =>
  pageMeta("Explore", "Discover creators, their shops and their Guess & Win games.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const page = pageParam(request, MAX_PAGES);
  const q = searchText(search.get("q"));
  const rawCategory = search.get("category");
  const category = isSignupCategory(rawCategory) ? rawCategory : null;
  const view: "grid" | "list" = search.get("view") === "list" ? "list" : "grid";
  const db = getDb(getEnv(context));
  const viewer = viewerSession(context);
  const [hosts, products, games, viewerPlace] = await Promise.all([
    listPublicProfiles(db, { limit: HOSTS_STEP * page + 1, q, category }),
    listExploreProducts(db, { limit: PRODUCTS_STEP * page + 1, q, category }),
    listExploreGames(db, { limit: GAMES_STEP * page + 1, q, category }),
    // The viewer's place goes to D1 in the same batch, named by their session (decision 620).
    viewer ? getViewerPlace(db, viewer) : undefined,
  ]);
  const currency = viewerCurrency(request, viewerPlace);
  return {
    page,
    filters: { q, category, view },
    hasMore:
      page < MAX_PAGES &&
      (hosts.length > HOSTS_STEP * page || products.length > PRODUCTS_STEP * page || games.length > GAMES_STEP * page),
    hosts: hosts.slice(0, HOSTS_STEP * page),
    products: products.slice(0, PRODUCTS_STEP * page).map((p) => ({
      id: p.id,
      name: p.name,
      image: p.image,
      hostName: p.hostName,
      hostHref: `/profile/${p.hostSlug ?? p.hostId}`,
      price: priceRangeText(p, currency),
      rating: derivedRating(p.likeCount),
      likeCount: p.likeCount,
    })),
    games: games.slice(0, GAMES_STEP * page).map((g) => ({
      id: g.id,
      question: g.question,
      imageUrl: g.imageUrl,
      hostName: g.hostName,
      hostHref: `/profile/${g.hostSlug ?? g.hostId}`,
      optionsCount: g.options.length,
      entryFee: formatIn(g.entryFeeCents, g.currency, currency),
      likesCount: g.likesCount,
      participantsCount: g.participantsCount,
    })),
  };
}

type Filters = { q: string; category: string | null; view: "grid" | "list" };

function exploreHref(filters: Filters, change: Partial<Filters> & { page?: number }) {
  const next = { ...filters, ...change };
  const search = new URLSearchParams();
  if (next.q) search.set("q", next.q);
  if (next.category) search.set("category", next.category);
  if (next.view === "list") search.set("view", "list");
  if (change.page && change.page > 1) search.set("page", String(change.page));
  const text = search.toString();
  return text ? `/explore?${text}` : "/explore";
}

export default function Explore({ loaderData }: Route.ComponentProps) {
  const { hosts, products, games, page, hasMore, filters } = loaderData;
  const list = filters.view === "list";
  const gridClass = list ? "grid gap-3" : "grid gap-4 sm:grid-cols-2 lg:grid-cols-3";
  const chip = (active: boolean) =>
    `inline-flex items-center rounded-full border px-3 py-1 text-sm font-medium whitespace-nowrap ${
      active
        ? "border-brand-600 bg-brand-600 text-white"
        : "border-gray-300 bg-white text-gray-700 hover:border-brand-500"
    }`;
  const nothing = hosts.length === 0 && products.length === 0 && games.length === 0;

  return (
    <Page
      title="Explore"
      subtitle="Creators with a public profile, their latest products and their Guess & Win games."
      actions={
        <div className="inline-flex overflow-hidden rounded-lg border border-gray-300" role="group" aria-label="Layout">
          <Link
            to={exploreHref(filters, { view: "grid" })}
            aria-current={!list ? "true" : undefined}
            preventScrollReset
            className={`px-3 py-1.5 text-sm font-medium ${!list ? "bg-gray-900 text-white" : "bg-white text-gray-700"}`}
          >
            Grid
          </Link>
          <Link
            to={exploreHref(filters, { view: "list" })}
            aria-current={list ? "true" : undefined}
            preventScrollReset
            className={`px-3 py-1.5 text-sm font-medium ${list ? "bg-gray-900 text-white" : "bg-white text-gray-700"}`}
          >
            List
          </Link>
        </div>
      }
    >
      <Form method="get" role="search" className="flex gap-2">
        {filters.category ? <input type="hidden" name="category" value={filters.category} /> : null}
        {list ? <input type="hidden" name="view" value="list" /> : null}
        <label className="sr-only" htmlFor="explore-q">
          Search
        </label>
        <input
          id="explore-q"
          type="search"
          name="q"
          defaultValue={filters.q}
          key={filters.q}
          maxLength={SEARCH_MAX_LENGTH}
          placeholder="Search creators, products and games"
          className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
        />
        <button type="submit" className={buttonClass("primary")}>
          Search
        </button>
      </Form>
      <nav aria-label="Categories" className="relative mt-4 -mx-1 flex gap-2 overflow-x-auto px-1 pb-2">
        <Link
          to={exploreHref(filters, { category: null })}
          className={chip(!filters.category)}
          aria-current={!filters.category ? "true" : undefined}
        >
          All
        </Link>
        {SIGNUP_CATEGORIES.map((c) => (
          <Link
            key={c}
            to={exploreHref(filters, { category: c })}
            className={chip(filters.category === c)}
            aria-current={filters.category === c ? "true" : undefined}
          >
            {c}
          </Link>
        ))}
      </nav>

      {nothing ? (
        <div className="mt-6">
          <EmptyState
            title="Nothing found"
            message="Try another search or category."
            action={{ to: "/explore", label: "Clear filters" }}
          />
        </div>
      ) : null}

      {hosts.length > 0 ? (
        <Section title="Creators">
          <ul className={gridClass}>
            {hosts.map((c) => (
              <li key={c.userId}>
                <Link
                  to={`/profile/${c.slug ?? c.userId}`}
                  className="flex h-full gap-4 rounded-xl border border-gray-200 bg-white p-4 shadow-sm transition hover:border-brand-500 focus-visible:outline-2 focus-visible:outline-brand-500"
                >
                  {c.avatarUrl ? (
                    <img
                      src={c.avatarUrl}
                      alt=""
                      loading="lazy"
                      className="h-14 w-14 shrink-0 rounded-full object-cover"
                    />
                  ) : (
                    <span
                      aria-hidden="true"
                      className="grid h-14 w-14 shrink-0 place-items-center rounded-full bg-brand-100 text-xl font-bold text-brand-700"
                    >
                      {c.creatorName.charAt(0).toUpperCase()}
                    </span>
                  )}
                  <span className="min-w-0">
                    <span className="flex items-center gap-2 font-semibold text-gray-900">
                      <span className="truncate">{c.creatorName}</span>
                      {c.verified ? <Badge tone="blue">Verified</Badge> : null}
                    </span>
                    <span className="block text-xs text-gray-500">
                      {c.category}
                      {c.followersCount !== null ? ` · ${c.followersCount} tribes` : null}
                    </span>
                    {c.bio ? <span className="mt-1 line-clamp-2 block text-sm text-gray-600">{c.bio}</span> : null}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      {products.length > 0 ? (
        <Section title="Latest products">
          <ul className={list ? "grid gap-3" : "grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4"}>
            {products.map((p) => (
              <li
                key={p.id}
                className={`overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm ${list ? "flex gap-3" : ""}`}
              >
                <Link
                  to={`/product/${p.id}`}
                  className={list ? "w-24 shrink-0" : "block"}
                  tabIndex={-1}
                  aria-hidden="true"
                >
                  <ImageBox src={p.image} alt="" />
                </Link>
                <div className="min-w-0 p-3">
                  <Link
                    to={`/product/${p.id}`}
                    className="line-clamp-2 text-sm font-semibold text-gray-900 hover:underline"
                  >
                    {p.name || "Unnamed Product"}
                  </Link>
                  {p.hostName ? (
                    <Link to={p.hostHref} className="mt-0.5 block truncate text-xs text-gray-500 hover:underline">
                      by {p.hostName}
                    </Link>
                  ) : null}
                  <p className="mt-1 text-sm font-bold text-brand-700">{p.price}</p>
                  <p className="mt-0.5 text-xs text-gray-500">
                    <StarIcon className="text-amber-500" /> {p.rating.toFixed(1)} · {p.likeCount} likes
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      {games.length > 0 ? (
        <Section title="Guess & Win games">
          <ul className={gridClass}>
            {games.map((g) => (
              <li
                key={g.id}
                className={`overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm ${list ? "flex gap-3" : ""}`}
              >
                {g.imageUrl ? (
                  <img
                    src={g.imageUrl}
                    alt=""
                    loading="lazy"
                    className={list ? "h-24 w-24 shrink-0 object-cover" : "aspect-video w-full object-cover"}
                  />
                ) : null}
                <div className="min-w-0 p-4">
                  {g.hostName ? (
                    <Link to={g.hostHref} className="text-xs font-medium text-brand-700 hover:underline">
                      {g.hostName}
                    </Link>
                  ) : null}
                  <p className="mt-1 font-semibold text-gray-900">{g.question}</p>
                  <p className="mt-1 text-xs text-gray-500">
                    {g.optionsCount} options · Entry from {g.entryFee} · {g.likesCount} likes · {g.participantsCount}{" "}
                    players
                  </p>
                  <Link
                    to={g.hostHref + "?tab=games"}
                    className="mt-2 inline-block text-sm font-semibold text-brand-700 hover:underline"
                  >
                    Play
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      {hasMore ? (
        <div className="mt-8 text-center">
          <Link to={exploreHref(filters, { page: page + 1 })} preventScrollReset className={buttonClass("secondary")}>
            Load More Content
          </Link>
        </div>
      ) : null}
    </Page>
  );
}
