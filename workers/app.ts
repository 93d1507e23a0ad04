import { Hono } from "hono";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { openDbSession } from "~/db/client.server";
import { limitRequestBody, requireFormBody } from "~/lib/body-limit";
import { isCountedMutation, rateLimitedResponse, takeMutation } from "~/lib/rate-limit.server";
import { cloudflareContext } from "~/lib/context";
import { clearUndecodableCookies, recordCookieReads } from "~/lib/cookies.server";
import { demoModeRefusal } from "~/lib/config.server";
import { applySecurityHeaders } from "~/lib/security-headers";
import { api as apiRoutes } from "./api";
import { media } from "./media";
import { isAllowedOrigin } from "./origin-check";
import {
  isCacheablePageRequest,
  isPublicPagePath,
  pageCacheSeconds,
  pageFromMemory,
  withPageCache,
} from "./page-cache";
import { runScheduled } from "./scheduled";

export { ChatRoom } from "./chat-room";
export { PrizePool } from "./prize-pool";

// The app's build: the dev server imports it again on every request so edits show; a built Worker's never changes,
// so it is imported once per isolate (a dynamic import() still resolves the module again on every call).
const importBuild = () => import("virtual:react-router/server-build");
let built: Promise<ServerBuild> | undefined;
const serverBuild = import.meta.env.DEV ? importBuild : () => (built ??= importBuild());
// Given a function, React Router derives its routes and static handler again on every request (so the dev server
// picks up edits); a built Worker's routes never change, so it gets them once per isolate.
let builtHandler: ReturnType<typeof createRequestHandler> | undefined;
const handleRequest: ReturnType<typeof createRequestHandler> = import.meta.env.DEV
  ? createRequestHandler(serverBuild, import.meta.env.MODE)
  : async (request, context) => {
      builtHandler ??= createRequestHandler(await serverBuild(), import.meta.env.MODE);
      return builtHandler(request, context);
    };

/** The JSON API (Hono) and the media files; every other path is a page of the React Router app. */
const api = new Hono<{ Bindings: Env }>();
api.route("/api", apiRoutes);
api.route("/media", media);
api.notFound((c) => c.json({ error: "Not found" }, 404));
const isApiPath = (pathname: string) =>
  pathname.startsWith("/api/") || pathname === "/api" || pathname.startsWith("/media/");

/** The page a `.data` request (a client navigation's loader data) belongs to: `/shop.data` → `/shop`, `/_root.data` → `/`. */
function pageOfData(pathname: string): string {
  if (!pathname.endsWith(".data")) return pathname;
  const page = pathname.slice(0, -".data".length);
  return page === "/_root" ? "/" : page;
}

/**
 * A page or its data is kept by no browser or proxy (`private, no-store`) unless its render read no cookie (recorded
 * by the cookie reader: every signed-in render reads the session) and it is one of the page cache's public pages or
 * a route that chose its own caching (a drawn pool's entry list). Any other page may be personal by its address
 * alone: an order, a voucher code, a reset link.
 */
async function withNoStore(request: Request, render: () => Promise<Response>): Promise<Response> {
  const [rendered, cookiesRead] = recordCookieReads(render);
  const response = await rendered;
  if (
    cookiesRead.size === 0 &&
    (response.headers.has("Cache-Control") || isPublicPagePath(pageOfData(new URL(request.url).pathname)))
  ) {
    return response;
  }
  const out = new Response(response.body, response);
  out.headers.set("Cache-Control", "private, no-store");
  return out;
}

async function page(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const render = () =>
    withNoStore(request, () => {
      const context = new RouterContextProvider();
      context.set(cloudflareContext, { env, ctx });
      return handleRequest(request, context);
    });
  const seconds = pageCacheSeconds(env);
  if (seconds <= 0) return render();
  const { assets } = await serverBuild();
  return withPageCache(request, ctx, seconds, render, { version: assets.version });
}

/** Every answer carries the security headers (a page already has its nonce policy; anything else gets a strict one). */
function secured(response: Response, request: Request): Response {
  // A WebSocket upgrade is not a document and cannot be copied.
  if (response.status === 101 || response.webSocket) return response;
  const out = new Response(response.body, response);
  applySecurityHeaders(out.headers, new URL(request.url).pathname);
  return out;
}

async function answer(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  // A visitor's page rendered moments ago is answered before any routing.
  const cached = pageFromMemory(request, pageCacheSeconds(env));
  if (cached) return withSetCookies(cached, clearUndecodableCookies(request));
  // Every read and write of this request goes through one D1 session (read replication, app/db/client.server.ts).
  const db = openDbSession(env, request);
  // Mutations are counted per address and account before anything is read (app/lib/rate-limit.server.ts).
  const { pathname } = new URL(request.url);
  if (isCountedMutation(request.method, pathname) && !(await takeMutation(db.env, request))) {
    return rateLimitedResponse(pathname);
  }
  // Every body is capped as it streams in, before any route reads it (app/lib/body-limit.ts).
  const limited = await limitRequestBody(request);
  if (limited instanceof Response) return limited;
  request = limited;
  if (!isAllowedOrigin(request))
    return new Response("Forbidden: this form was not sent from this site.", { status: 403 });
  // A page's action is sent a form; any other body is refused here with a message (app/lib/body-limit.ts).
  if (!isApiPath(pathname)) {
    const form = await requireFormBody(request);
    if (form instanceof Response) return form;
    request = form;
  }
  const response = isApiPath(pathname) ? await api.fetch(request, db.env, ctx) : await page(request, db.env, ctx);
  if (response.status === 101) return response;
  // One of this site's cookies that cannot be decoded was read as absent; it is cleared so it is not sent again.
  const cleared = clearUndecodableCookies(request);
  // The browser keeps its newest bookmark; a visitor's cacheable page never carries one (it is shared).
  const cookie = isCacheablePageRequest(request) ? null : db.bookmarkCookie();
  return withSetCookies(response, cookie ? [...cleared, cookie] : cleared);
}

/** The response with these Set-Cookie headers added (the same response when there are none). */
function withSetCookies(response: Response, cookies: readonly string[]): Response {
  if (cookies.length === 0) return response;
  const out = new Response(response.body, response);
  for (const cookie of cookies) out.headers.append("Set-Cookie", cookie);
  return out;
}

/** What a request that failed unexpectedly is answered: a plain message, never the error or its stack. */
function failed(request: Request, error: unknown): Response {
  console.error("request failed", new URL(request.url).pathname, error);
  if (isApiPath(new URL(request.url).pathname)) return Response.json({ error: "Internal error" }, { status: 500 });
  return new Response("Something went wrong on our side. Please try again in a moment.", {
    status: 500,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export default {
  async fetch(request, env, ctx) {
    // A deployment left in demo mode answers only where demo mode belongs (app/lib/config.server.ts).
    const refusal = demoModeRefusal(env, request);
    if (refusal) return secured(refusal, request);
    let response: Response;
    try {
      response = await answer(request, env, ctx);
    } catch (error) {
      response = failed(request, error);
    }
    return secured(response, request);
  },
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
