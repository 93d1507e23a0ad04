// Storing and forgetting browsers' push subscriptions (decision 430): only endpoints at a known push service, never
// one stored for another account; signing out forgets what that session stored.
import type { Db } from "~/db/client.server";
import { deleteSessionPushSubscriptions, savePushSubscription } from "~/db/queries/settings.server";
import { isAllowedPushEndpoint, PUSH_MESSAGES, pushTestHost } from "~/domain/push-endpoints";
import { sessionViewerOf } from "~/lib/session.server";

type PushVars = { DEMO_MODE?: string; PUSH_TEST_HOST?: string };

/** Whether the server may store and post to this endpoint under this deployment's settings. */
export function isAllowedEndpoint(env: PushVars, endpoint: string): boolean {
  return isAllowedPushEndpoint(endpoint, pushTestHost(env));
}

/** Stores the subscription of the request's browser for the account; the message to show when it is refused. */
export async function subscribeBrowser(
  env: PushVars,
  db: Db,
  request: Request,
  userId: string,
  sub: { endpoint: string; p256dh: string; auth: string },
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!isAllowedEndpoint(env, sub.endpoint)) return { ok: false, message: PUSH_MESSAGES.endpoint };
  const viewer = await sessionViewerOf(request);
  const saved = await savePushSubscription(db, userId, sub, viewer?.sessionId ?? null);
  return saved ? { ok: true } : { ok: false, message: PUSH_MESSAGES.taken };
}

/** Forgets the push subscriptions the request's session stored (called when it signs out). */
export async function forgetSessionPushSubscriptions(db: Db, request: Request): Promise<void> {
  const viewer = await sessionViewerOf(request);
  if (viewer) await deleteSessionPushSubscriptions(db, viewer.sessionId);
}
