import { SELF } from "cloudflare:test";
import { vi } from "vitest";
import { ORIGIN } from "../helpers";

/** A WebSocket opened through the built worker, with what it received and how it closed. */
export type TestSocket = {
  status: number;
  ws: WebSocket | null;
  messages: unknown[];
  closed: Promise<{ code: number; reason: string }>;
  closedWith: { code: number; reason: string } | null;
};

/** Opens `path` as a WebSocket from `address` (CF-Connecting-IP), with an optional cookie. */
export async function openTestSocket(
  path: string,
  opts: { address: string; cookie?: string | null },
): Promise<TestSocket> {
  const headers: Record<string, string> = { Upgrade: "websocket", Origin: ORIGIN, "CF-Connecting-IP": opts.address };
  if (opts.cookie) headers.Cookie = opts.cookie;
  const res = await SELF.fetch(`${ORIGIN}${path}`, { headers });
  const socket: TestSocket = {
    status: res.status,
    ws: res.webSocket,
    messages: [],
    closed: Promise.resolve({ code: 0, reason: "" }),
    closedWith: null,
  };
  const ws = res.webSocket;
  if (!ws) return socket;
  socket.closed = new Promise((resolve) => {
    ws.addEventListener("close", (event) => {
      socket.closedWith = { code: event.code, reason: event.reason };
      resolve(socket.closedWith);
    });
  });
  ws.addEventListener("message", (event) => {
    if (typeof event.data === "string" && event.data !== "pong") socket.messages.push(JSON.parse(event.data));
  });
  ws.accept();
  return socket;
}

/** Waits until `socket` has received at least `count` messages. */
export function waitForMessages(socket: TestSocket, count: number) {
  return vi.waitFor(
    () => {
      if (socket.messages.length < count) throw new Error(`${socket.messages.length} messages so far`);
    },
    { timeout: 5_000 },
  );
}

/** Closes sockets a test opened (quietly: some are closed already). */
export function closeAll(sockets: readonly TestSocket[]) {
  for (const socket of sockets) {
    try {
      socket.ws?.close(1000, "done");
    } catch {
      // Already closed.
    }
  }
}
