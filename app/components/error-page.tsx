import { isRouteErrorResponse, useLocation } from "react-router";
import { Link } from "~/components/link";
import { buttonClass } from "./page";

type NotFoundCopy = { title: string; message: string; action: { to: string; label: string } };

const defaultNotFound: NotFoundCopy = {
  title: "Page not found",
  message: "The page you're looking for doesn't exist or has moved.",
  action: { to: "/", label: "Go to Home" },
};

/**
 * The friendly page for a thrown response or an unexpected error. A route can pass its own 404 copy
 * ('Creator Not Found', 'Transaction Not Found', ...). Server error details are shown only in development.
 */
export function ErrorPage({ error, notFound = defaultNotFound }: { error: unknown; notFound?: NotFoundCopy }) {
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;

  if (status === 404) {
    return <ErrorFrame status={404} title={notFound.title} message={notFound.message} action={notFound.action} />;
  }
  if (status === 403) {
    return (
      <ErrorFrame
        status={403}
        title="Access denied"
        message="You don't have permission to view this page."
        action={{ to: "/", label: "Go to Home" }}
      />
    );
  }

  const details =
    import.meta.env.DEV && error instanceof Error ? (
      <pre className="mt-6 max-h-80 overflow-auto rounded-lg bg-gray-900 p-4 text-left text-xs text-gray-100">
        {error.stack ?? error.message}
      </pre>
    ) : null;
  return (
    <ErrorFrame
      status={status}
      title="Something went wrong"
      message="We couldn't load this page. Please try again in a moment."
      action={{ to: location.pathname + location.search, label: "Try again", reload: true }}
      secondary={{ to: "/", label: "Go to Home" }}
    >
      {details}
    </ErrorFrame>
  );
}

function ErrorFrame({
  status,
  title,
  message,
  action,
  secondary,
  children,
}: {
  status: number;
  title: string;
  message: string;
  action: { to: string; label: string; reload?: boolean };
  secondary?: { to: string; label: string };
  children?: React.ReactNode;
}) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center sm:py-24">
      <p className="text-sm font-semibold text-brand-600">{status}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-gray-900">{title}</h1>
      <p className="mt-3 text-gray-600">{message}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={action.to} reloadDocument={action.reload} className={buttonClass("primary")}>
          {action.label}
        </Link>
        {secondary ? (
          <Link to={secondary.to} className={buttonClass("secondary")}>
            {secondary.label}
          </Link>
        ) : null}
      </div>
      {children}
    </div>
  );
}

/** The document title while a route shows its error: its own not-found title for a 404. */
export function errorTitle(error: unknown, notFoundTitle = "Page not found"): string {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return status === 404 ? notFoundTitle : status === 403 ? "Access denied" : "Something went wrong";
}
