import { SOCKET_POLICY_CLOSE } from "~/domain/socket-budget";

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** Keeps idle connections alive; the Durable Object answers "pong" without waking up. */
const PING_INTERVAL_MS = 30_000;

export type ReconnectingSocketHandlers = {
  /** Every JSON message the server sends, parsed ("pong" and text that is not JSON are skipped). */
  onMessage: (message: unknown) => void;
  /** Called with true when a connection opens and false when it drops. */
  onOpenChange?: (open: boolean) => void;
  /**
   * Called when the server closes the socket for good (SOCKET_POLICY_CLOSE: over a budget, refused, or the
   * session ended), with its reason. No reconnect follows: the page keeps what it shows.
   */
  onRefused?: (reason: string) => void;
};

/**
 * Opens a WebSocket to `path` (ws: or wss: like the page), pings it while idle, and reconnects with exponential
 * backoff (1 s doubling to 30 s) after a drop, except after a close with SOCKET_POLICY_CLOSE. Returns the function that closes it for good (no reconnect, no timer
 * left behind). In the browser only; does nothing where there is no WebSocket.
 */
export function openReconnectingSocket(path: string, handlers: ReconnectingSocketHandlers): () => void {
  if (typeof window === "undefined" || typeof WebSocket === "undefined") return () => {};
  const url = new URL(path, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";

  let socket: WebSocket | null = null;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;

  const connect = () => {
    if (stopped) return;
    socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      retryMs = FIRST_RETRY_MS;
      handlers.onOpenChange?.(true);
      pingTimer = setInterval(() => socket?.readyState === WebSocket.OPEN && socket.send("ping"), PING_INTERVAL_MS);
    });
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string" || event.data === "pong") return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // Not JSON: ignore.
      }
      handlers.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(pingTimer);
      if (stopped) return;
      handlers.onOpenChange?.(false);
      if ((event as CloseEvent).code === SOCKET_POLICY_CLOSE) {
        stopped = true;
        handlers.onRefused?.((event as CloseEvent).reason);
        return;
      }
      retryTimer = setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    });
  };
  connect();

  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearInterval(pingTimer);
    socket?.close(1000, "done");
  };
}
