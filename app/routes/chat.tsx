import { redirect } from "react-router";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { DateText, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listThread } from "~/db/queries/chat.server";
import { getProfileByIdOrSlug } from "~/db/queries/profiles.server";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/chat";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Chat with ${loaderData.other.creatorName}` : errorTitle(error, "Member not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const id = idParam(params.id);
  if (id === user.id) throw redirect("/chat");
  const db = getDb(getEnv(context));
  const other = await getProfileByIdOrSlug(db, id);
  if (!other || other.userId !== id) notFound();
  const messages = await listThread(db, user.id, other.userId, 50);
  return {
    other: { userId: other.userId, creatorName: other.creatorName, avatarUrl: other.avatarUrl },
    messages: messages.map((m) => ({ id: m.id, mine: m.senderId === user.id, body: m.body, createdAt: m.createdAt })),
  };
}

export default function Chat({ loaderData }: Route.ComponentProps) {
  const { other, messages } = loaderData;
  return (
    <Page title={other.creatorName} subtitle="Direct messages" width="narrow" back={{ to: "/tribe", label: "Back to Tribe" }}>
      <div className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
        {messages.length === 0 ? (
          <p className="py-8 text-center text-sm text-gray-600">No messages yet. Say hello!</p>
        ) : (
          <ol className="space-y-3" aria-label="Messages">
            {messages.map((m) => (
              <li key={m.id} className={`flex ${m.mine ? "justify-end" : "justify-start"}`}>
                <div className={`max-w-[80%] rounded-2xl px-4 py-2 text-sm ${m.mine ? "bg-brand-600 text-white" : "bg-gray-100 text-gray-900"}`}>
                  <p className="whitespace-pre-line break-words">{m.body}</p>
                  <p className={`mt-1 text-[11px] ${m.mine ? "text-brand-100" : "text-gray-500"}`}>
                    <DateText value={m.createdAt} withTime />
                  </p>
                </div>
              </li>
            ))}
          </ol>
        )}
      </div>
      <p className="mt-3 text-xs text-gray-500">Sending messages will be added to this page.</p>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} notFound={{ title: "Member not found", message: "This member doesn't exist.", action: { to: "/chat", label: "Back to Messages" } }} />;
}
