import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SOCKET_CLOSE_REASONS, SOCKET_POLICY_CLOSE } from "~/domain/socket-budget";
import { openReconnectingSocket } from "~/lib/reconnecting-socket";

// The one reconnecting WebSocket loop (chat threads and live pools use it): a fake browser socket stands in, timers
// are fake, so the backoff, the pings and the clean-up are observable.

class FakeSocket extends EventTarget {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closedWith: [number | undefined, string | undefined] | null = null;
  constructor(readonly url: URL) {
    super();
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number, reason?: string) {
    this.closedWith = [code, reason];
    this.drop();
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event("open"));
  }
  receive(data: string) {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
  drop(code = 1006, reason = "") {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code, reason }));
  }
}

const latest = () => FakeSocket.all.at(-1)!;

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
  vi.stubGlobal("WebSocket", FakeSocket);
  vi.stubGlobal("window", { location: { href: "https://tribe.test/chat/abc" } });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("openReconnectingSocket", () => {
  it("connects over wss to the path on the page's host and hands on parsed JSON only", () => {
    const messages: unknown[] = [];
    const stop = openReconnectingSocket("/api/chat/abc/live", { onMessage: (m) => messages.push(m) });
    expect(FakeSocket.all).toHaveLength(1);
    expect(latest().url.href).toBe("wss://tribe.test/api/chat/abc/live");
    latest().open();
    latest().receive("pong");
    latest().receive("not json");
    latest().receive(JSON.stringify({ type: "pool", amountCents: 500 }));
    expect(messages).toEqual([{ type: "pool", amountCents: 500 }]);
    stop();
  });

  it("reconnects after a drop with backoff doubling from 1 s to at most 30 s, and resets once connected", () => {
    const states: boolean[] = [];
    const stop = openReconnectingSocket("/live", { onMessage: () => {}, onOpenChange: (open) => states.push(open) });
    latest().open();
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      const before = FakeSocket.all.length;
      latest().drop();
      let waited = 0;
      while (FakeSocket.all.length === before) {
        vi.advanceTimersByTime(500);
        waited += 500;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    latest().open();
    latest().drop();
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.all).toHaveLength(9);
    expect(states.slice(0, 3)).toEqual([true, false, false]);
    stop();
  });

  it("pings an idle open socket every 30 s", () => {
    const stop = openReconnectingSocket("/live", { onMessage: () => {} });
    latest().open();
    vi.advanceTimersByTime(60_000);
    expect(latest().sent).toEqual(["ping", "ping"]);
    stop();
  });

  it("stopping closes the socket and leaves no reconnect or ping behind", () => {
    const states: boolean[] = [];
    const stop = openReconnectingSocket("/live", { onMessage: () => {}, onOpenChange: (open) => states.push(open) });
    const socket = latest();
    socket.open();
    stop();
    expect(socket.closedWith).toEqual([1000, "done"]);
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(socket.sent).toEqual([]);
    expect(states).toEqual([true]);
  });

  it("stopping while waiting to reconnect cancels the reconnect", () => {
    const stop = openReconnectingSocket("/live", { onMessage: () => {} });
    latest().drop();
    stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it("does not reconnect after the server closes the socket over a budget or at the end of a session (1008)", () => {
    const states: boolean[] = [];
    const refused: string[] = [];
    openReconnectingSocket("/live", {
      onMessage: () => {},
      onOpenChange: (open) => states.push(open),
      onRefused: (reason) => refused.push(reason),
    });
    latest().open();
    latest().drop(SOCKET_POLICY_CLOSE, SOCKET_CLOSE_REASONS.tooManyMessages);
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(latest().sent).toEqual([]);
    expect(states).toEqual([true, false]);
    expect(refused).toEqual([SOCKET_CLOSE_REASONS.tooManyMessages]);
  });
});
