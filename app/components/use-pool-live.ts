import { useEffect, useState } from "react";
import type { PoolLiveMessage } from "~/lib/pool-contract";
import { openReconnectingSocket } from "~/lib/reconnecting-socket";

export type { PoolLiveMessage };

/** The part of a live message a page starts from (usually its loader's data). */
export type PoolLiveState = Omit<PoolLiveMessage, "type">;

function isPoolMessage(value: unknown, poolId: string): value is PoolLiveMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Partial<PoolLiveMessage>;
  return message.type === "pool" && message.poolId === poolId && typeof message.amountCents === "number";
}

/**
 * The latest state of a pool, live: opens ws(s)://{host}/api/pools/{id}/live (a reconnecting socket) and applies
 * every update it sends. Starts from `initial`; renders on the server with `initial` only.
 */
export function usePoolLive(poolId: string | null | undefined, initial: PoolLiveState): PoolLiveState {
  const [state, setState] = useState<PoolLiveState>(initial);

  useEffect(() => {
    setState(initial);
    if (!poolId) return;
    return openReconnectingSocket(`/api/pools/${encodeURIComponent(poolId)}/live`, {
      onMessage: (message) => {
        if (!isPoolMessage(message, poolId)) return;
        const { type: _type, ...next } = message;
        setState((previous) => ({ ...previous, ...next }));
      },
    });
    // `initial` is only the starting point for a pool id; a new object each render must not reconnect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [poolId]);

  return state;
}
