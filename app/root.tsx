import { useEffect } from "react";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { AppShell } from "~/components/app-shell";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { InstallBanner } from "~/components/install-banner";
import { getOptionalUser, prepareViewer } from "~/lib/auth.server";
import { cartCount } from "~/lib/cart.server";
import { isDemoMode } from "~/lib/config.server";
import { getEnv } from "~/lib/context";
import { shouldHydrate } from "~/lib/hydration";
import { useNonce } from "~/lib/nonce";
import { clearToastCookie, readFlashToast } from "~/lib/toast.server";
import "./app.css";

export const middleware: Route.MiddlewareFunction[] = [prepareViewer];

export async function loader({ request, context }: Route.LoaderArgs) {
  const flashToast = readFlashToast(request);
  const user = await getOptionalUser(context);
  return data(
    { user, cartCount: cartCount(user, request), demoMode: isDemoMode(getEnv(context)), flashToast },
    flashToast ? { headers: { "Set-Cookie": clearToastCookie() } } : undefined,
  );
}

// Child routes set their own title; this one shows while the root error boundary renders.
export const meta: Route.MetaFunction = ({ error }) => [{ title: error ? `${errorTitle(error)} · Tribe` : "Tribe" }];

export function Layout({ children }: { children: React.ReactNode }) {
  // Undefined when the root loader itself failed: the shell then renders for a visitor.
  const rootData = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  const nonce = useNonce();
  // The same rule decides in entry.server.tsx whether the loader data is streamed for hydration.
  const hydrate = shouldHydrate({
    signedIn: Boolean(rootData?.user),
    flashToast: Boolean(rootData?.flashToast),
    handles: matches.map((match) => match.handle),
  });
  return (
    <html lang="en" data-hydrate={hydrate ? "" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#ea580c" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="icon" href="/icons/icon-192.png" type="image/png" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <Meta />
        <Links />
      </head>
      <body>
        <AppShell
          user={rootData?.user ?? null}
          cartCount={rootData?.cartCount ?? 0}
          flashToast={rootData?.flashToast ?? null}
        >
          {children}
        </AppShell>
        <InstallBanner />
        {hydrate ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : (
          <script type="speculationrules" nonce={nonce} dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
        )}
        <script type="module" src={PAGE_SCRIPT} />
        <script type="module" src="/pwa.js" />
      </body>
    </html>
  );
}

/**
 * A visitor's static page prefetches the page a link points to when the pointer rests on it (Chromium's
 * speculation rules; other browsers ignore the script). Sign-out, the API and downloads are never prefetched.
 */
const SPECULATION_RULES = JSON.stringify({
  prefetch: [
    {
      where: {
        and: [
          { href_matches: "/*" },
          { not: { href_matches: "/signout" } },
          { not: { href_matches: "/api/*" } },
          { not: { href_matches: "/*.csv" } },
          { not: { href_matches: "/*.txt" } },
        ],
      },
      eagerness: "moderate",
    },
  ],
});

/** The one small script of every page: live pool figures over one WebSocket, and a static page's few behaviours. */
const PAGE_SCRIPT = "/page.js";

export default function App() {
  useEffect(() => {
    // /page.js waits for this before touching text React rendered.
    document.documentElement.dataset.hydrated = "true";
    window.dispatchEvent(new Event("tribe:hydrated"));
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
