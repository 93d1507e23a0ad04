// The prize pool throughput bench (scripts/bench.mjs, config scripts/bench/wrangler.bench.toml): a Worker with the
// app's PrizePool Durable Object class and a D1 database migrated like the app's.
//
// GET /run?n=2000[&prefill=20000] opens a fresh pool (a new host and prize_pools row in D1, so the object's D1 mirror has its
// parents; a target far above what the run adds, so the pool never closes), initialises its object, then fires n
// concurrent contribute() calls from inside workerd and awaits them all. It then checks the exact sum (object
// state, and D1's mirror), that the entry numbers are 0..n-1 once each, and answers JSON with the elapsed time and
// contributions per second. With prefill, the pool already holds that many paid entries when the run starts
// (written to D1 first and imported by the object as it starts), so a long-lived pool's rate can be compared with
// a fresh one's. With flood=m, one live socket of the pool sends m "state" messages while the contributions run
// (issue 27: a flood of one socket must not slow the object): the answer says how many were sent and answered and
// how the object closed the socket.
//
// The class is reached through the `bench:prize-pool` alias (wrangler.bench.toml) rather than a relative import,
// so that type-checking scripts/ (tsconfig.node.json, Node types) does not pull in the Worker sources; the few
// runtime types used here are declared below.
// @ts-expect-error -- resolved by wrangler's [alias], not by tsc (see above).
export { PrizePool } from "bench:prize-pool";

interface D1Result<T> {
  results: T[];
}
interface D1Statement {
  bind(...values: unknown[]): D1Statement;
  all<T = Record<string, unknown>>(): Promise<D1Result<T>>;
  run(): Promise<unknown>;
}
interface D1 {
  prepare(sql: string): D1Statement;
  batch(statements: D1Statement[]): Promise<unknown[]>;
}
interface ContributionResult {
  accepted: boolean;
  duplicate: boolean;
  entryNumber: number | null;
  reason?: string;
}
interface PoolStub {
  init(params: {
    poolId: string;
    hostId: string;
    targetCents: number;
    endAt: number;
    currency?: string;
  }): Promise<unknown>;
  contribute(input: {
    sourceKey: string;
    sourceType: string;
    amountCents: number;
    currency: string;
    userId: string | null;
    earnsEntry: boolean;
  }): Promise<ContributionResult>;
  state(): Promise<{ status: string; amountCents: number; entries: number }>;
  fetch(request: Request): Promise<Response & { webSocket: BenchSocket | null }>;
}
interface BenchSocket {
  accept(): void;
  send(message: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code: number; reason: string }) => void): void;
}
interface Namespace {
  idFromName(name: string): unknown;
  get(id: unknown): PoolStub;
}
interface BenchEnv {
  DB: D1;
  PRIZE_POOL: Namespace;
}

const MAX_N = 20_000;
const MAX_PREFILL = 50_000;
const MAX_FLOOD = 200_000;
/** Messages the flood sends before yielding to the contributions (it runs beside them, not before them). */
const FLOOD_BURST = 500;
/** Far above what any run adds (n * at most 999 cents), so the pool stays open. */
const TARGET_CENTS = 1_000_000_000_000;

/** A varied but reproducible amount for contribution i (1..999 cents). */
const amountFor = (i: number) => 1 + ((i * 37 + 11) % 999);

/**
 * One live socket of the pool that sends `messages` "state" messages in bursts until done or closed by the object.
 * `done` resolves with what was sent, how many replies came back and how the socket was closed (null: still open).
 */
