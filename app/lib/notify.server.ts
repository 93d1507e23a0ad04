// The one way the app tells an account something: an e-mail and/or a Web Push message, as the account's switches
// in Settings > Notifications allow (app/domain/notifications.ts). Mail an account needs (password reset, e-mail
// confirmation, refunds, return decisions, payout results) is always e-mailed.
import { getDb } from "~/db/client.server";
import { deletePushSubscription, getNotificationTarget, listPushSubscriptions } from "~/db/queries/settings.server";
import { shouldEmail, shouldPush, type NotificationKind } from "~/domain/notifications";
import { sendMail } from "~/lib/mail.server";
import { isAllowedEndpoint } from "~/lib/push-subscriptions.server";
import { sendWebPush, type VapidKeys } from "~/lib/web-push";

export type { NotificationKind } from "~/domain/notifications";

export type NotificationMessage = {
  /** The fact it tells (e.g. `tracking:<update id>`): one notification per recipient and key (issue 30). */
  key?: string;
  subject: string;
  text: string;
  /** A same-site path the push notification opens (default /). */
  url?: string;
  /** Send the e-mail to this address instead of the account's (an address change is confirmed at the new one). */
  to?: string;
};

export type NotifyResult = { emailed: boolean; pushed: number };

/** The VAPID keys from the secrets, or null when push is not configured. */
export function vapidKeys(
  env: Pick<Env, "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT" | "MAIL_FROM">,
): VapidKeys | null {
  if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY) return null;
  return {
    publicKey: env.VAPID_PUBLIC_KEY,
    privateKey: env.VAPID_PRIVATE_KEY,
    subject: env.VAPID_SUBJECT || `mailto:${env.MAIL_FROM}`,
  };
}

/**
 * Notifies an account. Never throws for a delivery problem (a sale or a draw must not fail because a mailbox or a
 * push service did): failures are logged and reported in the result.
 */
export async function notify(
  env: Env,
  userId: string,
  kind: NotificationKind,
  message: NotificationMessage,
): Promise<NotifyResult> {
  const db = getDb(env);
  const target = await getNotificationTarget(db, userId);
  const result: NotifyResult = { emailed: false, pushed: 0 };
  if (!target) return result;

  if (shouldEmail(kind, target.switches)) {
    try {
      await sendMail(env, db, { to: message.to ?? target.email, subject: message.subject, text: message.text });
      result.emailed = true;
    } catch (error) {
      console.error("notify: e-mail failed", { userId, kind, error });
    }
  }

  const keys = vapidKeys(env);
  if (keys && shouldPush(kind, target.switches)) {
    // Only endpoints at a known push service are ever posted to (rows stored before that rule are skipped).
    const subscriptions = (await listPushSubscriptions(db, userId)).filter((sub) =>
      isAllowedEndpoint(env, sub.endpoint),
    );
    const payload = { title: message.subject, body: message.text.slice(0, 400), url: message.url ?? "/", kind };
    await Promise.all(
      subscriptions.map(async (sub) => {
        try {
          const sent = await sendWebPush(sub, payload, keys);
          if (sent.ok) result.pushed++;
          else if (sent.gone) await deletePushSubscription(db, sub.endpoint);
          else console.warn("notify: push refused", { userId, kind, status: sent.status });
        } catch (error) {
          console.error("notify: push failed", { userId, kind, error });
        }
      }),
    );
  }
  return result;
}
