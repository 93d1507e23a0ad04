import { DurableObject } from "cloudflare:workers";
import { CHAT_USER_HEADER, type ChatLiveMessage, type ChatRoomApi } from "~/lib/chat-live";

/**
 * One conversation's live relay (named by the conversation id). The Worker lets only the conversation's two
 * parties reach `fetch` (workers/chat-api.ts checks the session and the conversation first); the chat page's
 * action calls `broadcast` after the message is stored in D1. Sockets hibernate between messages; "ping" is
 * answered with "pong" without waking the object.
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
    if (!userId) return new Response("Not found", { status: 404 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [userId]);
    return new Response(null, { status: 101, webSocket: client });
  }

  async broadcast(message: ChatLiveMessage): Promise<number> {
    const text = JSON.stringify(message);
    let sent = 0;
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(text);
        sent += 1;
      } catch {
        // A socket that is closing; it leaves getWebSockets() on its own.
      }
    }
    return sent;
  }

  async webSocketMessage(): Promise<void> {
    // Clients only listen; messages are sent through the page's action so they are validated and stored first.
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
