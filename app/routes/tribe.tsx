import { Link } from "react-router";
import { Badge, DateText, EmptyState, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listTribeMembers } from "~/db/queries/profiles.server";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/tribe";

export const meta: Route.MetaFunction = () => pageMeta("My Tribe");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const members = await listTribeMembers(getDb(getEnv(context)), user.id, 50);
  return { members };
}

export default function Tribe({ loaderData }: Route.ComponentProps) {
  const { members } = loaderData;
  return (
    <Page
      title="My Tribe"
      subtitle="The fans who joined your tribe, newest first."
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        <LinkButton to="/prize-pool-details" variant="secondary">
          Prize pool details
        </LinkButton>
      }
    >
      {members.length === 0 ? (
        <EmptyState title="No tribe members yet" message="Share your profile and games; fans who join your tribe appear here." />
      ) : (
        <ul className="divide-y divide-gray-100 rounded-xl border border-gray-200 bg-white shadow-sm">
          {members.map((m) => (
            <li key={m.userId} className="flex items-center gap-3 px-4 py-3">
              {m.avatarUrl ? (
                <img src={m.avatarUrl} alt="" className="h-10 w-10 rounded-full object-cover" />
              ) : (
                <span aria-hidden="true" className="grid h-10 w-10 place-items-center rounded-full bg-brand-100 font-bold text-brand-700">
                  {(m.creatorName ?? "?").charAt(0).toUpperCase()}
                </span>
              )}
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-gray-900">{m.creatorName ?? "Member"}</p>
                <p className="text-xs text-gray-500">
                  Joined <DateText value={m.joinedAt} />
                </p>
              </div>
              <Badge tone={m.status === "active" ? "green" : "gray"}>{m.status === "active" ? "Active" : "Inactive"}</Badge>
              <Link to={`/chat/${m.userId}`} className="text-sm font-semibold text-brand-700 hover:underline">
                Chat
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
