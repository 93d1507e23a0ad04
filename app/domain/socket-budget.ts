// Budgets of the live sockets (pool and chat; decision 430): how many messages one socket may send (per second
// and in all), how many sockets one address and one pool or conversation may hold, and how often a socket gets a
// fresh pool state on request. Over a budget the server closes the socket with SOCKET_POLICY_CLOSE and a reason;
// the page keeps the figures it loaded and does not reconnect (app/lib/reconnecting-socket.ts, public/page.js).

/** Messages a socket may send in any one second ("ping" is answered by the runtime and never counted). */
export const SOCKET_MESSAGES_PER_SECOND = 10;
/** Messages a socket may send over its whole life (a page sends a handful). */
export const SOCKET_MESSAGES_TOTAL = 1_000;
/** A socket that asks for the pool's state gets it at most once per this interval; updates are pushed anyway. */
export const STATE_REPLY_INTERVAL_MS = 1_000;

/**
 * Open sockets per pool: from one address (generous: phone carriers and venues put many people behind one
 * address, and a page holds one socket per pool it shows) and in all.
 */
export const POOL_SOCKETS_PER_ADDRESS = 64;
export const POOL_SOCKETS_PER_POOL = 20_000;
/** Open sockets per conversation: from one address, and in all (two parties, a few tabs and devices each). */
export const CHAT_SOCKETS_PER_ADDRESS = 16;
export const CHAT_SOCKETS_PER_CONVERSATION = 32;

/** The close code of a socket over its budget, refused, or whose session ended: the page must not reconnect. */
export const SOCKET_POLICY_CLOSE = 1008;

export const SOCKET_CLOSE_REASONS = {
  tooManyMessages: "Too many messages",
  tooManyConnections: "Too many connections",
  sessionEnded: "Session ended",
} as const;

/** What a socket has spent, kept with the socket (a hibernating socket's attachment). */
export type SocketBudget = {
  /** Start of the current one-second window (epoch ms). */
  windowStart: number;
  /** Messages in the current window. */
  inWindow: number;
  /** Messages over the socket's life. */
  total: number;
  /** When the socket last got the pool's full state (epoch ms; the state sent on connect counts). */
  stateSentAt: number;
};

export function freshBudget(now: number): SocketBudget {
  return { windowStart: now, inWindow: 0, total: 0, stateSentAt: now };
}

/**
 * Counts one message: the budget after it, and whether the socket stays within its budget. A keep-alive "ping"
 * (where the server itself must answer it) counts in the per-second window only, so an idle page lives on.
 */
export function spendMessage(
  budget: SocketBudget,
  now: number,
  kind: "message" | "ping" = "message",
): { budget: SocketBudget; withinBudget: boolean } {
  const sameWindow = now - budget.windowStart < 1_000 && now >= budget.windowStart;
  const next: SocketBudget = {
    ...budget,
    windowStart: sameWindow ? budget.windowStart : now,
    inWindow: sameWindow ? budget.inWindow + 1 : 1,
    total: kind === "ping" ? budget.total : budget.total + 1,
  };
  return {
    budget: next,
    withinBudget: next.inWindow <= SOCKET_MESSAGES_PER_SECOND && next.total <= SOCKET_MESSAGES_TOTAL,
  };
}

/** Whether a request for the state gets a reply now (requests inside the interval are coalesced into none). */
export function stateReplyDue(budget: SocketBudget, now: number): boolean {
  return now - budget.stateSentAt >= STATE_REPLY_INTERVAL_MS || now < budget.stateSentAt;
}

/** Why a new socket is refused, or null: `fromAddress` and `total` count the sockets already open. */
export function connectionRefusal(
  open: { fromAddress: number; total: number },
  limits: { perAddress: number; total: number },
): string | null {
  if (open.fromAddress >= limits.perAddress || open.total >= limits.total)
    return SOCKET_CLOSE_REASONS.tooManyConnections;
  return null;
}

/** The tag a socket carries for its client's address (Durable Object tags are at most 256 characters). */
export function addressTag(address: string | null): string {
  return `address:${(address ?? "unknown").slice(0, 200)}`;
}

/** How many of these sockets are open (one closed over its budget may linger, closing, until the client answers). */
export function openSockets(sockets: readonly { readyState: number }[]): number {
  let open = 0;
  for (const socket of sockets) if (socket.readyState === 1) open++;
  return open;
}
