import { Form } from "react-router";
import { Link } from "~/components/link";
import {
  Badge,
  Button,
  DateText,
  EmptyState,
  LinkButton,
  Page,
  pageMeta,
  Pagination,
  Section,
  Stat,
} from "~/components/page";
import { getDb } from "~/db/client.server";
import { listHostWinners } from "~/db/queries/pools.server";
import { countTribe, listTopContributors, listTribeMembers } from "~/db/queries/tribe.server";
import { formatCents } from "~/domain/money";
import {
  activeSince,
  TRIBE_FILTER_LABELS,
  TRIBE_FILTERS,
  TRIBE_PAGE_SIZE,
  TRIBE_RECENT_WINNERS,
  TRIBE_TOP_CONTRIBUTORS,
  tribeQuerySchema,
  type TribeQuery,
} from "~/domain/tribe";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/tribe";
import { SEARCH_MAX_LENGTH } from "~/domain/search";

export const meta: Route.MetaFunction = () => pageMeta("My Tribe");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const params = new URL(request.url).searchParams;
  const query = tribeQuerySchema.parse({ q: params.get("q"), filter: params.get("filter"), page: params.get("page") });
  const db = getDb(getEnv(context));
  const since = activeSince(new Date());
  const [list, counts, contributors, winners] = await Promise.all([
    listTribeMembers(db, user.id, query, { since, pageSize: TRIBE_PAGE_SIZE }),
    countTribe(db, user.id, since),
    listTopContributors(db, user.id, TRIBE_TOP_CONTRIBUTORS),
    listHostWinners(db, user.id, TRIBE_RECENT_WINNERS),
  ]);
  return { query, counts, ...list, contributors, winners };
}

function tribeHref(query: TribeQuery, change: Partial<TribeQuery>) {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.filter !== "all") params.set("filter", next.filter);
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return text ? `/tribe?${text}` : "/tribe";
}

function Initial({ name, url }: { name: string; url: string | null }) {
  return url ? (
    <img src={url} alt="" className="h-10 w-10 rounded-full object-cover" />
  ) : (
    <span
      aria-hidden="true"
      className="grid h-10 w-10 place-items-center rounded-full bg-brand-100 font-bold text-brand-700"
    >
      {name.charAt(0).toUpperCase() || "?"}
    </span>
  );
}

export default function Tribe({ loaderData }: Route.ComponentProps) {
  const { query, counts, members, hasMore, contributors, winners } = loaderData;
  const countFor = { all: counts.total, active: counts.active, inactive: counts.inactive } as const;
  return (
    <Page
      title="My Tribe"
      subtitle="The fans who joined your tribe. Active members ordered, guessed or wrote to you in the last 30 days."
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        <LinkButton to="/prize-pool-details" variant="secondary">
          Prize pool details
        </LinkButton>
      }
    >
      <div className="grid grid-cols-3 gap-3">
        <Stat label="Members" value={counts.total} />
        <Stat label="Active" value={counts.active} />
        <Stat label="Inactive" value={counts.inactive} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <Section title="Members">
            <Form method="get" role="search" className="mb-3 flex flex-wrap items-end gap-2">
              {query.filter !== "all" ? <input type="hidden" name="filter" value={query.filter} /> : null}
              <label className="flex-1 text-sm">
                <span className="block font-medium text-gray-700">Search members</span>
                <input
                  type="search"
                  name="q"
                  defaultValue={query.q}
                  maxLength={SEARCH_MAX_LENGTH}
                  placeholder="Member name"
                  className="mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 text-sm"
                />
              </label>
              <Button type="submit" variant="secondary">
                Search
              </Button>
            </Form>
            <nav aria-label="Member filter" className="mb-3 flex gap-2">
              {TRIBE_FILTERS.map((filter) => (
                <Link
                  key={filter}
                  to={tribeHref(query, { filter, page: 1 })}
                  aria-current={query.filter === filter ? "page" : undefined}
                  className={`rounded-full px-3 py-1 text-sm font-medium ${
                    query.filter === filter ? "bg-brand-600 text-white" : "bg-gray-100 text-gray-700 hover:bg-gray-200"
                  }`}
                >
                  {TRIBE_FILTER_LABELS[filter]} ({countFor[filter]})
                </Link>
              ))}
            </nav>
            {members.length === 0 ? (
              counts.total === 0 ? (
                <EmptyState
                  title="No tribe members yet"
                  message="Share your profile and games; fans who join your tribe appear here."
                />
              ) : (
                <EmptyState title="No members match" message="Try another name or filter." />
              )
            ) : (
              <ul
                aria-label="Tribe members"
                className="divide-y divide-gray-100 rounded-xl border border-gray-200 bg-white shadow-sm"
              >
                {members.map((m) => (
                  <li key={m.userId} className="flex items-center gap-3 px-4 py-3">
                    <Initial name={m.creatorName} url={m.avatarUrl} />
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-medium text-gray-900">{m.creatorName}</p>
                      <p className="text-xs text-gray-500">
                        Joined <DateText value={m.joinedAt} />
                      </p>
                    </div>
                    <Badge tone={m.active ? "green" : "gray"}>{m.active ? "Active" : "Inactive"}</Badge>
                    <Link
                      to={`/chat/${m.userId}`}
                      aria-label={`Chat with ${m.creatorName}`}
                      className="text-sm font-semibold text-brand-700 hover:underline"
                    >
                      Chat
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            <Pagination page={query.page} hasNext={hasMore} hrefFor={(page) => tribeHref(query, { page })} />
          </Section>
        </div>

        <div className="space-y-6">
          <Section title="Top contributors">
            {contributors.length === 0 ? (
              <p className="rounded-xl border border-gray-200 bg-white p-4 text-sm text-gray-600">
                No contributions to your prize pools yet.
              </p>
            ) : (
              <ol
                aria-label="Top contributors"
                className="divide-y divide-gray-100 rounded-xl border border-gray-200 bg-white shadow-sm"
              >
                {contributors.map((c, index) => (
                  <li key={`${c.userId}-${c.currency}`} className="flex items-center gap-3 px-4 py-3">
                    <span className="w-5 text-sm font-bold text-gray-500">{index + 1}</span>
                    <Initial name={c.creatorName} url={c.avatarUrl} />
                    <span className="min-w-0 flex-1 truncate font-medium text-gray-900">{c.creatorName}</span>
                    <span className="text-sm font-semibold whitespace-nowrap text-gray-900">
                      {formatCents(Number(c.totalCents), c.currency)}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </Section>
          <Section title="Recent winners">
            {winners.length === 0 ? (
              <p className="rounded-xl border border-gray-200 bg-white p-4 text-sm text-gray-600">
                No winners drawn yet.
              </p>
            ) : (
              <ul
                aria-label="Recent winners"
                className="divide-y divide-gray-100 rounded-xl border border-gray-200 bg-white shadow-sm"
              >
                {winners.map((w) => (
                  <li key={w.id} className="px-4 py-3">
                    <p className="font-medium text-gray-900">{w.winnerName}</p>
                    <p className="text-xs text-gray-600">
                      {w.prizeType === "main" ? "Main prize" : (w.gameQuestion ?? "Prize")} ·{" "}
                      {formatCents(w.prizeAmountCents, w.currency)} · <DateText value={w.createdAt} />
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </Section>
        </div>
      </div>
    </Page>
  );
}