async function startFlood(stub: PoolStub, messages: number) {
  const response = await stub.fetch(
    new Request("https://pool/live", { headers: { Upgrade: "websocket", "CF-Connecting-IP": "192.0.2.10" } }),
  );
  const socket = response.webSocket;
  if (!socket) throw new Error(`the pool refused the flood socket (${response.status})`);
  let replies = 0;
  let closed: { code: number; reason: string } | null = null;
  // A contribution's broadcast names its entry (lastEntry); a full-state reply does not.
  socket.addEventListener("message", (event) => {
    if (typeof event.data === "string" && !event.data.includes('"lastEntry"')) replies++;
  });
  socket.addEventListener("close", (event) => (closed = { code: event.code, reason: event.reason }));
  socket.accept();
  const done = (async () => {
    let sent = 0;
    while (sent < messages && !closed) {
      try {
        for (let i = 0; i < FLOOD_BURST && sent < messages; i++, sent++) socket.send("state");
      } catch {
        break; // closed by the object
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      socket.close(1000, "done");
    } catch {
      // Already closed.
    }
    // The state sent on connect is not a reply.
    return {
      messages,
      sent,
      replies: Math.max(0, replies - 1),
      closed: closed as { code: number; reason: string } | null,
    };
  })();
  return done;
}

async function run(env: BenchEnv, n: number, prefill = 0, flood = 0) {
  const now = Date.now();
  const poolId = crypto.randomUUID();
  const hostId = crypto.randomUUID();
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO users (id, email, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, 'user', ?, ?)",
    ).bind(hostId, `bench-pool-${hostId}@bench.example`, "-", now, now),
    env.DB.prepare(
      `INSERT INTO prize_pools (id, host_id, status, target_cents, currency, start_at, end_at, created_at, updated_at)
       VALUES (?, ?, 'open', ?, 'USD', ?, ?, ?, ?)`,
    ).bind(poolId, hostId, TARGET_CENTS, now, now + 30 * 86_400_000, now, now),
  ]);
  // Earlier contributions (amount 100 cents each, entries 0..prefill-1), as D1 holds them for the object to import.
  let prefillCents = 0;
  if (prefill > 0) {
    const series = "WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ?2 - 1)";
    await env.DB.batch([
      env.DB.prepare(
        `${series} INSERT INTO prize_pool_contributions (id, pool_id, host_id, source_type, source_key, amount_cents, currency, entry_number, created_at)
         SELECT ?1 || '-c' || i, ?1, ?3, 'product_purchase', 'prefill_' || ?1 || '_' || i, 100, 'USD', i, ?4 FROM s`,
      ).bind(poolId, prefill, hostId, now),
      env.DB.prepare(
        `${series} INSERT INTO prize_entries (id, pool_id, entry_number, source_type, source_key, created_at)
         SELECT ?1 || '-e' || i, ?1, i, 'product_purchase', 'prefill_' || ?1 || '_' || i, ?3 FROM s`,
      ).bind(poolId, prefill, now),
      env.DB.prepare("UPDATE prize_pools SET amount_cents = ?2, entries_count = ?3 WHERE id = ?1").bind(
        poolId,
        prefill * 100,
        prefill,
      ),
    ]);
    prefillCents = prefill * 100;
  }
  const stub = env.PRIZE_POOL.get(env.PRIZE_POOL.idFromName(poolId));
  await stub.init({ poolId, hostId, targetCents: TARGET_CENTS, endAt: now + 30 * 86_400_000, currency: "USD" });

  let expectedCents = prefillCents;
  for (let i = 0; i < n; i++) expectedCents += amountFor(i);

  const flooding = flood > 0 ? startFlood(stub, flood) : null;
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      stub
        .contribute({
          sourceKey: `bench_${poolId}_${i}`,
          sourceType: "product_purchase",
          amountCents: amountFor(i),
          currency: "USD",
          userId: null,
          earnsEntry: true,
        })
        .catch((error: unknown): ContributionResult & { error: string } => ({
          accepted: false,
          duplicate: false,
          entryNumber: null,
          error: error instanceof Error ? error.message : String(error),
        })),
    ),
  );
  const elapsedMs = performance.now() - started;
  const floodResult = flooding ? await flooding : null;

  const failures = results.filter((r) => !r.accepted || r.duplicate);
  const numbers = results.map((r) => r.entryNumber).filter((e): e is number => typeof e === "number");
  const unique = new Set(numbers);
  const entriesOk =
    numbers.length === n &&
    unique.size === n &&
    numbers.every((e) => Number.isInteger(e) && e >= prefill && e < prefill + n);
  const state = await stub.state();
  const [mirror] = (
    await env.DB.prepare(
      `SELECT (SELECT COALESCE(SUM(amount_cents), 0) FROM prize_pool_contributions WHERE pool_id = ?1) AS cents,
              (SELECT COUNT(*) FROM prize_pool_contributions WHERE pool_id = ?1) AS contributions,
              (SELECT COUNT(DISTINCT entry_number) FROM prize_entries WHERE pool_id = ?1) AS entries,
              (SELECT MIN(entry_number) FROM prize_entries WHERE pool_id = ?1) AS minEntry,
              (SELECT MAX(entry_number) FROM prize_entries WHERE pool_id = ?1) AS maxEntry,
              (SELECT amount_cents FROM prize_pools WHERE id = ?1) AS poolCents`,
    )
      .bind(poolId)
      .all<{
        cents: number;
        contributions: number;
        entries: number;
        minEntry: number;
        maxEntry: number;
        poolCents: number;
      }>()
  ).results;
  const total = prefill + n;
  const sumOk = state.amountCents === expectedCents && state.entries === total && state.status === "open";
  const mirrorOk =
    !!mirror &&
    mirror.cents === expectedCents &&
    mirror.contributions === total &&
    mirror.entries === total &&
    mirror.minEntry === 0 &&
    mirror.maxEntry === total - 1 &&
    mirror.poolCents === expectedCents;
  return {
    n,
    prefill,
    flood: floodResult,
    poolId,
    elapsedMs: Math.round(elapsedMs * 10) / 10,
    perSecond: Math.round((n / elapsedMs) * 1000),
    failures: failures.length,
    firstFailure: failures[0] ?? null,
    expectedCents,
    state: { amountCents: state.amountCents, entries: state.entries, status: state.status },
    mirror,
    sumOk,
    entriesOk,
    mirrorOk,
    ok: failures.length === 0 && sumOk && entriesOk && mirrorOk,
  };
}

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/") return new Response("ok");
    if (url.pathname !== "/run") return new Response("Not found", { status: 404 });
    const n = Number(url.searchParams.get("n") ?? 2000);
    if (!Number.isInteger(n) || n < 1 || n > MAX_N) return new Response(`n must be 1..${MAX_N}`, { status: 400 });
    const prefill = Number(url.searchParams.get("prefill") ?? 0);
    if (!Number.isInteger(prefill) || prefill < 0 || prefill > MAX_PREFILL)
      return new Response(`prefill must be 0..${MAX_PREFILL}`, { status: 400 });
    const flood = Number(url.searchParams.get("flood") ?? 0);
    if (!Number.isInteger(flood) || flood < 0 || flood > MAX_FLOOD)
      return new Response(`flood must be 0..${MAX_FLOOD}`, { status: 400 });
    try {
      return Response.json(await run(env, n, prefill, flood));
    } catch (error) {
      return Response.json(
        { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
        { status: 500 },
      );
    }
  },
};
