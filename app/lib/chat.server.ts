// Sending a chat message: checked (party, blank, length, rate), stored in D1, then relayed live by the
// conversation's ChatRoom object.

import { getDb } from "~/db/client.server";
import { countMessagesSentSince, getConversationForUser, insertChatMessage } from "~/db/queries/chat.server";
import { CHAT_MESSAGES, CHAT_RATE_LIMIT, CHAT_RATE_WINDOW_MS, chatMessageSchema } from "~/domain/chat";
import type { ChatLiveEntry } from "./chat-live";

export type SendResult = { ok: true; message: ChatLiveEntry } | { ok: false; status: 400 | 404 | 429; error: string };

/** The conversation's ChatRoom object (named by the conversation id). */
export function chatRoom(env: Pick<Env, "CHAT_ROOM">, conversationId: string) {
  return env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(conversationId));
}

export async function sendChatMessage(
  env: Env,
  senderId: string,
  conversationId: string,
  rawBody: unknown,
  now = new Date(),
): Promise<SendResult> {
  const db = getDb(env);
  const conversation = await getConversationForUser(db, conversationId, senderId);
  if (!conversation) return { ok: false, status: 404, error: CHAT_MESSAGES.notFound };
  const body = chatMessageSchema.safeParse(typeof rawBody === "string" ? rawBody : "");
  if (!body.success) return { ok: false, status: 400, error: body.error.issues[0]?.message ?? CHAT_MESSAGES.blank };
  const recent = await countMessagesSentSince(db, senderId, new Date(now.getTime() - CHAT_RATE_WINDOW_MS));
  if (recent >= CHAT_RATE_LIMIT) return { ok: false, status: 429, error: CHAT_MESSAGES.rateLimited };
  const stored = await insertChatMessage(db, {
    conversationId,
    senderId,
    recipientId: conversation.otherId,
    body: body.data,
    now,
  });
  const message: ChatLiveEntry = { ...stored, createdAt: stored.createdAt.getTime() };
  try {
    await chatRoom(env, conversationId).broadcast({ type: "message", conversationId, message });
  } catch (error) {
    // The message is stored; the other party sees it on their next load even if the live relay failed.
    console.error("chat relay failed", error);
  }
  return { ok: true, message };
}
