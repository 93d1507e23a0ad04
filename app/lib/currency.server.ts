import { displayCurrency, isSupportedCurrency, type SupportedCurrency } from "~/domain/currency";
import { CURRENCY_COOKIE, hostCookie, readCookie } from "./cookies.server";

// The viewer's display currency on every page that shows prices (decision 620): remembered on a fan's profile
// (user_profiles.currency, read with their country in the page's batch) and in a visitor's `__Host-currency` cookie,
// which the page cache keys its copies by (workers/page-cache.ts).

/** A year: the choice stays until the visitor makes another. */
const CURRENCY_COOKIE_SECONDS = 365 * 24 * 60 * 60;

/** The currency a visitor's cookie names, or null (absent, undecodable, or not a code of the rate table). */
export function cookieCurrency(request: Request): SupportedCurrency | null {
  const value = readCookie(request, CURRENCY_COOKIE);
  return isSupportedCurrency(value) ? value : null;
}

/** The Set-Cookie remembering a visitor's choice. */
export function currencyCookie(currency: SupportedCurrency): string {
  return hostCookie(CURRENCY_COOKIE, currency, CURRENCY_COOKIE_SECONDS);
}

/**
 * The currency a page shows its prices in: `?currency=` on its address, else a signed-in viewer's profile choice
 * and country (`place`, from getViewerPlace in the page's batch), else a visitor's cookie, else MYR.
 */
export function viewerCurrency(
  request: Request,
  place: { country: string; currency: string | null } | null | undefined,
): SupportedCurrency {
  const chosen = new URL(request.url).searchParams.get("currency");
  if (chosen) return displayCurrency({ chosen });
  if (place) return displayCurrency({ remembered: place.currency, country: place.country });
  return displayCurrency({ remembered: cookieCurrency(request) });
}
