import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { AppShell } from "~/components/app-shell";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { getOptionalUser, loadUser } from "~/lib/auth.server";
import { isDemoMode } from "~/lib/config.server";
import { getEnv } from "~/lib/context";
import { clearToastCookie, readFlashToast } from "~/lib/toast.server";
import "./app.css";

export const middleware: Route.MiddlewareFunction[] = [loadUser];

export function loader({ request, context }: Route.LoaderArgs) {
  const flashToast = readFlashToast(request);
  return data(
    { user: getOptionalUser(context), demoMode: isDemoMode(getEnv(context)), flashToast },
    flashToast ? { headers: { "Set-Cookie": clearToastCookie() } } : undefined,
  );
}

// Child routes set their own title; this one shows while the root error boundary renders.
export const meta: Route.MetaFunction = ({ error }) => [{ title: error ? `${errorTitle(error)} · Tribe` : "Tribe" }];

export function Layout({ children }: { children: React.ReactNode }) {
  // Undefined when the root loader itself failed: the shell then renders for a visitor.
  const rootData = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <AppShell user={rootData?.user ?? null} flashToast={rootData?.flashToast ?? null}>
          {children}
        </AppShell>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
