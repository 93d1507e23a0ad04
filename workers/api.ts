import { Hono } from "hono";
import { chatApi } from "./chat-api";
import { connectWebhooks } from "./connect-webhooks";
import { downloads } from "./downloads";
import { localCheckout } from "./local-checkout";
import { poolsApi } from "./pools-api";
import { uploads } from "./uploads";
import { webhooks } from "./webhooks";

/** JSON API and webhooks, mounted at /api. Routes that read the signed-in user take it from `withUser` (workers/session-user.ts). */
export const api = new Hono<{ Bindings: Env }>();

api.get("/health", (c) => c.json({ ok: true }));
api.route("/pools", poolsApi);
api.route("/chat", chatApi);
api.route("/webhooks", webhooks);
api.route("/webhooks", connectWebhooks);
api.route("/local-checkout", localCheckout);
api.route("/uploads", uploads);
api.route("/downloads", downloads);

api.onError((err, c) => {
  console.error("api error", err);
  return c.json({ error: "Internal error" }, 500);
});
