import { useSyncExternalStore } from "react";

// Which pages hydrate. A page a visitor only reads (home, shop, a product, a profile…) is rendered completely on
// the server and sent without React's client bundle or its loader data: links are plain links, forms post
// natively, and /page.js keeps pool amounts current. Signed-in users (and anyone with a flash message to
// dismiss) get the hydrated app on every page.

/** What a route module can say about itself through `export const handle`. */
export type PageHandle = {
  /** The page works fully without JavaScript for a visitor (no session): it is sent without hydration. */
  staticForVisitors?: boolean;
};

/** The `handle` of a route a visitor only reads. */
export const STATIC_FOR_VISITORS: PageHandle = { staticForVisitors: true };

function isStaticForVisitors(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as PageHandle).staticForVisitors === true;
}

/**
 * True when the page must hydrate: a signed-in user, a flash toast to show and dismiss, or a matched route (the
 * deepest one decides) that has not declared itself static for visitors. `handles` are the matched routes' handles,
 * root first.
 */
export function shouldHydrate(input: { signedIn: boolean; flashToast: boolean; handles: readonly unknown[] }): boolean {
  if (input.signedIn || input.flashToast) return true;
  const leaf = input.handles.at(-1);
  return input.handles.length < 2 || !isStaticForVisitors(leaf);
}

const noop = () => () => {};

/** False on the server and during hydration, true once React runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
