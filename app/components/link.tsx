import type { AnchorHTMLAttributes, MouseEvent } from "react";
import { useNavigate } from "react-router";

/**
 * A link to a page of the app: a plain `<a>` marked for React Router's route discovery (`data-discover`, as its
 * `<Link>` marks one), which the page's one click handler (useAppLinks, on the app shell) navigates on the client
 * once the page has hydrated. A page sent without hydration keeps ordinary links. React Router's `<Link>` runs half
 * a dozen hooks per link on the server; a signed-in page has 20–40 links, so the app's links are markup instead.
 * `to` is a path on this site (a `?query` alone is resolved against the page, as any link's is). `reloadDocument`
 * loads the page anew (no client navigation); `preventScrollReset` keeps the scroll position.
 */
export function Link({
  to,
  reloadDocument = false,
  preventScrollReset = false,
  ...props
}: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: string;
  reloadDocument?: boolean;
  preventScrollReset?: boolean;
}) {
  return (
    <a
      href={to}
      {...(reloadDocument ? {} : { "data-discover": "true" })}
      {...(preventScrollReset ? { "data-keep-scroll": "" } : {})}
      {...props}
    />
  );
}

/**
 * Marks a list whose plain `<a>` links (without Link's attributes, to keep a long list's markup small) are pages of
 * the app, navigated on the client like Link's: spread it on the list's element.
 */
export const CLIENT_LINKS = { "data-client-links": "" } as const;

/**
 * The click handler for the whole page: a plain left click on a Link, or on a link inside a CLIENT_LINKS list,
 * navigates with React Router. Anything else (a modified or middle click, a target, a download, another site, a
 * link to a file such as a CSV export, a click a handler already took) is left to the browser.
 */
export function useAppLinks() {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    const link = event.target instanceof Element ? event.target.closest("a") : null;
    if (
      !link ||
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey
    )
      return;
    if (!link.hasAttribute("data-discover") && !link.closest("[data-client-links]")) return;
    if (link.target || link.hasAttribute("download") || link.origin !== window.location.origin) return;
    event.preventDefault();
    void navigate(link.pathname + link.search + link.hash, {
      preventScrollReset: link.hasAttribute("data-keep-scroll"),
    });
  };
}
