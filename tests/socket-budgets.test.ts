import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { userProfiles } from "~/db/schema";
import {
  CHAT_SOCKETS_PER_ADDRESS,
  POOL_SOCKETS_PER_ADDRESS,
  SOCKET_CLOSE_REASONS,
  SOCKET_MESSAGES_PER_SECOND,
  SOCKET_POLICY_CLOSE,
  STATE_REPLY_INTERVAL_MS,
} from "~/domain/socket-budget";
import { chatSocketPath } from "~/lib/chat-live";
import { chatRoom } from "~/lib/chat.server";
import type { PoolLiveMessage } from "~/lib/pool-contract";
import { addContribution, openPool } from "~/lib/pools.server";
import { revokeAccountCredentials } from "~/db/queries/accounts.server";
import { db, makeSignedInUser, makeUser, postForm, randomIp } from "./helpers";
import { openConversation } from "./support/chat";
import { closeAll, openTestSocket, waitForMessages, type TestSocket } from "./support/sockets";

// Issue 27 item 4 (decision 430): pool and chat sockets have message budgets and connection limits; over them the
// socket is closed with 1008 and a reason; "state" replies are coalesced; the chat socket ends with its session.

const tooManyMessages = { code: SOCKET_POLICY_CLOSE, reason: SOCKET_CLOSE_REASONS.tooManyMessages };
const tooManyConnections = { code: SOCKET_POLICY_CLOSE, reason: SOCKET_CLOSE_REASONS.tooManyConnections };
const sessionEnded = { code: SOCKET_POLICY_CLOSE, reason: SOCKET_CLOSE_REASONS.sessionEnded };

async function livePool(name: string) {
  const host = await makeUser({ name });
  const pool = await openPool(env, { hostId: host.id, targetCents: 10_000_000 });
  return { host, pool, path: `/api/pools/${pool.id}/live` };
}

const sale = (hostId: string, sourceKey: string, amountCents: number) => ({
  hostId,
  sourceType: "product_purchase" as const,
  sourceKey,
  amountCents,
  currency: "USD",
  userId: null,
  earnsEntry: true,
});

const poolMessages = (socket: TestSocket) => socket.messages as PoolLiveMessage[];

