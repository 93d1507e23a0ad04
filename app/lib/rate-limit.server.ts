// Coarse rate limits on everything that changes data: every POST, PUT, PATCH and DELETE (page actions and /api)
// counts once against the sending address and once against the signed-in account, through Cloudflare's
// rate-limiting bindings (RATE_LIMIT_ADDRESS and RATE_LIMIT_ACCOUNT in wrangler.toml; counted per location, which
// is fine for limits this coarse). The payment provider's webhooks are not counted: they are signed, come from the
// provider's servers and must never be refused for volume. workers/app.ts applies this before any route runs.
import { getDb } from "~/db/client.server";
import { getSessionUser } from "./session.server";

export const RATE_LIMITED_MESSAGE = "Too many requests. Please wait a minute and try again.";

/** The limits' window (Cloudflare's rate limiter counts per 10 or 60 seconds). */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Whether a request counts against the limits: a mutation that is not a provider webhook. */
export function isCountedMutation(method: string, pathname: string): boolean {
  return MUTATING_METHODS.has(method.toUpperCase()) && !pathname.startsWith("/api/webhooks/");
}

type Limiters = { RATE_LIMIT_ADDRESS?: RateLimit; RATE_LIMIT_ACCOUNT?: RateLimit };

/** The keys a mutation counts under: its address, and its account when a session is signed in. */
export async function rateLimitKeys(env: Env, request: Request): Promise<{ address: string; account: string | null }> {
  const user = await getSessionUser(getDb(env), request);
  return {
    address: `address:${request.headers.get("CF-Connecting-IP") ?? "unknown"}`,
    account: user ? `account:${user.id}` : null,
  };
}

/** Counts one mutation and says whether it may go on (false once its address or its account is over the limit). */
export async function takeMutation(env: Env, request: Request): Promise<boolean> {
  const limiters = env as Limiters;
  const { address, account } = await rateLimitKeys(env, request);
  const outcomes = await Promise.all([
    limiters.RATE_LIMIT_ADDRESS?.limit({ key: address }),
    account ? limiters.RATE_LIMIT_ACCOUNT?.limit({ key: account }) : undefined,
  ]);
  return outcomes.every((outcome) => !outcome || outcome.success);
}

/** The 429 answer: JSON for the API, plain text for pages and forms. */
export function rateLimitedResponse(pathname: string): Response {
  const headers = { "Retry-After": String(RATE_LIMIT_PERIOD_SECONDS) };
  if (pathname.startsWith("/api/")) return Response.json({ error: RATE_LIMITED_MESSAGE }, { status: 429, headers });
  return new Response(RATE_LIMITED_MESSAGE, {
    status: 429,
    headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
  });
}
