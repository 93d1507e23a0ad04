import { useEffect, useEffectEvent, useRef, useState } from "react";
import { data, Form, redirect, useFetcher } from "react-router";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { DateText, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import {
  canStartConversation,
  getChatPartner,
  getConversationForUser,
  findConversation,
  getOrCreateConversation,
  listThreadMessages,
  markConversationRead,
} from "~/db/queries/chat.server";
import { CHAT_MESSAGE_MAX_LENGTH, CHAT_MESSAGES, CHAT_THREAD_PAGE_SIZE, isSendKey } from "~/domain/chat";
import { idParam, notFound, requireUser } from "~/lib/guards.server";
import { chatSocketPath, isChatLiveMessage, type ChatLiveEntry } from "~/lib/chat-live";
import { sendChatMessage } from "~/lib/chat.server";
import { getEnv } from "~/lib/context";
import { openReconnectingSocket } from "~/lib/reconnecting-socket";
import type { Route } from "./+types/chat";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Chat with ${loaderData.other.creatorName}` : errorTitle(error, "Conversation not found"));

/** Someone the user may start a conversation with (a member of their tribe, the host of a tribe they joined, or a host with a public profile), else 404. */
async function startablePartner(db: ReturnType<typeof getDb>, userId: string, partnerId: string) {
  const partner = await getChatPartner(db, partnerId);
  if (!partner || !(await canStartConversation(db, userId, partner.userId, partner.profilePublic))) notFound();
  return partner;
}

/**
 * /chat/{id}: `id` is a conversation of the signed-in user, or the user id of someone they may write to: then the
 * pair's conversation if it exists, else a page whose button starts it (a GET creates nothing: link checkers and
 * prefetches follow links). Anyone else gets 404.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const id = idParam(params.id);
  if (id === user.id) throw redirect("/chat");
  const db = getDb(getEnv(context));
  const conversation = await getConversationForUser(db, id, user.id);
  if (!conversation) {
    const partner = await startablePartner(db, user.id, id);
    const existing = await findConversation(db, user.id, partner.userId);
    if (existing) throw redirect(`/chat/${existing}`);
    return {
      start: true as const,
      other: { userId: partner.userId, creatorName: partner.creatorName, avatarUrl: partner.avatarUrl },
    };
  }
  const other = await getChatPartner(db, conversation.otherId);
  if (!other) notFound();
  const [messages] = await Promise.all([
    listThreadMessages(db, conversation.id, CHAT_THREAD_PAGE_SIZE),
    markConversationRead(db, conversation.id, user.id),
  ]);
  return {
    start: false as const,
    conversationId: conversation.id,
    me: user.id,
    other: { userId: other.userId, creatorName: other.creatorName, avatarUrl: other.avatarUrl },
    messages: messages.map((m) => ({ id: m.id, senderId: m.senderId, body: m.body, createdAt: m.createdAt.getTime() })),
  };
}

type ActionData = { ok: true; message?: ChatLiveEntry } | { ok: false; error: string };

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const id = idParam(params.id);
  const env = getEnv(context);
  const form = await request.formData();
  if (form.get("intent") === "start") {
    // /chat/{userId}'s button: the pair's conversation, created once.
    const db = getDb(env);
    if (id === user.id) throw redirect("/chat");
    const partner = await startablePartner(db, user.id, id);
    throw redirect(`/chat/${await getOrCreateConversation(db, user.id, partner.userId)}`);
  }
  if (form.get("intent") === "read") {
    const db = getDb(env);
    const conversation = await getConversationForUser(db, id, user.id);
    if (!conversation) return data<ActionData>({ ok: false, error: CHAT_MESSAGES.notFound }, { status: 404 });
    await markConversationRead(db, conversation.id, user.id);
    return data<ActionData>({ ok: true });
  }
  const result = await sendChatMessage(env, user.id, id, form.get("body"));
  if (!result.ok) return data<ActionData>({ ok: false, error: result.error }, { status: result.status });
  return data<ActionData>({ ok: true, message: result.message });
}

function mergeMessages(a: readonly ChatLiveEntry[], b: readonly ChatLiveEntry[]): ChatLiveEntry[] {
  const byId = new Map<string, ChatLiveEntry>();
  for (const m of [...a, ...b]) byId.set(m.id, m);
  return [...byId.values()].sort((x, y) => x.createdAt - y.createdAt || x.id.localeCompare(y.id));
}

/** Opens the conversation's WebSocket and hands every live message to `onMessage`; reconnects after a drop. */
function useChatLive(conversationId: string, onMessage: (message: ChatLiveEntry) => void) {
  const handle = useEffectEvent(onMessage);
  const [connected, setConnected] = useState(false);
  useEffect(
    () =>
      openReconnectingSocket(chatSocketPath(conversationId), {
        onMessage: (message) => {
          if (isChatLiveMessage(message, conversationId)) handle(message.message);
        },
        onOpenChange: setConnected,
      }),
    [conversationId],
  );
  return connected;
}

export default function Chat({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.start) return <StartChat other={loaderData.other} />;
  return <Thread loaderData={loaderData} actionData={actionData} />;
}

/** /chat/{userId} before the pair has a conversation: one button starts it (a POST). */
function StartChat({ other }: { other: { creatorName: string } }) {
  return (
    <Page
      title={other.creatorName}
      subtitle="Direct messages"
      width="narrow"
      back={{ to: "/chat", label: "Back to Messages" }}
    >
      <Form method="post" className="rounded-xl border border-gray-200 bg-white p-6 text-center shadow-sm">
        <p className="mb-4 text-sm text-gray-600">You have no conversation with {other.creatorName} yet.</p>
        <input type="hidden" name="intent" value="start" />
        <button
          type="submit"
          className="rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
        >
          Start a conversation
        </button>
      </Form>
    </Page>
  );
}

function Thread({
  loaderData,
  actionData,
}: {
  loaderData: Extract<Route.ComponentProps["loaderData"], { start: false }>;
  actionData: Route.ComponentProps["actionData"];
}) {
  const { conversationId, me, other } = loaderData;
  const [messages, setMessages] = useState<ChatLiveEntry[]>(loaderData.messages);
  const [draftError, setDraftError] = useState<string | null>(null);
  const send = useFetcher<ActionData>();
  const read = useFetcher<ActionData>();
  const formRef = useRef<HTMLFormElement>(null);
  const listEnd = useRef<HTMLLIElement>(null);

  // Revalidated loader data (after a send, or a reload) joins what arrived live (adjusted while rendering).
  const [seenLoaded, setSeenLoaded] = useState(loaderData.messages);
  if (seenLoaded !== loaderData.messages) {
    setSeenLoaded(loaderData.messages);
    setMessages(mergeMessages(messages, loaderData.messages));
  }

  const connected = useChatLive(conversationId, (message) => {
    setMessages((current) => mergeMessages(current, [message]));
    if (message.senderId !== me) read.submit({ intent: "read" }, { method: "post" });
  });

  // The composer clears as soon as a message is sent; a refused message comes back for editing.
  const pendingBody = useRef<string | null>(null);
  const [seenSent, setSeenSent] = useState(send.data);
  if (send.state === "idle" && send.data && send.data !== seenSent) {
    setSeenSent(send.data);
    if (send.data.ok && send.data.message) setMessages(mergeMessages(messages, [send.data.message]));
  }
  useEffect(() => {
    const result = send.data;
    if (send.state !== "idle" || !result) return;
    if (!result.ok && pendingBody.current !== null) {
      const box = formRef.current?.elements.namedItem("body");
      if (box instanceof HTMLTextAreaElement && box.value === "") box.value = pendingBody.current;
    }
    pendingBody.current = null;
  }, [send.state, send.data]);

  useEffect(() => {
    listEnd.current?.scrollIntoView({ block: "end" });
  }, [messages.length]);

  // A send answered through the fetcher (JavaScript), or a plain form post (actionData).
  const answer = send.data ?? actionData;
  const serverError = answer && !answer.ok ? answer.error : null;
  const error = draftError ?? serverError;

  function submitIfFilled(form: HTMLFormElement) {
    const body = new FormData(form).get("body");
    if (typeof body !== "string" || body.trim() === "") {
      setDraftError(CHAT_MESSAGES.blank);
      return;
    }
    setDraftError(null);
    pendingBody.current = body;
    send.submit(new FormData(form), { method: "post" });
    form.reset();
  }

  return (
    <Page
      title={other.creatorName}
      subtitle="Direct messages"
      width="narrow"
      back={{ to: "/tribe", label: "Back to Tribe" }}
    >
      <div className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
        {messages.length === 0 ? (
          <p className="py-8 text-center text-sm text-gray-600">No messages yet. Say hello!</p>
        ) : (
          <ol
            className="max-h-[60vh] space-y-3 overflow-y-auto"
            aria-label="Messages"
            aria-live="polite"
            // A scrolling list takes the keyboard's focus, so its arrow keys scroll it (axe: scrollable-region-focusable).
            tabIndex={0}
          >
            {messages.map((m) => {
              const mine = m.senderId === me;
              return (
                <li key={m.id} className={`flex ${mine ? "justify-end" : "justify-start"}`}>
                  <div
                    className={`max-w-[80%] rounded-2xl px-4 py-2 text-sm ${mine ? "bg-brand-600 text-white" : "bg-gray-100 text-gray-900"}`}
                  >
                    <p className="break-words whitespace-pre-line">{m.body}</p>
                    <p className={`mt-1 text-[11px] ${mine ? "text-white" : "text-gray-600"}`}>
                      <DateText value={m.createdAt} withTime />
                    </p>
                  </div>
                </li>
              );
            })}
            <li ref={listEnd} aria-hidden="true" />
          </ol>
        )}
      </div>
      <send.Form
        ref={formRef}
        method="post"
        className="mt-3"
        onSubmit={(event) => {
          event.preventDefault();
          submitIfFilled(event.currentTarget);
        }}
      >
        <label htmlFor="chat-body" className="sr-only">
          Message to {other.creatorName}
        </label>
        <div className="flex items-end gap-2">
          <textarea
            id="chat-body"
            name="body"
            rows={2}
            maxLength={CHAT_MESSAGE_MAX_LENGTH}
            placeholder="Type a message…"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "chat-error" : "chat-hint"}
            onChange={() => draftError && setDraftError(null)}
            onKeyDown={(event) => {
              if (!isSendKey({ key: event.key, shiftKey: event.shiftKey, isComposing: event.nativeEvent.isComposing }))
                return;
              event.preventDefault();
              submitIfFilled(event.currentTarget.form!);
            }}
            className="block min-h-[2.75rem] w-full resize-y rounded-lg border border-gray-300 px-3 py-2 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none aria-[invalid=true]:border-red-500"
          />
          <button
            type="submit"
            disabled={send.state !== "idle"}
            className="rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60"
          >
            Send
          </button>
        </div>
        {error ? (
          <p id="chat-error" role="alert" className="mt-1 text-sm text-red-600">
            {error}
          </p>
        ) : (
          <p id="chat-hint" className="mt-1 text-xs text-gray-500">
            Enter sends, Shift+Enter adds a line.{connected ? "" : " Connecting for live messages…"}
          </p>
        )}
      </send.Form>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Conversation not found",
        message: "This conversation doesn't exist or isn't yours.",
        action: { to: "/chat", label: "Back to Messages" },
      }}
    />
  );
}
