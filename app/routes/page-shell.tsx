import { Outlet } from "react-router";
import { ErrorPage } from "~/components/error-page";
import type { Route } from "./+types/page-shell";

// Every page sits under this pathless route, so an error a page's action or loader throws (a 403 answered to a
// POST, say) is caught here, below the root. React Router runs only the loaders above the route whose boundary
// catches an action's error: caught at the root, the root loader would not run and the header would show a
// visitor; caught here, it runs and the header shows who is signed in.

export default function PageShell() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
