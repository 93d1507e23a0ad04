import { Hono } from "hono";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/lib/context";
import { api } from "./api";
import { media } from "./media";
import { isAllowedOrigin } from "./origin-check";
import { pageCacheSeconds, pageFromMemory, withPageCache } from "./page-cache";
import { runScheduled } from "./scheduled";

export { PrizePool } from "./prize-pool";

const handleRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

const app = new Hono<{ Bindings: Env }>();

app.use("*", async (c, next) => {
  if (!isAllowedOrigin(c.req.raw)) return c.text("Forbidden: this form was not sent from this site.", 403);
  await next();
});

app.route("/api", api);
app.route("/media", media);

app.all("*", (c) => {
  const ctx = c.executionCtx as ExecutionContext;
  return withPageCache(c.req.raw, ctx, pageCacheSeconds(c.env), () => {
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env: c.env, ctx });
    return handleRequest(c.req.raw, context);
  });
});

export default {
  fetch(request, env, ctx) {
    // A visitor's page rendered moments ago is answered before any routing.
    return pageFromMemory(request, pageCacheSeconds(env)) ?? app.fetch(request, env, ctx);
  },
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
