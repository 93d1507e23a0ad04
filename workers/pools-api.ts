import { Hono } from "hono";
import { z } from "zod";
import { isSupportedCurrency, type SupportedCurrency } from "~/domain/currency";
import { poolDisplay, poolStateAnnouncement } from "~/domain/pool-display";
import { freshBudget, SOCKET_CLOSE_REASONS, SOCKET_POLICY_CLOSE, spendMessage } from "~/domain/socket-budget";
import {
  frozenEntries,
  getPool,
  getPools,
  initPoolObject,
  poolStub,
  publicPoolState,
  type PoolRow,
} from "~/lib/pools.server";
import type { PoolLiveMessage } from "~/lib/pool-contract";

/** Public prize pool endpoints, mounted at /api/pools: live updates and every input of a pool's draw. */
export const poolsApi = new Hono<{ Bindings: Env }>();

const poolId = z.string().min(1).max(100);

/** Most pools one page follows over /api/pools/live (a shop page shows 24 cards). */
export const MAX_LIVE_POOLS = 48;

const liveQuery = z.object({
  ids: z
    .string({ error: "ids is required" })
    .max(MAX_LIVE_POOLS * 101, "Too many pools")
    .transform((text) => [...new Set(text.split(",").filter(Boolean))])
    .pipe(z.array(poolId).min(1, "ids is required").max(MAX_LIVE_POOLS, `At most ${MAX_LIVE_POOLS} pools`)),
  currency: z
    .string()
    .default("USD")
    .refine((code): code is SupportedCurrency => isSupportedCurrency(code), "Unknown currency"),
});

/** A message of one pool's object, as the multiplexed socket forwards it: unchanged, plus the page's figures. */
export type MultiplexedPoolMessage = PoolLiveMessage & {
  display: ReturnType<typeof poolDisplay>;
  /** What the page's live region says when this text changes (closed, target reached, drawn), or null. */
  announce: string | null;
};

function isPoolMessage(value: unknown): value is PoolLiveMessage {
  const message = value as Partial<PoolLiveMessage> | null;
  return (
    typeof message === "object" &&
    message !== null &&
    message.type === "pool" &&
    typeof message.amountCents === "number"
  );
}

/**
 * Opens the pool object's own live socket (setting the object up from D1 first if it has never run), on behalf of
 * the client's address: the object's per-address connection limit counts it (decision 430).
 */
async function openPoolSocket(env: Env, pool: PoolRow, address: string | null): Promise<WebSocket | null> {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (address) headers["CF-Connecting-IP"] = address;
  const upgrade = () => poolStub(env, pool.id).fetch(new Request("https://pool/live", { headers }));
  let response = await upgrade();
  if (response.status === 404) {
    await initPoolObject(env, pool);
    response = await upgrade();
  }
  return response.webSocket ?? null;
}

/**
 * One WebSocket for every pool on a page: /api/pools/live?ids=a,b,c&currency=MYR. The Worker holds one socket to
 * each pool's object and forwards its messages unchanged in shape (each names its poolId), adding `display`: the
 * figures formatted in the page's currency exactly as the page rendered them. "ping" is answered "pong". When any
 * pool's socket drops, the page's socket closes (1012) and the page reconnects; when a pool's object refuses or
 * closes its socket over a budget (SOCKET_POLICY_CLOSE), the page's socket closes with that code and reason and the
 * page keeps its figures. The page's own messages have the same budget as a pool socket's.
 */
poolsApi.get("/live", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ error: "Expected a WebSocket upgrade" }, 400);
  }
  const query = liveQuery.safeParse({ ids: c.req.query("ids"), currency: c.req.query("currency") });
  if (!query.success) return c.json({ error: query.error.issues[0]?.message ?? "Invalid request" }, 400);
  const { ids, currency } = query.data;
  const pools = await getPools(c.env, ids);
  if (pools.length === 0) return c.json({ error: "Pool not found" }, 404);

  const address = c.req.header("CF-Connecting-IP") ?? null;
  const upstreams = (await Promise.all(pools.map((pool) => openPoolSocket(c.env, pool, address)))).map(
    (socket, index) => ({
      socket,
      pool: pools[index]!,
    }),
  );
  const { 0: client, 1: server } = new WebSocketPair();
  server.accept();
  let closed = false;
  const closeAll = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    for (const { socket } of upstreams) {
      try {
        socket?.close(1000, "done");
      } catch {
        // Already closing.
      }
    }
    try {
      server.close(code, reason);
    } catch {
      // Already closing.
    }
  };
  for (const { socket, pool } of upstreams) {
    if (!socket) continue;
    socket.accept();
    socket.addEventListener("message", (event) => {
      if (closed || typeof event.data !== "string") return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!isPoolMessage(message)) return;
      const out: MultiplexedPoolMessage = {
        ...message,
        display: poolDisplay(message, pool.currency, currency),
        announce: poolStateAnnouncement(message),
      };
      server.send(JSON.stringify(out));
    });
    socket.addEventListener("close", (event) =>
      event.code === SOCKET_POLICY_CLOSE
        ? closeAll(SOCKET_POLICY_CLOSE, event.reason)
        : closeAll(1012, "pool socket closed"),
    );
    socket.addEventListener("error", () => closeAll(1011, "pool socket failed"));
  }
  let budget = freshBudget(Date.now());
  server.addEventListener("message", (event) => {
    if (closed) return;
    const spent = spendMessage(budget, Date.now(), event.data === "ping" ? "ping" : "message");
    budget = spent.budget;
    if (!spent.withinBudget) closeAll(SOCKET_POLICY_CLOSE, SOCKET_CLOSE_REASONS.tooManyMessages);
    else if (event.data === "ping") server.send("pong");
  });
  server.addEventListener("close", () => closeAll(1000, "done"));
  server.addEventListener("error", () => closeAll(1011, "failed"));
  return new Response(null, { status: 101, webSocket: client });
});

/** WebSocket of live pool updates (served by the pool's Durable Object, hibernating). */
poolsApi.get("/:id/live", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ error: "Expected a WebSocket upgrade" }, 400);
  }
  const id = poolId.safeParse(c.req.param("id"));
  const pool = id.success ? await getPool(c.env, id.data) : null;
  if (!pool) return c.json({ error: "Pool not found" }, 404);
  await initPoolObject(c.env, pool);
  return poolStub(c.env, pool.id).fetch(c.req.raw);
});

/** A closed pool's frozen entry list: the input of its published digest (404 while the pool is open). */
poolsApi.get("/:id/entries", async (c) => {
  const id = poolId.safeParse(c.req.param("id"));
  const entries = id.success ? await frozenEntries(c.env, id.data) : null;
  if (!entries) return c.json({ error: "No frozen entry list for this pool" }, 404);
  return c.json({ entries });
});

/** The public state of a pool for verification pages. */
poolsApi.get("/:id", async (c) => {
  const id = poolId.safeParse(c.req.param("id"));
  const state = id.success ? await publicPoolState(c.env, id.data) : null;
  if (!state) return c.json({ error: "Pool not found" }, 404);
  return c.json(state);
});
