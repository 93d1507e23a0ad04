import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatConversations, chatMessages, tribeMembers, userProfiles } from "~/db/schema";
import { CHAT_MESSAGES, CHAT_RATE_LIMIT } from "~/domain/chat";
import { db, get, makeSignedInUser, makeUser, ORIGIN, pageText, postForm } from "./helpers";
import { openConversation } from "./support/chat";

const person = (name: string) => makeSignedInUser({ name });

function send(cookie: string, conversationId: string, body: string) {
  return postForm(`/chat/${conversationId}`, { body }, { cookie });
}

async function messagesIn(conversationId: string) {
  return db().select().from(chatMessages).where(eq(chatMessages.conversationId, conversationId));
}

function openSocket(conversationId: string, cookie: string | null, origin = ORIGIN) {
  const headers: Record<string, string> = { Upgrade: "websocket", Origin: origin };
  if (cookie) headers.Cookie = cookie;
  return SELF.fetch(`${ORIGIN}/api/chat/${conversationId}/live`, { headers });
}

describe("chat threads", () => {
  it("lets the two parties read and write a thread and nobody else (page, send and WebSocket)", async () => {
    const host = await person("Chat Host");
    const fan = await person("Chat Fan");
    const stranger = await person("Stranger");

    // A fan writes to a host through /chat?creator= (the profile's Chat button).
    const viaHostLink = await get(`/chat?creator=${host.id}`, { cookie: fan.cookie });
    expect(viaHostLink.headers.get("Location")).toBe(`/chat/${host.id}`);
    const conversationId = await openConversation(fan.cookie, host.id);
    expect(await openConversation(host.cookie, fan.id)).toBe(conversationId);

    const sent = await send(fan.cookie, conversationId, "Hello Host!\nDo you ship to Penang?");
    expect(sent.status).toBe(200);
    const hostView = await get(`/chat/${conversationId}`, { cookie: host.cookie });
    expect(hostView.status).toBe(200);
    expect(await pageText(hostView)).toContain("Hello Host! Do you ship to Penang?");

    // A third account: 404 for the page, the send and the socket; nothing stored.
    expect((await get(`/chat/${conversationId}`, { cookie: stranger.cookie })).status).toBe(404);
    expect((await send(stranger.cookie, conversationId, "let me in")).status).toBe(404);
    expect((await openSocket(conversationId, stranger.cookie)).status).toBe(404);
    expect((await openSocket(conversationId, null)).status).toBe(401);
    expect((await messagesIn(conversationId)).map((m) => m.body)).toEqual(["Hello Host!\nDo you ship to Penang?"]);

    // A visitor is sent to sign in.
    const visitor = await get(`/chat/${conversationId}`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toContain("/signin");
  });

  it("refuses to open a thread with a private account the user has no tie to", async () => {
    const fan = await person("Nosy Fan");
    const other = await makeUser({ name: "Private Fan" });
    await db().update(userProfiles).set({ profilePublic: false }).where(eq(userProfiles.userId, other.id));
    expect((await get(`/chat/${other.id}`, { cookie: fan.cookie })).status).toBe(404);

    // A host may write to a member of their tribe even when that member's profile is private.
    await db().insert(tribeMembers).values({ userId: other.id, hostId: fan.id });
    expect((await get(`/chat/${other.id}`, { cookie: fan.cookie })).status).toBe(200);
    expect((await postForm(`/chat/${other.id}`, { intent: "start" }, { cookie: fan.cookie })).status).toBe(302);
  });

  it("creates nothing on GET /chat/{userId}: a page with a button, and the POST starts the conversation once", async () => {
    // Issue 27: opening the address (a link checker, a prefetch) created a conversation.
    const host = await person("Get Host");
    const fan = await person("Get Fan");
    const pairs = async () =>
      (await db().select().from(chatConversations)).filter(
        (c) => [c.userLowId, c.userHighId].sort().join() === [host.id, fan.id].sort().join(),
      );
    const page = await get(`/chat/${host.id}`, { cookie: fan.cookie });
    expect(page.status).toBe(200);
    const text = await pageText(page);
    expect(text).toContain("Get Host");
    expect(text).toContain("Start a conversation");
    expect(await get(`/chat/${host.id}.data`, { cookie: fan.cookie }).then((r) => r.status)).toBe(200);
    expect(await pairs()).toHaveLength(0);
    const started = await postForm(`/chat/${host.id}`, { intent: "start" }, { cookie: fan.cookie });
    expect(started.status).toBe(302);
    const again = await postForm(`/chat/${host.id}`, { intent: "start" }, { cookie: fan.cookie });
    expect(again.headers.get("Location")).toBe(started.headers.get("Location"));
    expect(await pairs()).toHaveLength(1);
    // Now the address goes straight to the conversation; a stranger's start is refused as not found.
    expect((await get(`/chat/${host.id}`, { cookie: fan.cookie })).headers.get("Location")).toBe(
      started.headers.get("Location"),
    );
    const privateFan = await makeUser({ name: "Hidden Fan" });
    await db().update(userProfiles).set({ profilePublic: false }).where(eq(userProfiles.userId, privateFan.id));
    expect((await postForm(`/chat/${privateFan.id}`, { intent: "start" }, { cookie: fan.cookie })).status).toBe(404);
  });

  it("refuses a blank message on the server, changing nothing", async () => {
    const host = await person("Blank Host");
    const fan = await person("Blank Fan");
    const conversationId = await openConversation(fan.cookie, host.id);
    for (const body of ["", "   ", "\n\n \t"]) {
      const res = await send(fan.cookie, conversationId, body);
      expect(res.status).toBe(400);
      expect(await pageText(res)).toContain(CHAT_MESSAGES.blank);
    }
    const tooLong = await send(fan.cookie, conversationId, "x".repeat(2001));
    expect(tooLong.status).toBe(400);
    expect(await pageText(tooLong)).toContain(CHAT_MESSAGES.tooLong);
    expect(await messagesIn(conversationId)).toHaveLength(0);
  });

  it("rate-limits sending per account with a clear message", async () => {
    const host = await person("Busy Host");
    const fan = await person("Chatty Fan");
    const conversationId = await openConversation(fan.cookie, host.id);
    for (let i = 0; i < CHAT_RATE_LIMIT; i++) {
      expect((await send(fan.cookie, conversationId, `message ${i}`)).status).toBe(200);
    }
    const limited = await send(fan.cookie, conversationId, "one too many");
    expect(limited.status).toBe(429);
    expect(await pageText(limited)).toContain(CHAT_MESSAGES.rateLimited);
    expect(await messagesIn(conversationId)).toHaveLength(CHAT_RATE_LIMIT);
    // The other party is not limited by the fan's burst.
    expect((await send(host.cookie, conversationId, "Slow down, friend!")).status).toBe(200);
  });

  it("delivers a sent message live to the other party's socket and counts it unread in the nav bar", async () => {
    const host = await person("Live Host");
    const fan = await person("Live Fan");
    const conversationId = await openConversation(fan.cookie, host.id);

    const upgrade = await openSocket(conversationId, host.cookie);
    expect(upgrade.status).toBe(101);
    const socket = upgrade.webSocket!;
    socket.accept();
    const received = new Promise<unknown>((resolve) => {
      socket.addEventListener("message", (event) => resolve(JSON.parse(event.data as string)));
    });

    expect((await send(fan.cookie, conversationId, "Are you live?")).status).toBe(200);
    const message = (await received) as {
      type: string;
      conversationId: string;
      message: { body: string; senderId: string };
    };
    expect(message).toMatchObject({
      type: "message",
      conversationId,
      message: { body: "Are you live?", senderId: fan.id },
    });
    socket.close();

    // Unread in the host's nav bar until the host opens the thread.
    expect(await (await get("/shop", { cookie: host.cookie })).text()).toContain('aria-label="Messages, 1 unread"');
    const list = await pageText(await get("/chat", { cookie: host.cookie }));
    expect(list).toContain("Live Fan");
    expect(list).toContain("Are you live?");
    await get(`/chat/${conversationId}`, { cookie: host.cookie });
    const after = await (await get("/shop", { cookie: host.cookie })).text();
    expect(after).toContain('aria-label="Messages"');
    expect(after).not.toContain("unread-count");
  });

  it("refuses a WebSocket opened from another site", async () => {
    const host = await person("Origin Host");
    const fan = await person("Origin Fan");
    const conversationId = await openConversation(fan.cookie, host.id);
    expect((await openSocket(conversationId, fan.cookie, "https://evil.example")).status).toBe(403);
  });
});
