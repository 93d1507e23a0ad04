import { Link } from "~/components/link";
import { CheckIcon } from "~/components/icons";
import { getDb } from "~/db/client.server";
import { featuredHosts } from "~/db/queries/home.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { getViewerPlace } from "~/db/queries/profiles.server";
import { viewerCurrency } from "~/lib/currency.server";
import { formatCents, formatCount } from "~/domain/money";
import { poolShareText } from "~/domain/revenue";
import { livePoolAttributes, poolDisplay } from "~/domain/pool-display";
import { viewerSession } from "~/lib/auth.server";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: "Tribe · Group-buy ecommerce with the most transparent prize pool" },
  {
    name: "description",
    content: `Shop from creators, join group buys and play Guess & Win. ${loaderData?.poolShare ?? "A share"} of every purchase grows the host's prize pool, and the winner is drawn from a public Bitcoin block hash.`,
  },
];

// Example month for a host (RM, docs/product.md#splits): not real figures, and labelled as an example on the page.
const EXAMPLE_MONTH = [
  { label: "Shop sales (your 90%)", cents: 1_872_000 },
  { label: "Your 25% of the prize pool", cents: 875_800 },
  { label: "Group buy sales", cents: 285_000 },
  { label: "Ad revenue", cents: 127_200 },
] as const;

const SOURCE_LABELS = {
  shop_sales: "Shop sales",
  guess_win_entries: "Guess & Win entries",
  ad_revenue: "Ad revenue",
  group_buy_sales: "Group buy sales",
} as const;

