import { data } from "react-router";
import { getDb } from "~/db/client.server";
import { listOutbox } from "~/db/queries/accounts.server";
import { searchText } from "~/domain/search";
import { isDemoMode } from "~/lib/config.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/dev-outbox";

export const meta: Route.MetaFunction = () => [{ title: "Dev outbox · Tribe" }];

/** Local runs only: the e-mails the app would have sent. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const env = getEnv(context);
  if (!isDemoMode(env)) throw data(null, { status: 404 });
  // ?q= narrows the list to the messages whose address or subject contains it.
  const messages = await listOutbox(getDb(env), searchText(new URL(request.url).searchParams.get("q")));
  return {
    messages: messages.map((m) => ({
      id: m.id,
      to: m.toAddress,
      subject: m.subject,
      text: m.textBody,
      sentAt: m.createdAt.toISOString(),
    })),
  };
}

function linkify(text: string) {
  return text.split(/(https?:\/\/\S+)/g).map((part, i) =>
    /^https?:\/\//.test(part) ? (
      <a key={i} href={part} className="break-all text-brand-700 underline">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

export default function DevOutbox({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold">Dev outbox</h1>
      <p className="mt-1 text-sm text-gray-600">
        Local runs send no e-mail: messages land here instead (newest first).
      </p>
      {loaderData.messages.length === 0 ? (
        <p className="mt-8 rounded-lg bg-white p-6 text-center text-gray-600 ring-1 ring-gray-200">No messages yet.</p>
      ) : (
        <ul className="mt-6 space-y-4">
          {loaderData.messages.map((m) => (
            <li key={m.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-gray-200">
              <p className="text-sm text-gray-500">
                To <span className="font-medium text-gray-800">{m.to}</span> ·{" "}
                {new Date(m.sentAt).toLocaleString("en-GB")}
              </p>
              <p className="mt-1 font-semibold">{m.subject}</p>
              <pre className="mt-2 whitespace-pre-wrap font-sans text-sm text-gray-700">{linkify(m.text)}</pre>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
