// The contract between the chat pages and the ChatRoom Durable Object (workers/chat-room.ts): one object per
// conversation, named by the conversation id, that pushes new messages to the two parties over hibernating
// WebSockets. D1 stays the record; the object only relays.

/** A message as the thread shows it (times in epoch milliseconds). */
export type ChatLiveEntry = { id: string; senderId: string; body: string; createdAt: number };

/** What the object sends to every socket of the conversation. */
export type ChatLiveMessage = { type: "message"; conversationId: string; message: ChatLiveEntry };

/** The RPC surface of the ChatRoom object. */
export interface ChatRoomApi {
  /** Sends the message to every open socket of the conversation; returns how many sockets got it. */
  broadcast(message: ChatLiveMessage): Promise<number>;
}

/** The request header the Worker sets (after checking the session) to tell the object who is connecting. */
export const CHAT_USER_HEADER = "X-Chat-User";
/** The header that names the session (the sessions row's id, never the token) the object re-checks on delivery. */
export const CHAT_SESSION_HEADER = "X-Chat-Session";

/** The WebSocket path of a conversation's live messages (served by workers/chat-api.ts). */
export function chatSocketPath(conversationId: string): string {
  return `/api/chat/${encodeURIComponent(conversationId)}/live`;
}

export function isChatLiveMessage(value: unknown, conversationId: string): value is ChatLiveMessage {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Partial<ChatLiveMessage>;
  return (
    m.type === "message" &&
    m.conversationId === conversationId &&
    typeof m.message?.id === "string" &&
    typeof m.message.body === "string" &&
    typeof m.message.senderId === "string" &&
    typeof m.message.createdAt === "number"
  );
}
