// The free entry form's bot check (issue 29, decision 530) behind one interface: Cloudflare Turnstile's server-side
// check (siteverify) in production, failing closed on any error, timeout or unexpected answer; a local verifier for
// tests and `npm start`. Chosen by configuration: with TURNSTILE_SITE_KEY (wrangler.toml [vars]) and the secret
// TURNSTILE_SECRET_KEY set, Turnstile; without them, the local verifier in demo mode only, and in production a check
// that refuses every entry (fail closed: a deployment without keys offers no unchecked free route).

import { isDemoMode } from "./config.server";
import { LOCAL_BOT_CHECK_TOKEN } from "~/domain/free-entries";

export const TURNSTILE_SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/** How long the server waits for siteverify before refusing. */
export const TURNSTILE_TIMEOUT_MS = 5_000;

export interface BotVerifier {
  /** True only when the check says a person sent the form; false for anything else, never throws. */
  verify(token: string, remoteIp: string | null): Promise<boolean>;
}

/** What the form shows: Turnstile's widget (with its site key), the local check's token, or nothing works (off). */
export type BotCheckWidget =
  { kind: "turnstile"; siteKey: string } | { kind: "local"; token: string } | { kind: "off" };

type BotCheckEnv = Pick<Env, "DEMO_MODE"> & {
  TURNSTILE_SITE_KEY?: string;
  TURNSTILE_SECRET_KEY?: string;
};

/** The configured check: Turnstile with both keys; else the local check in demo mode; else off (refuses). */
export function botCheckWidget(env: BotCheckEnv): BotCheckWidget {
  if (env.TURNSTILE_SITE_KEY && env.TURNSTILE_SECRET_KEY) return { kind: "turnstile", siteKey: env.TURNSTILE_SITE_KEY };
  if (isDemoMode(env)) return { kind: "local", token: LOCAL_BOT_CHECK_TOKEN };
  return { kind: "off" };
}

/** Turnstile's server-side check: a POST to siteverify; any failure, timeout or non-success answer is a refusal. */
export function turnstileVerifier(
  secret: string,
  fetcher: typeof fetch = fetch,
  timeoutMs = TURNSTILE_TIMEOUT_MS,
): BotVerifier {
  return {
    async verify(token, remoteIp) {
      if (!token || token.length > 2048) return false;
      const body = new FormData();
      body.set("secret", secret);
      body.set("response", token);
      if (remoteIp) body.set("remoteip", remoteIp);
      try {
        const response = await fetcher(TURNSTILE_SITEVERIFY_URL, {
          method: "POST",
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) return false;
        const answer: unknown = await response.json();
        return typeof answer === "object" && answer !== null && (answer as { success?: unknown }).success === true;
      } catch (error) {
        console.warn("bot check: Turnstile siteverify failed; refusing", String(error));
        return false;
      }
    },
  };
}

/** The local verifier (tests, `npm start`): accepts exactly LOCAL_BOT_CHECK_TOKEN. */
export const localVerifier: BotVerifier = {
  async verify(token) {
    return token === LOCAL_BOT_CHECK_TOKEN;
  },
};

/** A verifier that refuses everything: the bot check is not configured, so the free route fails closed. */
const refuseAll: BotVerifier = {
  async verify() {
    return false;
  },
};

/** The configured verifier (see botCheckWidget). */
export function botVerifier(env: BotCheckEnv, fetcher: typeof fetch = fetch): BotVerifier {
  const widget = botCheckWidget(env);
  if (widget.kind === "turnstile") return turnstileVerifier(env.TURNSTILE_SECRET_KEY!, fetcher);
  if (widget.kind === "local") return localVerifier;
  return refuseAll;
}
