// A diagnostic for the bench (scripts/bench.mjs, config scripts/bench/wrangler.profile.toml), served against the
// bench's scaled-up state: GET /profile?path=/shop&runs=30 runs that route's own loader (imported from
// app/routes, so it follows the app's code) with the same context the app gives it, and times every D1 query it
// makes. It answers the median loader time, the median D1 time per run (summed over its queries) and each
// query's SQL with its median time, so a slow page can be split into "waiting for D1" and "the rest" (rendering,
// which is the request's CPU time minus this).
//
// A plain .js file on purpose: type-checking scripts/ (tsconfig.node.json, Node types) would otherwise pull the
// app's Worker sources in.
import { RouterContextProvider } from "react-router";
import { cloudflareContext } from "../../app/lib/context";
import * as buyNow from "../../app/routes/buy-now";
import * as home from "../../app/routes/home";
import * as profile from "../../app/routes/profile";
import * as shop from "../../app/routes/shop";

/** [pattern, route module, param name] for the pages the bench loads. */
const ROUTES = [
  [/^\/$/, home, null],
  [/^\/shop$/, shop, null],
  [/^\/profile\/([^/]+)$/, profile, "id"],
  [/^\/buy-now\/([^/]+)$/, buyNow, "id"],
];

const median = (values) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/** The D1 binding with every statement's all/raw/run/first timed into `log` (batches too). */
function timedD1(db, log) {
  const time = async (sql, call) => {
    const started = performance.now();
    try {
      return await call();
    } finally {
      log.push({ sql, ms: performance.now() - started });
    }
  };
  const wrap = (statement, sql) => {
    for (const method of ["all", "raw", "run", "first"]) {
      const original = statement[method].bind(statement);
      statement[method] = (...args) => time(sql, () => original(...args));
    }
    const bind = statement.bind.bind(statement);
    statement.bind = (...values) => wrap(bind(...values), sql);
    return statement;
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === "prepare") return (sql) => wrap(target.prepare(sql), sql);
      if (key === "batch") return (statements) => time(`batch of ${statements.length}`, () => target.batch(statements));
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function profileRoute(env, ctx, path, runs) {
  // A path may carry a query (the search page, /shop?q=...): the route is matched on its pathname.
  const pathname = path.split("?")[0];
  const match = ROUTES.map(([pattern, module, param]) => [pathname.match(pattern), module, param]).find(([m]) => m);
  if (!match) throw new Error(`No route for ${path}`);
  const [found, module, param] = match;
  const params = param ? { [param]: decodeURIComponent(found[1]) } : {};
  const totals = [];
  const d1Totals = [];
  const perQuery = new Map();
  for (let run = 0; run < runs + 3; run++) {
    const log = [];
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env: { ...env, DB: timedD1(env.DB, log) }, ctx });
    const request = new Request(new URL(path, "http://bench.local"));
    const started = performance.now();
    await module.loader({ request, params, context });
    const total = performance.now() - started;
    if (run < 3) continue; // warm-up
    totals.push(total);
    d1Totals.push(log.reduce((sum, q) => sum + q.ms, 0));
    log.forEach((q, i) => {
      const key = `${i}\u0000${q.sql}`;
      perQuery.set(key, [...(perQuery.get(key) ?? []), q.ms]);
    });
  }
  return {
    path,
    runs,
    loaderMs: median(totals),
    d1Ms: median(d1Totals),
    queries: [...perQuery].map(([key, times]) => ({
      sql: key.split("\u0000")[1].replace(/\s+/g, " ").slice(0, 160),
      // Whether it reads the product search index (the bench's search row reports that query's time).
      search: key.includes("product_search"),
      ms: median(times),
      count: times.length,
    })),
  };
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/") return new Response("ok");
    if (url.pathname !== "/profile") return new Response("Not found", { status: 404 });
    const path = url.searchParams.get("path") ?? "/";
    const runs = Math.min(Math.max(Number(url.searchParams.get("runs") ?? 30) || 30, 1), 500);
    try {
      return Response.json(await profileRoute(env, ctx, path, runs));
    } catch (error) {
      const detail =
        error instanceof Response
          ? `HTTP ${error.status}`
          : error instanceof Error
            ? (error.stack ?? error.message)
            : String(error);
      return Response.json({ path, error: detail }, { status: 500 });
    }
  },
};
