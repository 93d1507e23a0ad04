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
  // The state belongs to one pool: a new pool id starts again from `initial` (adjusted while rendering, so the old
  // pool's figures are never shown for the new one).
  const [live, setLive] = useState<{ poolId: typeof poolId; state: PoolLiveState }>({ poolId, state: initial });
  if (live.poolId !== poolId) setLive({ poolId, state: initial });
  const state = live.poolId === poolId ? live.state : initial;

  useEffect(() => {
    if (!poolId) return;
    return openReconnectingSocket(`/api/pools/${encodeURIComponent(poolId)}/live`, {
      onMessage: (message) => {
        if (!isPoolMessage(message, poolId)) return;
        const { type: _type, ...next } = message;
        setLive((previous) =>
          previous.poolId === poolId ? { poolId, state: { ...previous.state, ...next } } : previous,
        );
      },
    });
  }, [poolId]);

  return state;
}
