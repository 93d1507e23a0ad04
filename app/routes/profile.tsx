import { Link } from "react-router";
import { GameCard, ProductGrid } from "~/components/cards";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Badge, buttonClass, Card, DateText, EmptyState, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listActiveGames } from "~/db/queries/games.server";
import { getCurrentPool, listHostWinners } from "~/db/queries/pools.server";
import { getProfileByIdOrSlug } from "~/db/queries/profiles.server";
import { listHostProducts } from "~/db/queries/products.server";
import { countdownText } from "~/domain/countdown";
import { countryByCode } from "~/domain/currency";
import { formatCents, progressPercent } from "~/domain/money";
import { distributePool } from "~/domain/revenue";
import { getOptionalUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/profile";

const TABS = [
  { id: "shop", label: "Shop" },
  { id: "games", label: "Guess & Win" },
  { id: "winner", label: "Winner" },
] as const;
type Tab = (typeof TABS)[number]["id"];

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData?.profile.creatorName ?? errorTitle(error, "Creator Not Found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const key = idParam(params.id);
  const db = getDb(getEnv(context));
  const profile = await getProfileByIdOrSlug(db, key);
  const viewer = getOptionalUser(context);
  const own = profile?.userId === viewer?.id;
  if (!profile || (!own && (!profile.profilePublic || profile.status !== "active"))) notFound();

  const requested = new URL(request.url).searchParams.get("tab");
  const tab: Tab = TABS.some((t) => t.id === requested) ? (requested as Tab) : "shop";
  const [pool, products, games, winners] = await Promise.all([
    getCurrentPool(db, profile.userId),
    tab === "shop" ? listHostProducts(db, profile.userId, { limit: 12, activeOnly: true }) : null,
    tab === "games" ? listActiveGames(db, { hostId: profile.userId, limit: 12 }) : null,
    tab === "winner" ? listHostWinners(db, profile.userId, 10) : null,
  ]);
  const country = countryByCode(profile.country);
  return {
    profile,
    own,
    tab,
    country: { name: country.name, currency: country.currency },
    pool: pool
      ? {
          amountCents: pool.amountCents,
          targetCents: pool.targetCents,
          currency: pool.currency,
          timeLeft: countdownText(pool.endAt, new Date()),
          mainPrizeCents: distributePool(pool.amountCents).mainPrize,
          progress: progressPercent(pool.amountCents, pool.targetCents),
        }
      : null,
    products,
    games,
    winners,
  };
}

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { profile, own, tab, country, pool, products, games, winners } = loaderData;
  const base = `/profile/${profile.slug ?? profile.userId}`;
  return (
    <div>
      <div className="h-40 bg-gradient-to-r from-brand-500 to-brand-700 sm:h-56">
        {profile.coverImageUrl ? <img src={profile.coverImageUrl} alt="" className="h-full w-full object-cover" /> : null}
      </div>
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="-mt-12 flex flex-wrap items-end gap-x-4 gap-y-2">
          {profile.avatarUrl ? (
            <img src={profile.avatarUrl} alt="" className="h-20 w-20 rounded-full border-4 border-white object-cover shadow sm:h-24 sm:w-24" />
          ) : (
            <span aria-hidden="true" className="grid h-20 w-20 place-items-center rounded-full border-4 border-white bg-brand-100 text-3xl font-bold text-brand-700 shadow sm:h-24 sm:w-24">
              {profile.creatorName.charAt(0).toUpperCase()}
            </span>
          )}
          <div className="w-full min-w-0 pb-1 sm:w-auto sm:flex-1">
            <h1 className="flex flex-wrap items-center gap-2 text-2xl font-bold text-gray-900 sm:text-3xl">
              {profile.creatorName}
              {profile.verified ? <Badge tone="blue">Verified</Badge> : null}
            </h1>
            <p className="text-sm text-gray-600">
              {profile.category} · {country.name} ({country.currency})
              {profile.showFollowers ? ` · ${profile.followersCount} tribes` : null}
            </p>
          </div>
          <div className="flex gap-2 pb-1">
            {own ? (
              <Link to="/settings" className={buttonClass("secondary", "sm")}>
                Edit profile
              </Link>
            ) : (
              <Link to={`/chat?creator=${profile.userId}`} className={buttonClass("secondary", "sm")}>
                Chat
              </Link>
            )}
          </div>
        </div>
        {profile.bio ? <p className="mt-4 max-w-3xl whitespace-pre-line text-gray-700">{profile.bio}</p> : null}

        <div className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
          <PoolStat label="Prize Pool" value={pool ? formatCents(pool.amountCents, pool.currency) : "—"} />
          <PoolStat label="Target" value={pool ? formatCents(pool.targetCents, pool.currency) : "—"} />
          <PoolStat label="Timer" value={pool ? pool.timeLeft : "—"} />
          <PoolStat label="Main Prize (60%)" value={pool ? formatCents(pool.mainPrizeCents, pool.currency) : "—"} />
        </div>
        {pool ? (
          <div className="mt-3 h-2 overflow-hidden rounded-full bg-gray-200" role="progressbar" aria-label="Prize pool progress" aria-valuenow={pool.progress} aria-valuemin={0} aria-valuemax={100}>
            <div className="h-full bg-brand-500" style={{ width: `${pool.progress}%` }} />
          </div>
        ) : (
          <p className="mt-3 text-sm text-gray-600">This creator has no prize pool running yet.</p>
        )}

        <nav aria-label="Profile sections" className="mt-8 border-b border-gray-200">
          <ul className="-mb-px flex gap-6">
            {TABS.map((t) => (
              <li key={t.id}>
                <Link
                  to={t.id === "shop" ? base : `${base}?tab=${t.id}`}
                  preventScrollReset
                  aria-current={tab === t.id ? "page" : undefined}
                  className={`inline-block border-b-2 px-1 py-3 text-sm font-semibold ${
                    tab === t.id ? "border-brand-600 text-brand-700" : "border-transparent text-gray-600 hover:text-gray-900"
                  }`}
                >
                  {t.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className="py-6">
          {tab === "shop" && products ? (
            <>
              <p className="mb-4 rounded-lg bg-brand-50 px-4 py-3 text-sm text-brand-700">
                10% sales power up the prize pool + buyer gets a unique entry number to the main prize
              </p>
              {products.length === 0 ? (
                <EmptyState title="No products available yet" />
              ) : (
                <>
                  <ProductGrid products={products} />
                  <p className="mt-4 text-sm text-gray-600">
                    <Link to={`${base}/shop`} className="font-semibold text-brand-700 hover:underline">
                      See the whole shop
                    </Link>
                  </p>
                </>
              )}
            </>
          ) : null}
          {tab === "games" && games ? (
            games.length === 0 ? (
              <EmptyState title="No active Guess & Win games yet" />
            ) : (
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {games.map((game) => (
                  <li key={game.id}>
                    <GameCard game={game} />
                  </li>
                ))}
              </ul>
            )
          ) : null}
          {tab === "winner" && winners ? (
            winners.length === 0 ? (
              <EmptyState title="No winners yet" message="Winners are drawn from a public Bitcoin block when a prize pool closes." action={{ to: "/winner-selection", label: "How winners are chosen" }} />
            ) : (
              <ul className="divide-y divide-gray-100 rounded-xl border border-gray-200 bg-white">
                {winners.map((w) => (
                  <li key={w.id} className="flex items-center justify-between gap-4 px-4 py-3 text-sm">
                    <span className="font-medium text-gray-900">{w.winnerName}</span>
                    <span className="text-gray-700">{formatCents(w.prizeAmountCents, w.currency)}</span>
                    <span className="text-gray-500">
                      <DateText value={w.createdAt} />
                    </span>
                  </li>
                ))}
              </ul>
            )
          ) : null}
        </div>
      </div>
    </div>
  );
}

function PoolStat({ label, value }: { label: string; value: string }) {
  return (
    <Card className="!p-3">
      <p className="text-xs text-gray-600">{label}</p>
      <p className="mt-0.5 text-lg font-bold text-gray-900">{value}</p>
    </Card>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
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