describe("pool socket budgets", () => {
  it("closes a socket flooded with 10,000 `state` messages after its budget, answering almost none, and the pool keeps taking contributions", async () => {
    const { host, pool, path } = await livePool("Flooded Host");
    const flooder = await openTestSocket(path, { address: randomIp() });
    const watcher = await openTestSocket(path, { address: randomIp() });
    expect(flooder.status).toBe(101);
    await waitForMessages(flooder, 1);
    await waitForMessages(watcher, 1);

    for (let i = 0; i < 10_000; i++) {
      try {
        flooder.ws!.send("state");
      } catch {
        break; // Closed by the server mid-flood.
      }
    }
    expect(await flooder.closed).toEqual(tooManyMessages);
    // The state sent on connect, and no full-state reply per message (coalesced: at most one more).
    expect(flooder.messages.length).toBeLessThanOrEqual(2);

    // The object is free: a contribution is applied at once and reaches the other socket.
    const result = await addContribution(env, sale(host.id, `pi_flood_${pool.id}`, 2_500));
    expect(result).toMatchObject({ poolId: pool.id, entryNumber: 0, duplicate: false });
    await waitForMessages(watcher, 2);
    expect(poolMessages(watcher).at(-1)).toMatchObject({ poolId: pool.id, amountCents: 2_500, entries: 1 });
    expect(watcher.closedWith).toBeNull();
    closeAll([watcher]);
  });

  it("coalesces `state` requests: at most one reply per interval, however many arrive", async () => {
    const { path } = await livePool("Coalescing Host");
    const socket = await openTestSocket(path, { address: randomIp() });
    await waitForMessages(socket, 1);
    for (let i = 0; i < SOCKET_MESSAGES_PER_SECOND - 1; i++) socket.ws!.send("state");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The state sent on connect, and at most one reply to nine requests.
    const afterBurst = socket.messages.length;
    expect(afterBurst).toBeLessThanOrEqual(2);

    await new Promise((resolve) => setTimeout(resolve, STATE_REPLY_INTERVAL_MS + 100));
    socket.ws!.send("state");
    socket.ws!.send("state");
    await waitForMessages(socket, afterBurst + 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(socket.messages).toHaveLength(afterBurst + 1);
    expect(socket.closedWith).toBeNull();
    closeAll([socket]);
  });

  it("limits the sockets one address holds on a pool, generously, and never another address", async () => {
    const { path } = await livePool("Crowded Host");
    const address = randomIp();
    const sockets: TestSocket[] = [];
    for (let i = 0; i < POOL_SOCKETS_PER_ADDRESS; i++) sockets.push(await openTestSocket(path, { address }));
    await Promise.all(sockets.map((socket) => waitForMessages(socket, 1)));
    expect(sockets.every((socket) => socket.closedWith === null)).toBe(true);

    const over = await openTestSocket(path, { address });
    expect(await over.closed).toEqual(tooManyConnections);
    expect(over.messages).toHaveLength(0);

    const neighbour = await openTestSocket(path, { address: randomIp() });
    await waitForMessages(neighbour, 1);
    expect(neighbour.closedWith).toBeNull();

    // The page's multiplexed socket counts against the same limit, and passes the reason on.
    const multiplexed = await openTestSocket(`/api/pools/live?ids=${path.split("/")[3]}`, { address });
    expect(await multiplexed.closed).toEqual(tooManyConnections);

    // Closing one frees a place.
    sockets[0]!.ws!.close(1000, "done");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await openTestSocket(path, { address });
    await waitForMessages(again, 1);
    expect(again.closedWith).toBeNull();
    closeAll([...sockets, neighbour, again]);
  });

  it("closes the page's multiplexed socket flooded with pings", async () => {
    const { path } = await livePool("Pinged Host");
    const socket = await openTestSocket(`/api/pools/live?ids=${path.split("/")[3]}`, { address: randomIp() });
    expect(socket.status).toBe(101);
    for (let i = 0; i < 1_000; i++) {
      try {
        socket.ws!.send("ping");
      } catch {
        break;
      }
    }
    expect(await socket.closed).toEqual(tooManyMessages);
  });
});

describe("chat socket budgets and sessions", () => {
  async function pair(prefix: string) {
    const host = await makeSignedInUser({ name: `${prefix} Host` });
    const fan = await makeSignedInUser({ name: `${prefix} Fan` });
    const conversationId = await openConversation(fan.cookie, host.id);
    return { host, fan, conversationId };
  }

  const say = (cookie: string, conversationId: string, body: string) =>
    postForm(`/chat/${conversationId}`, { body }, { cookie });

  for (const [ending, end] of [
    [
      "signs out",
      async (user: { cookie: string; id: string }) =>
        expect((await postForm("/signout", {}, { cookie: user.cookie })).status).toBe(302),
    ],
    [
      // A password reset ends every session of the account the same way (revokeAccountCredentials).
      "resets its password",
      async (user: { cookie: string; id: string }) => {
        await revokeAccountCredentials(db(), user.id, null);
      },
    ],
    [
      "is suspended",
      async (user: { cookie: string; id: string }) => {
        await db().update(userProfiles).set({ status: "suspended" }).where(eq(userProfiles.userId, user.id));
      },
    ],
  ] as const) {
    it(`stops delivering to a socket whose account ${ending}: closed with a reason, the message never sent`, async () => {
      const { host, fan, conversationId } = await pair(`Ending ${ending}`);
      const socket = await openTestSocket(chatSocketPath(conversationId), { address: randomIp(), cookie: host.cookie });
      expect(socket.status).toBe(101);
      expect((await say(fan.cookie, conversationId, "before")).status).toBe(200);
      await waitForMessages(socket, 1);

      await end(host);
      // Any delivery (the fan's page refuses a message to a suspended account, so the relay is called directly).
      const delivered = await chatRoom(env, conversationId).broadcast({
        type: "message",
        conversationId,
        message: { id: crypto.randomUUID(), senderId: fan.id, body: "after", createdAt: Date.now() },
      });
      expect(delivered).toBe(0);
      expect(await socket.closed).toEqual(sessionEnded);
      expect(socket.messages.map((m) => (m as { message: { body: string } }).message.body)).toEqual(["before"]);
    });
  }

  it("keeps delivering to the other party's live session when one party signs out", async () => {
    const { host, fan, conversationId } = await pair("Stays");
    const hostSocket = await openTestSocket(chatSocketPath(conversationId), {
      address: randomIp(),
      cookie: host.cookie,
    });
    const fanSocket = await openTestSocket(chatSocketPath(conversationId), { address: randomIp(), cookie: fan.cookie });
    await postForm("/signout", {}, { cookie: fan.cookie });
    expect((await say(host.cookie, conversationId, "still here")).status).toBe(200);
    await waitForMessages(hostSocket, 1);
    expect(await fanSocket.closed).toEqual(sessionEnded);
    expect(fanSocket.messages).toEqual([]);
    closeAll([hostSocket]);
  });

  it("closes a chat socket that sends more than its budget, and limits sockets per address", async () => {
    const { fan, conversationId } = await pair("Budget");
    const address = randomIp();
    const flooder = await openTestSocket(chatSocketPath(conversationId), { address, cookie: fan.cookie });
    for (let i = 0; i < 1_000; i++) {
      try {
        flooder.ws!.send("hello");
      } catch {
        break;
      }
    }
    expect(await flooder.closed).toEqual(tooManyMessages);

    const sockets: TestSocket[] = [];
    for (let i = 0; i < CHAT_SOCKETS_PER_ADDRESS; i++) {
      sockets.push(await openTestSocket(chatSocketPath(conversationId), { address, cookie: fan.cookie }));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sockets.every((socket) => socket.status === 101 && socket.closedWith === null)).toBe(true);
    const over = await openTestSocket(chatSocketPath(conversationId), { address, cookie: fan.cookie });
    expect(await over.closed).toEqual(tooManyConnections);
    closeAll(sockets);
  });
});
