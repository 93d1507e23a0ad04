// Signed, short-lived download links for digital products. The link names the order; the signature binds it to
// the buyer and an expiry, so a copied link is useless to anyone else and soon to everyone.
import { createHmac, timingSafeEqual } from "node:crypto";

export const DOWNLOAD_TTL_SECONDS = 300;

function signature(secret: string, orderId: string, userId: string, exp: number): string {
  return createHmac("sha256", secret).update(`${orderId}|${userId}|${exp}`).digest("base64url");
}

function requireSecret(env: Pick<Env, "SESSION_SECRET">): string {
  const secret = env.SESSION_SECRET;
  if (!secret) throw new Error("SESSION_SECRET is not set: download links cannot be signed");
  return secret;
}

/** `/api/downloads/{orderId}?exp=…&sig=…`, valid for `ttlSeconds` and only for `userId`. */
export function signedDownloadUrl(
  env: Pick<Env, "SESSION_SECRET">,
  { orderId, userId }: { orderId: string; userId: string },
  ttlSeconds = DOWNLOAD_TTL_SECONDS,
  now = Date.now(),
): string {
  const exp = Math.floor(now / 1000) + Math.max(1, Math.floor(ttlSeconds));
  const sig = signature(requireSecret(env), orderId, userId, exp);
  return `/api/downloads/${encodeURIComponent(orderId)}?exp=${exp}&sig=${sig}`;
}

/** True when `sig` was made by signedDownloadUrl for this order and user and `exp` has not passed. */
export function verifyDownloadSignature(
  env: Pick<Env, "SESSION_SECRET">,
  {
    orderId,
    userId,
    exp,
    sig,
  }: { orderId: string; userId: string; exp: string | null | undefined; sig: string | null | undefined },
  now = Date.now(),
): boolean {
  if (!env.SESSION_SECRET || !exp || !sig || !/^\d{1,12}$/.test(exp)) return false;
  const expSeconds = Number(exp);
  if (expSeconds * 1000 <= now) return false;
  const expected = Buffer.from(signature(env.SESSION_SECRET, orderId, userId, expSeconds));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
