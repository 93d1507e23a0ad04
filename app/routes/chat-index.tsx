import { redirect } from "react-router";
import { Link } from "~/components/link";
import { DateText, EmptyState, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listConversations } from "~/db/queries/chat.server";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/chat-index";

const ID_LIKE = /^[A-Za-z0-9_-]{1,64}$/;

export const meta: Route.MetaFunction = () => pageMeta("Messages");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  // /chat?creator={id} (the profile page's Chat button) opens that conversation.
  const hostId = new URL(request.url).searchParams.get("creator");
  if (hostId && ID_LIKE.test(hostId) && hostId !== user.id) throw redirect(`/chat/${hostId}`);
  const rows = await listConversations(getDb(getEnv(context)), user.id);
  return {
    conversations: rows.map((c) => ({ ...c, unread: Number(c.unread) || 0, lastMessage: c.lastMessage ?? "" })),
  };
}

export default function ChatIndex({ loaderData }: Route.ComponentProps) {
  const { conversations } = loaderData;
  return (
    <Page title="Messages" width="narrow" back={{ to: "/tribe", label: "Back to Tribe" }}>
      {conversations.length === 0 ? (
        <EmptyState
          title="No conversations yet"
          message="Start a chat from a creator's profile or from your tribe."
          action={{ to: "/explore", label: "Explore creators" }}
        />
      ) : (
        <ul className="divide-y divide-gray-100 rounded-xl border border-gray-200 bg-white shadow-sm">
          {conversations.map((c) => (
            <li key={c.id}>
              <Link to={`/chat/${c.id}`} className="flex items-center gap-3 px-4 py-3 hover:bg-gray-50">
                {c.avatarUrl ? (
                  <img src={c.avatarUrl} alt="" className="h-10 w-10 rounded-full object-cover" />
                ) : (
                  <span
                    aria-hidden="true"
                    className="grid h-10 w-10 place-items-center rounded-full bg-brand-100 font-bold text-brand-700"
                  >
                    {c.creatorName.charAt(0).toUpperCase()}
                  </span>
                )}
                <span className="min-w-0 flex-1">
                  <span className={`block truncate text-gray-900 ${c.unread > 0 ? "font-bold" : "font-medium"}`}>
                    {c.creatorName}
                  </span>
                  <span className="block truncate text-sm text-gray-600">{c.lastMessage}</span>
                </span>
                <span className="flex flex-col items-end gap-1 text-xs text-gray-500">
                  <DateText value={c.lastAt} />
                  {c.unread > 0 ? (
                    <span className="rounded-full bg-brand-600 px-2 py-0.5 font-semibold text-white">
                      {c.unread} <span className="sr-only">unread</span>
                    </span>
                  ) : null}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
