/** Demo mode (seeded demo accounts, "Try the demo", the dev outbox): on locally, off in production. */
export function isDemoMode(env: Pick<Env, "DEMO_MODE">): boolean {
  return env.DEMO_MODE === "true";
}

/** Hosts demo mode always serves on: this machine (`npm start`, `npm run dev`, the browser tests, the bench). */
const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/**
 * Whether demo mode may answer at `url`: on this machine, or at an origin listed in DEMO_ORIGINS (comma-separated,
 * e.g. a staging site's `https://demo.tribe.example`; the tests list theirs). Anywhere else a deployment left with
 * DEMO_MODE=true would sign anyone in as the demo accounts and show every reset link in its outbox.
 */
export function isDemoOriginAllowed(env: Pick<Env, "DEMO_ORIGINS">, url: URL): boolean {
  if (LOOPBACK_HOSTS.includes(url.hostname)) return true;
  for (const listed of (env.DEMO_ORIGINS ?? "").split(",")) {
    const origin = listed.trim();
    if (origin && origin.replace(/\/+$/, "") === url.origin) return true;
  }
  return false;
}

/** The page a demo-mode Worker answers outside its allowed origins (null when it may serve, or demo mode is off). */
export function demoModeRefusal(env: Pick<Env, "DEMO_MODE" | "DEMO_ORIGINS">, request: Request): Response | null {
  if (!isDemoMode(env)) return null;
  const url = new URL(request.url);
  if (isDemoOriginAllowed(env, url)) return null;
  const origin = url.origin.replace(/[<>&"']/g, "");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo mode is on</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5">
<h1>This site is in demo mode</h1>
<p>It runs with <code>DEMO_MODE=true</code>, which lets anyone sign in as the demo accounts and shows every e-mail the site sends (password reset links included) in a public outbox. Demo mode serves only on localhost, 127.0.0.1 or an origin listed in <code>DEMO_ORIGINS</code>, and ${origin} is none of them.</p>
<p>If you run this site: set <code>DEMO_MODE</code> to <code>"false"</code> for a real deployment, or add this origin to <code>DEMO_ORIGINS</code> if it is a demo.</p>
</body></html>`;
  return new Response(html, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * The site's public origin (SITE_ORIGIN, e.g. "https://tribe.example"), for absolute links in mail that webhooks and
 * the cron send (they answer no visitor's request, so they know no origin of their own). A missing or malformed value
 * is logged and gives "", so a mail still goes out, with a relative link.
 */
export function siteOrigin(env: Pick<Env, "SITE_ORIGIN">): string {
  try {
    return new URL(env.SITE_ORIGIN).origin;
  } catch {
    console.error("config: SITE_ORIGIN is not an absolute URL; mail links will be relative", {
      SITE_ORIGIN: env.SITE_ORIGIN,
    });
    return "";
  }
}