export const handle = STATIC_FOR_VISITORS;

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = getDb(getEnv(context));
  // The signed-in viewer's country and chosen currency are named by the session, so they go to D1 in the
  // session's batch; the page has no currency select (the choice made elsewhere holds, decision 620).
  const viewer = viewerSession(context);
  const [hosts, rules, viewerPlace] = await Promise.all([
    featuredHosts(db, 3),
    getRevenueRules(db),
    viewer ? getViewerPlace(db, viewer) : undefined,
  ]);
  const currency = viewerCurrency(request, viewerPlace);
  return {
    currency,
    hosts: hosts.map((h) => ({
      href: `/profile/${h.slug ?? h.id}`,
      name: h.creatorName,
      bio: h.bio,
      category: h.category,
      avatarUrl: h.avatarUrl,
      verified: h.verified,
      followers: h.followersCount,
      // The same texts /api/pools/live sends for this pool in this currency (/page.js keeps them current).
      pool: h.poolTargetCents
        ? {
            id: h.poolId,
            ...poolDisplay(
              { amountCents: h.poolAmountCents ?? 0, targetCents: h.poolTargetCents },
              h.poolCurrency ?? "USD",
              currency,
            ),
          }
        : null,
    })),
    poolShare: poolShareText(rules, "shop_sales"),
    guessShare: poolShareText(rules, "guess_win_entries"),
    split: (Object.keys(SOURCE_LABELS) as (keyof typeof SOURCE_LABELS)[]).map((source) => ({
      label: SOURCE_LABELS[source],
      ...rules[source],
    })),
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { hosts, split, poolShare, guessShare, currency } = loaderData;
  const exampleTotal = EXAMPLE_MONTH.reduce((sum, row) => sum + row.cents, 0);
  return (
    <div>
      <section className="bg-gradient-to-br from-brand-600 via-orange-500 to-rose-500 text-white">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:py-24">
          <h1 className="max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl">
            Group-buy ecommerce with the most transparent prize pool
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-orange-50">
            {`${poolShare} of every purchase and ${guessShare} of Guess & Win entry fees grow your favourite host's prize pool. ` +
              "Every buyer gets a unique entry number, and the main prize winner is drawn from a public Bitcoin block hash " +
              "that anyone can check."}
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link
              to="/shop"
              className="rounded-lg bg-white px-5 py-3 font-semibold text-brand-700 shadow hover:bg-orange-50"
            >
              Browse Shop
            </Link>
            <Link
              to="/guess-win"
              className="rounded-lg border border-white/70 px-5 py-3 font-semibold text-white hover:bg-white/10"
            >
              Play Games
            </Link>
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-12" aria-labelledby="featured-heading">
        <div className="flex items-end justify-between">
          <h2 id="featured-heading" className="text-2xl font-bold">
            Featured creators
          </h2>
          <Link to="/explore" className="text-sm font-medium text-brand-700 underline">
            Explore all
          </Link>
        </div>
        {hosts.length === 0 ? (
          <p className="mt-6 rounded-xl bg-white p-6 text-center text-gray-600 ring-1 ring-gray-200">
            No creators yet.{" "}
            <Link to="/signup" className="text-brand-700 underline">
              Be the first to open a shop.
            </Link>
          </p>
        ) : (
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {hosts.map((host) => (
              <li key={host.href} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-gray-200">
                <Link to={host.href} className="flex items-center gap-3">
                  {host.avatarUrl ? (
                    <img
                      src={host.avatarUrl}
                      alt=""
                      width={56}
                      height={56}
                      className="h-14 w-14 rounded-full object-cover"
                    />
                  ) : (
                    <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-xl font-bold text-brand-700">
                      {host.name.slice(0, 1).toUpperCase()}
                    </span>
                  )}
                  <span>
                    <span className="block font-semibold">
                      {host.name}
                      {host.verified ? (
                        <span className="ml-1 text-blue-600" title="Verified">
                          <CheckIcon />
                          <span className="sr-only">Verified</span>
                        </span>
                      ) : null}
                    </span>
                    <span className="block text-sm text-gray-500">
                      {host.category}
                      {host.followers !== null ? ` · ${formatCount(host.followers)} tribes` : null}
                    </span>
                  </span>
                </Link>
                {host.bio ? <p className="mt-3 line-clamp-2 text-sm text-gray-600">{host.bio}</p> : null}
                {host.pool ? (
                  <div className="mt-4">
                    <div className="flex justify-between text-sm">
                      <span className="font-medium">
                        Prize pool{" "}
                        <span {...livePoolAttributes(host.pool.id, "amount", currency)}>{host.pool.amount}</span>
                      </span>
                      <span className="text-gray-500">
                        Target <span {...livePoolAttributes(host.pool.id, "target", currency)}>{host.pool.target}</span>
                      </span>
                    </div>
                    <div className="mt-1 h-2 rounded-full bg-gray-100" aria-hidden="true">
                      <div
                        className="h-2 rounded-full bg-brand-500"
                        style={{ width: `${host.pool.percent}%` }}
                        {...livePoolAttributes(host.pool.id, "bar", currency)}
                      />
                    </div>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="bg-white py-12" aria-labelledby="split-heading">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 lg:grid-cols-2">
          <div>
            <h2 id="split-heading" className="text-2xl font-bold">
              Where the money goes
            </h2>
            <table className="mt-6 w-full text-left text-sm">
              <thead className="border-b text-gray-500">
                <tr>
                  <th className="py-2 font-medium">Source</th>
                  <th className="py-2 font-medium">Platform fee</th>
                  <th className="py-2 font-medium">Prize pool</th>
                  <th className="py-2 font-medium">Host</th>
                </tr>
              </thead>
              <tbody>
                {split.map((row) => (
                  <tr key={row.label} className="border-b last:border-0">
                    <td className="py-2 font-medium">{row.label}</td>
                    <td className="py-2">{row.platformFeePercent}%</td>
                    <td className="py-2">{row.prizePoolPercent}%</td>
                    <td className="py-2">{row.hostPercent}%</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div>
            <h2 className="text-2xl font-bold">Prize pool distribution</h2>
            <div className="mt-6 grid grid-cols-3 gap-3 text-center">
              <div className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200">
                <p className="text-3xl font-extrabold text-amber-700">60%</p>
                <p className="mt-1 text-sm">Main prize</p>
              </div>
              <div className="rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-200">
                <p className="text-3xl font-extrabold text-emerald-700">25%</p>
                <p className="mt-1 text-sm">Host share</p>
              </div>
              <div className="rounded-xl bg-sky-50 p-4 ring-1 ring-sky-200">
                <p className="text-3xl font-extrabold text-sky-700">15%</p>
                <p className="mt-1 text-sm">Platform</p>
              </div>
            </div>
            <p className="mt-4 text-sm text-gray-600">
              When a pool reaches its target or its end date, one entry wins the main prize: the winning entry number is
              a public Bitcoin block hash modulo the number of entries.{" "}
              <Link to="/winner-selection" className="text-brand-700 underline">
                See how the winner is selected
              </Link>
              .
            </p>
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-12" aria-labelledby="earnings-heading">
        <h2 id="earnings-heading" className="text-2xl font-bold">
          What a host can earn
        </h2>
        <p className="mt-1 text-sm text-gray-500">
          An example month (illustration, not real figures). Host total = host share of revenue + 25% of the pool.
        </p>
        <dl className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
          {EXAMPLE_MONTH.map((row) => (
            <div key={row.label} className="rounded-xl bg-white p-4 ring-1 ring-gray-200">
              <dt className="text-sm text-gray-500">{row.label}</dt>
              <dd className="mt-1 text-lg font-bold">{formatCents(row.cents, "MYR")}</dd>
            </div>
          ))}
          <div className="rounded-xl bg-brand-50 p-4 ring-1 ring-brand-100">
            <dt className="text-sm text-brand-700">Example monthly total</dt>
            <dd className="mt-1 text-lg font-bold text-brand-700">{formatCents(exampleTotal, "MYR")}</dd>
          </div>
        </dl>
      </section>

      <section className="bg-gray-900 py-14 text-center text-white">
        <h2 className="text-3xl font-bold">Start your tribe today</h2>
        <p className="mx-auto mt-3 max-w-xl text-gray-300">
          Open a shop, run group buys and Guess &amp; Win games, and give your fans a prize pool they can verify.
        </p>
        <Link
          to="/signup"
          className="mt-6 inline-block rounded-lg bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-700"
        >
          Sign Up Now
        </Link>
      </section>
    </div>
  );
}
