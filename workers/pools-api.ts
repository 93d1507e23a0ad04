import { Hono } from "hono";
import { z } from "zod";
import { frozenEntries, getPool, initPoolObject, poolStub, publicPoolState } from "~/lib/pools.server";

/** Public prize pool endpoints, mounted at /api/pools: live updates and every input of a pool's draw. */
export const poolsApi = new Hono<{ Bindings: Env }>();

const poolId = z.string().min(1).max(100);

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
