/** Demo mode (seeded demo accounts, "Try the demo", the dev outbox): on locally, off in production. */
export function isDemoMode(env: Pick<Env, "DEMO_MODE">): boolean {
  return env.DEMO_MODE === "true";
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
    console.error("config: SITE_ORIGIN is not an absolute URL; mail links will be relative", { SITE_ORIGIN: env.SITE_ORIGIN });
    return "";
  }
}
