import { AsyncLocalStorage } from "node:async_hooks";

// The one reader of the Cookie header (decision 420). The app's loaders and actions, the page cache's lookup and its
// store, and the Worker's clean-up of undecodable cookies all ask it, so what the cache calls "personal" is exactly
// what a render can read: there is no second parse of the header anywhere.

/** The signed-in session's token (app/lib/session.server.ts). */
export const SESSION_COOKIE = "__Host-session";
/** A signed flash message for the next page (app/lib/toast.server.ts). */
export const TOAST_COOKIE = "__Host-toast";
/** A visitor's signed cart (app/lib/cart.server.ts). */
export const CART_COOKIE = "__Host-cart";
/** The browser's newest D1 bookmark (app/db/client.server.ts); read before any render, never shown. */
export const DB_BOOKMARK_COOKIE = "__Host-d1-bookmark";

/** A visitor's chosen display currency (app/lib/currency.server.ts, decision 620); nothing personal. */
export const CURRENCY_COOKIE = "__Host-currency";

/** Cookies whose presence makes a page this browser's own: never answered from the page cache. */
export const PERSONAL_COOKIES: readonly string[] = [SESSION_COOKIE, TOAST_COOKIE, CART_COOKIE];
/**
 * Cookies the page cache keys its copies by (decision 620): a render that reads one is still shared, with everyone
 * whose cookie names the same copy (`cacheKeyCookie`), so reading one is not recorded by `recordCookieReads`.
 */
const CACHE_KEY_COOKIES: ReadonlySet<string> = new Set([CURRENCY_COOKIE]);
/** Every cookie this site sets (an undecodable one is cleared). */
const OWN_COOKIES: readonly string[] = [...PERSONAL_COOKIES, DB_BOOKMARK_COOKIE, CURRENCY_COOKIE];

/** A header's cookies by name: the first occurrence wins; `undefined` marks a value that cannot be decoded. */
type Jar = Map<string, string | undefined>;

const isBlank = (c: number) => c === 32 || c === 9; // space, tab

/** `text` without spaces and tabs at either end (String#trim would also eat other Unicode spaces). */
function trimmed(text: string, from: number, to: number): string {
  while (from < to && isBlank(text.charCodeAt(from))) from++;
  while (to > from && isBlank(text.charCodeAt(to - 1))) to--;
  return text.slice(from, to);
}

/**
 * Parses a Cookie header: `name=value` pairs split at `;`, spaces and tabs around names, `=` and values ignored, a
 * value in double quotes unquoted, %-escapes decoded. A value that does not decode is kept as undecodable (absent to
 * every reader, but seen by the cache and cleared when it is ours). A pair without `=` or without a name is skipped.
 */
export function parseCookieHeader(header: string): Jar {
  const jar: Jar = new Map();
  let start = 0;
  while (start <= header.length) {
    let end = header.indexOf(";", start);
    if (end === -1) end = header.length;
    const eq = header.indexOf("=", start);
    if (eq !== -1 && eq < end) {
      const name = trimmed(header, start, eq);
      if (name && !jar.has(name)) {
        let value = trimmed(header, eq + 1, end);
        if (value.length >= 2 && value.charCodeAt(0) === 34 && value.charCodeAt(value.length - 1) === 34)
          value = value.slice(1, -1);
        if (value.includes("%")) {
          try {
            value = decodeURIComponent(value);
          } catch {
            jar.set(name, undefined);
            start = end + 1;
            continue;
          }
        }
        jar.set(name, value);
      }
    }
    start = end + 1;
  }
  return jar;
}

// One request asks for several cookies (session, toast, cart, bookmark) with the same header: it is parsed once.
let lastHeader: string | null = null;
let lastJar: Jar = new Map();

function jarOf(request: Request): Jar | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  if (header !== lastHeader) {
    lastJar = parseCookieHeader(header);
    lastHeader = header;
  }
  return lastJar;
}

/** The cookies a render read (present in the header, decodable or not), for it and every recording around it. */
type Recording = { names: Set<string>; outer: Recording | undefined };
const recordings = new AsyncLocalStorage<Recording>();

/**
 * Runs `work` recording every cookie it (and everything it awaits) reads through readCookie. The returned set keeps
 * filling while the work's promises run (a streamed page's deferred data), so a caller deciding late looks late.
 */
export function recordCookieReads<T>(work: () => T): [T, ReadonlySet<string>] {
  const recording: Recording = { names: new Set(), outer: recordings.getStore() };
  return [recordings.run(recording, work), recording.names];
}

/**
 * Reads one cookie from a request: null when it is absent or cannot be decoded. Every read is recorded for the
 * render (the page is then this browser's own), except a cookie the page cache keys its copies by.
 */
export function readCookie(request: Request, name: string): string | null {
  const jar = jarOf(request);
  if (!jar?.has(name)) return null;
  if (!CACHE_KEY_COOKIES.has(name)) for (let r = recordings.getStore(); r; r = r.outer) r.names.add(name);
  return jar.get(name) ?? null;
}

/** True when the request carries a session, toast or cart cookie (even one that cannot be decoded). */
export function carriesPersonalCookie(request: Request): boolean {
  const jar = jarOf(request);
  return jar !== null && PERSONAL_COOKIES.some((name) => jar.has(name));
}

/** Set-Cookie headers clearing each of this site's cookies the request sent and that cannot be decoded. */
export function clearUndecodableCookies(request: Request): string[] {
  const jar = jarOf(request);
  if (!jar) return [];
  return OWN_COOKIES.filter((name) => jar.has(name) && jar.get(name) === undefined).map((name) =>
    hostCookie(name, "", 0),
  );
}

/** A `__Host-` cookie: Secure, Path=/, no Domain; HttpOnly and SameSite=Lax. */
export function hostCookie(name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
}
