import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { FREE_ENTRY_PATH, TURNSTILE_ORIGIN } from "~/domain/free-entries";
import { botCheckWidget } from "~/lib/bot-check.server";
import { getEnv } from "~/lib/context";
import { explorerBases } from "~/lib/draw.server";
import { shouldHydrate } from "~/lib/hydration";
import { NonceContext } from "~/lib/nonce";
import { httpsOrigins, newNonce, pagePolicy } from "~/lib/security-headers";

type RootData = { user?: unknown; flashToast?: unknown } | undefined;

/** The rule of app/lib/hydration.ts applied to this request's matched routes (root.tsx applies it while rendering). */
function hydrates(context: EntryContext): boolean {
  const { matches, loaderData } = context.staticHandlerContext;
  const root = loaderData.root as RootData;
  return shouldHydrate({
    signedIn: Boolean(root?.user),
    flashToast: Boolean(root?.flashToast),
    handles: matches.map((match) => context.routeModules[match.route.id]?.handle),
  });
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  let shellRendered = false;
  const userAgent = request.headers.get("user-agent");

  if (!hydrates(routerContext) && routerContext.serverHandoffStream) {
    // A page that will not hydrate needs none of its loader data in the browser: skip the streamed hand-off.
    const stream = routerContext.serverHandoffStream;
    routerContext.serverHandoffStream = undefined;
    void stream.cancel().catch(() => {});
  }

  // A fresh nonce per page: React Router puts it on its inline scripts (hydration data, route modules, scroll
  // restoration), our own inline scripts read it through NonceContext, and the policy allows only those.
  const nonce = newNonce();
  const env = getEnv(loadContext);
  // Turnstile's widget may load on the free entry page only, and only where it is configured (decision 530).
  const widgetOrigin =
    FREE_ENTRY_PATH.test(new URL(request.url).pathname) && botCheckWidget(env).kind === "turnstile"
      ? TURNSTILE_ORIGIN
      : undefined;
  responseHeaders.set(
    "Content-Security-Policy",
    pagePolicy(nonce, { connectOrigins: httpsOrigins(explorerBases(env)), widgetOrigin }),
  );

  const page = (
    <NonceContext.Provider value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>
  );
  const body = await renderToReadableStream(page, {
    nonce,
    onError(error: unknown) {
      responseStatusCode = 500;
      if (shellRendered) console.error(error);
    },
  });
  shellRendered = true;

  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) {
    await body.allReady;
  }

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
