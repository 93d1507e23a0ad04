import { DurableObject } from "cloudflare:workers";
import { getDb } from "~/db/client.server";
import {
  addressTag,
  CHAT_SOCKETS_PER_ADDRESS,
  CHAT_SOCKETS_PER_CONVERSATION,
  connectionRefusal,
  openSockets,
  freshBudget,
  SOCKET_CLOSE_REASONS,
  SOCKET_POLICY_CLOSE,
  spendMessage,
  type SocketBudget,
} from "~/domain/socket-budget";
import { CHAT_SESSION_HEADER, CHAT_USER_HEADER, type ChatLiveMessage, type ChatRoomApi } from "~/lib/chat-live";
import { getSessionUserOf } from "~/lib/session.server";

/** What each socket carries through hibernation: whose session opened it, and its message budget. */
type ChatSocketAttachment = { userId: string; sessionId: string; budget: SocketBudget };

/**
 * One conversation's live relay (named by the conversation id). The Worker lets only the conversation's two
 * parties reach `fetch` (workers/chat-api.ts checks the session and the conversation first); the chat page's
 * action calls `broadcast` after the message is stored in D1. Sockets hibernate between messages; "ping" is
 * answered with "pong" without waking the object. Before delivering a message, the object checks each socket's
 * session again (signed out, expired, revoked or its account suspended: the socket is closed instead); sockets have
 * a message budget and connection limits per address and per conversation (decision 430).
 */
export class ChatRoom extends DurableObject<Env> implements ChatRoomApi {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const userId = request.headers.get(CHAT_USER_HEADER);
    const sessionId = request.headers.get(CHAT_SESSION_HEADER);
    if (!userId || !sessionId) return new Response("Not found", { status: 404 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    const tag = addressTag(request.headers.get("CF-Connecting-IP"));
    const refusal = connectionRefusal(
      { fromAddress: openSockets(this.ctx.getWebSockets(tag)), total: openSockets(this.ctx.getWebSockets()) },
      { perAddress: CHAT_SOCKETS_PER_ADDRESS, total: CHAT_SOCKETS_PER_CONVERSATION },
    );
    if (refusal) {
      server.accept();
      server.close(SOCKET_POLICY_CLOSE, refusal);
      return new Response(null, { status: 101, webSocket: client });
    }
    this.ctx.acceptWebSocket(server, [userId, tag]);
    const attachment: ChatSocketAttachment = { userId, sessionId, budget: freshBudget(Date.now()) };
    server.serializeAttachment(attachment);
    return new Response(null, { status: 101, webSocket: client });
  }

  async broadcast(message: ChatLiveMessage): Promise<number> {
    const text = JSON.stringify(message);
    const db = getDb(this.env);
    const now = new Date();
    // One lookup per session, however many sockets it holds.
    const live = new Map<string, Promise<boolean>>();
    const stillSignedIn = (attachment: ChatSocketAttachment) => {
      let check = live.get(attachment.sessionId);
      if (!check) {
        check = getSessionUserOf(db, { sessionId: attachment.sessionId, now }).then(
          (user) => user?.id === attachment.userId,
        );
        live.set(attachment.sessionId, check);
      }
      return check;
    };
    const outcomes = await Promise.all(
      this.ctx.getWebSockets().map(async (socket) => {
        const attachment = socket.deserializeAttachment() as ChatSocketAttachment | null;
        try {
          if (!attachment || !(await stillSignedIn(attachment))) {
            socket.close(SOCKET_POLICY_CLOSE, SOCKET_CLOSE_REASONS.sessionEnded);
            return 0;
          }
          socket.send(text);
          return 1;
        } catch {
          // A socket that is closing; it leaves getWebSockets() on its own.
          return 0;
        }
      }),
    );
    return outcomes.reduce<number>((sum, sent) => sum + sent, 0);
  }

  async webSocketMessage(ws: WebSocket): Promise<void> {
    // Clients only listen (and ping, answered without waking the object); messages are sent through the page's
    // action so they are validated and stored first. Anything else counts against the socket's budget.
    if (ws.readyState !== WebSocket.OPEN) return;
    const attachment = ws.deserializeAttachment() as ChatSocketAttachment | null;
    if (!attachment) {
      ws.close(SOCKET_POLICY_CLOSE, SOCKET_CLOSE_REASONS.sessionEnded);
      return;
    }
    const spent = spendMessage(attachment.budget, Date.now());
    if (!spent.withinBudget) {
      ws.close(SOCKET_POLICY_CLOSE, SOCKET_CLOSE_REASONS.tooManyMessages);
      return;
    }
    ws.serializeAttachment({ ...attachment, budget: spent.budget } satisfies ChatSocketAttachment);
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // Already closed, or a reserved code (1005/1006) that cannot be echoed.
    }
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    try {
      ws.close(1011, "error");
    } catch {
      // Already closed.
    }
  }
}
