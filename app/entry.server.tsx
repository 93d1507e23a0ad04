import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { shouldHydrate } from "~/lib/hydration";

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
) {
  let shellRendered = false;
  const userAgent = request.headers.get("user-agent");

  if (!hydrates(routerContext) && routerContext.serverHandoffStream) {
    // A page that will not hydrate needs none of its loader data in the browser: skip the streamed hand-off.
    const stream = routerContext.serverHandoffStream;
    routerContext.serverHandoffStream = undefined;
    void stream.cancel().catch(() => {});
  }

  const body = await renderToReadableStream(<ServerRouter context={routerContext} url={request.url} />, {
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
