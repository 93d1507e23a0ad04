import { Hono } from "hono";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { getConversationForUser } from "~/db/queries/chat.server";
import { CHAT_SESSION_HEADER, CHAT_USER_HEADER } from "~/lib/chat-live";
import { getSessionUserOf, sessionViewerOf } from "~/lib/session.server";

/** Chat endpoints, mounted at /api/chat: a conversation's live messages for its two parties only. */
export const chatApi = new Hono<{ Bindings: Env }>();

const conversationId = z.string().min(1).max(64);

chatApi.get("/:id/live", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ error: "Expected a WebSocket upgrade" }, 400);
  }
  // A WebSocket handshake carries cookies: only this site's pages may open one.
  const origin = c.req.header("Origin");
  if (origin && origin !== new URL(c.req.url).origin) return c.json({ error: "Forbidden" }, 403);
  const db = getDb(c.env);
  const viewer = await sessionViewerOf(c.req.raw);
  const user = viewer ? await getSessionUserOf(db, viewer) : null;
  if (!viewer || !user) return c.json({ error: "Please sign in" }, 401);
  const id = conversationId.safeParse(c.req.param("id"));
  const conversation = id.success ? await getConversationForUser(db, id.data, user.id) : null;
  // Anyone but the two parties gets the same answer as for a conversation that does not exist.
  if (!conversation) return c.json({ error: "Not found" }, 404);
  // The object needs the upgrade, the client's address (connection limits) and who is connecting; not the cookie.
  const headers = new Headers({ Upgrade: "websocket" });
  const address = c.req.header("CF-Connecting-IP");
  if (address) headers.set("CF-Connecting-IP", address);
  headers.set(CHAT_USER_HEADER, user.id);
  headers.set(CHAT_SESSION_HEADER, viewer.sessionId);
  const stub = c.env.CHAT_ROOM.get(c.env.CHAT_ROOM.idFromName(conversation.id));
  return stub.fetch(new Request(c.req.raw.url, { headers }));
});
