import { useEffect, useRef, useState } from "react";
import { POOL_ANNOUNCER_ID, poolStateAnnouncement } from "~/domain/pool-display";
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

/** Says `text` in the page's polite live region (app-shell.tsx), once: the same text again is not repeated. */
function announcePoolState(text: string): void {
  const region = document.getElementById(POOL_ANNOUNCER_ID);
  if (region && region.textContent !== text) region.textContent = text;
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

  // A change of the pool's state (closed, target reached, drawn) is said in the page's live region; the amount's
  // ticks are not. The state the page opened with is never announced.
  const text = poolStateAnnouncement(state);
  const announced = useRef<{ poolId: typeof poolId; text: string | null }>({ poolId, text });
  useEffect(() => {
    const previous = announced.current;
    announced.current = { poolId, text };
    if (previous.poolId === poolId && text && text !== previous.text) announcePoolState(text);
  }, [poolId, text]);

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
