import { useEffect, useState } from "react";
import type { PoolLiveMessage } from "~/lib/pool-contract";

export type { PoolLiveMessage };

/** The part of a live message a page starts from (usually its loader's data). */
export type PoolLiveState = Omit<PoolLiveMessage, "type">;

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** Keeps idle connections alive; the pool object answers "pong" without waking up. */
const PING_INTERVAL_MS = 30_000;

function isPoolMessage(value: unknown, poolId: string): value is PoolLiveMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Partial<PoolLiveMessage>;
  return message.type === "pool" && message.poolId === poolId && typeof message.amountCents === "number";
}

/**
 * The latest state of a pool, live: opens ws(s)://{host}/api/pools/{id}/live, applies every update it sends, and
 * reconnects with exponential backoff (1 s doubling to 30 s) after a drop. Starts from `initial`; renders on the
 * server with `initial` only.
 */
export function usePoolLive(poolId: string | null | undefined, initial: PoolLiveState): PoolLiveState {
  const [state, setState] = useState<PoolLiveState>(initial);

  useEffect(() => {
    setState(initial);
    if (!poolId || typeof window === "undefined" || typeof WebSocket === "undefined") return;
    const url = new URL(`/api/pools/${encodeURIComponent(poolId)}/live`, window.location.href);
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
        pingTimer = setInterval(() => socket?.readyState === WebSocket.OPEN && socket.send("ping"), PING_INTERVAL_MS);
      });
      socket.addEventListener("message", (event) => {
        if (typeof event.data !== "string" || event.data === "pong") return;
        try {
          const message: unknown = JSON.parse(event.data);
          if (isPoolMessage(message, poolId)) {
            const { type: _type, ...next } = message;
            setState((previous) => ({ ...previous, ...next }));
          }
        } catch {
          // Not JSON: ignore.
        }
      });
      socket.addEventListener("close", () => {
        clearInterval(pingTimer);
        if (stopped) return;
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
    // `initial` is only the starting point for a pool id; a new object each render must not reconnect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [poolId]);

  return state;
}
