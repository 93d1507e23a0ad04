import { Hono } from "hono";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/lib/context";
import { api } from "./api";
import { runScheduled } from "./scheduled";

export { PrizePool } from "./prize-pool";

const handleRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

const app = new Hono<{ Bindings: Env }>();

app.route("/api", api);

app.all("*", (c) => {
  const context = new RouterContextProvider();
  context.set(cloudflareContext, { env: c.env, ctx: c.executionCtx });
  return handleRequest(c.req.raw, context);
});

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
