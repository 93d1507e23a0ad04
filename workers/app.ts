import { Hono } from "hono";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/lib/context";
import { api } from "./api";
import { media } from "./media";
import { isAllowedOrigin } from "./origin-check";
import { pageCacheSeconds, pageFromMemory, withPageCache } from "./page-cache";
import { runScheduled } from "./scheduled";

export { PrizePool } from "./prize-pool";

const serverBuild = () => import("virtual:react-router/server-build");
const handleRequest = createRequestHandler(serverBuild, import.meta.env.MODE);

const app = new Hono<{ Bindings: Env }>();

app.use("*", async (c, next) => {
  if (!isAllowedOrigin(c.req.raw)) return c.text("Forbidden: this form was not sent from this site.", 403);
  await next();
});

app.route("/api", api);
app.route("/media", media);

app.all("*", async (c) => {
  const ctx = c.executionCtx as ExecutionContext;
  const render = () => {
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env: c.env, ctx });
    return handleRequest(c.req.raw, context);
  };
  const seconds = pageCacheSeconds(c.env);
  if (seconds <= 0) return render();
  const { assets } = await serverBuild();
  return withPageCache(c.req.raw, ctx, seconds, render, { version: assets.version });
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
