import { Link } from "react-router";
import { Badge, EmptyState, Page, pageMeta, Pagination } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listPublicProfiles } from "~/db/queries/profiles.server";
import { getEnv } from "~/lib/context";
import { pageParam } from "~/lib/route-params.server";
import type { Route } from "./+types/explore";

const PAGE_SIZE = 24;

export const meta: Route.MetaFunction = () => pageMeta("Explore", "Discover creators, their shops and their Guess & Win games.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = pageParam(request);
  const rows = await listPublicProfiles(getDb(getEnv(context)), { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE });
  return { page, creators: rows.slice(0, PAGE_SIZE), hasNext: rows.length > PAGE_SIZE };
}

export default function Explore({ loaderData }: Route.ComponentProps) {
  const { creators, page, hasNext } = loaderData;
  return (
    <Page title="Explore" subtitle="Creators with a public profile, most followed first.">
      {creators.length === 0 ? (
        <EmptyState title="No creators found" message="No creator has a public profile yet." action={{ to: "/signup", label: "Become a creator" }} />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {creators.map((c) => (
            <li key={c.userId}>
              <Link
                to={`/profile/${c.slug ?? c.userId}`}
                className="flex h-full gap-4 rounded-xl border border-gray-200 bg-white p-4 shadow-sm transition hover:border-brand-500 focus-visible:outline-2 focus-visible:outline-brand-500"
              >
                {c.avatarUrl ? (
                  <img src={c.avatarUrl} alt="" loading="lazy" className="h-14 w-14 shrink-0 rounded-full object-cover" />
                ) : (
                  <span aria-hidden="true" className="grid h-14 w-14 shrink-0 place-items-center rounded-full bg-brand-100 text-xl font-bold text-brand-700">
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
                    {c.showFollowers ? ` · ${c.followersCount} tribes` : null}
                  </span>
                  {c.bio ? <span className="mt-1 line-clamp-2 block text-sm text-gray-600">{c.bio}</span> : null}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={(n) => `/explore?page=${n}`} />
    </Page>
  );
}
