// One-click unsubscribe (RFC 8058) from a category of mail: a URL signed per account and category, so the mail
// provider's POST (no cookie, no Origin) and the page's button both work, and a tampered URL is refused.
import { createHmac, timingSafeEqual } from "node:crypto";
import { updateNotificationSwitch } from "~/db/queries/notifications.server";
import { getDb } from "~/db/client.server";
import { CATEGORY_SWITCH, UNSUBSCRIBABLE_CATEGORIES, type UnsubscribableCategory } from "~/domain/notifications";
import { siteOrigin } from "~/lib/config.server";
import { UNSUBSCRIBE_PATH } from "~/lib/unsubscribe-path";

function secretOf(env: Pick<Env, "SESSION_SECRET">): string {
  if (!env.SESSION_SECRET) throw new Error("SESSION_SECRET is not set: unsubscribe links cannot be signed");
  return env.SESSION_SECRET;
}

function signature(secret: string, userId: string, category: string): string {
  return createHmac("sha256", secret).update(`unsubscribe|${userId}|${category}`).digest("base64url");
}

/** The absolute unsubscribe URL of an account's category. */
export async function unsubscribeUrl(
  env: Pick<Env, "SESSION_SECRET" | "SITE_ORIGIN">,
  userId: string,
  category: UnsubscribableCategory,
): Promise<string> {
  const params = new URLSearchParams({ u: userId, c: category, s: signature(secretOf(env), userId, category) });
  return `${siteOrigin(env)}${UNSUBSCRIBE_PATH}?${params}`;
}

/** The account and category a URL's query names, when its signature is right; null otherwise. */
export function verifyUnsubscribe(
  env: Pick<Env, "SESSION_SECRET">,
  search: URLSearchParams,
): { userId: string; category: UnsubscribableCategory } | null {
  const userId = search.get("u") ?? "";
  const category = search.get("c") ?? "";
  const sig = search.get("s") ?? "";
  if (!env.SESSION_SECRET || !userId || userId.length > 100 || sig.length > 100) return null;
  if (!(UNSUBSCRIBABLE_CATEGORIES as readonly string[]).includes(category)) return null;
  const expected = Buffer.from(signature(env.SESSION_SECRET, userId, category));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, category: category as UnsubscribableCategory };
}

/** Turns the category's switch off for the account (Settings > Notifications shows it off; the inbox still fills). */
export async function unsubscribe(env: Env, userId: string, category: UnsubscribableCategory): Promise<void> {
  await updateNotificationSwitch(getDb(env), userId, CATEGORY_SWITCH[category], false);
}
