// The one notification pipeline (docs/product.md#notifications, decision 570). Every fact an account is told
// becomes one notification under a key naming the fact (`order-confirmed:<order>`, `refund:<refund id>`, ...),
// unique per account: the webhook, the payment page and the cron racing, or a step run three times, make one. The
// notification is the in-app inbox entry; each channel its account allows gets its own delivery row (the e-mail,
// each subscribed browser's push), claimed by a conditional update before it is sent and retried with backoff by the
// cron. Creating a notification never throws: a payment or a draw never fails because of it.
import { getDb } from "~/db/client.server";
import {
  claimDueDeliveries,
  finishDeliveries,
  getNotificationTargets,
  getPushSubscriptionKeys,
  insertDeliveries,
  insertNotifications,
  listPushEndpoints,
  type ClaimedDelivery,
  type DeliveryOutcome,
  type NewDelivery,
  type NewNotification,
} from "~/db/queries/notifications.server";
import { deletePushSubscription } from "~/db/queries/settings.server";
import {
  categoryOf,
  DELIVERY_CHUNK,
  headerText,
  isTransactional,
  nextAttemptAt,
  PROMOTIONAL_CATEGORIES,
  shouldEmail,
  shouldPush,
  type NotificationKind,
} from "~/domain/notifications";
import { siteOrigin } from "~/lib/config.server";
import { sendMail, type Mail } from "~/lib/mail.server";
import { mailHtml } from "~/lib/mail-html";
import { isAllowedEndpoint } from "~/lib/push-subscriptions.server";
import { selfExcludedAccounts } from "~/lib/self-exclusion.server";
import { unsubscribeUrl } from "~/lib/unsubscribe.server";
import { sendWebPush, type VapidKeys } from "~/lib/web-push";

export type { NotificationKind } from "~/domain/notifications";

export type NotificationMessage = {
  /** The fact it tells (e.g. `tracking:<update id>`): one notification per recipient and key. */
  key: string;
  subject: string;
  text: string;
  /** A same-site path of the thing itself: the inbox links to it, the push opens it (default /notifications). */
  url?: string;
};

export type NotifyResult = { created: boolean; emailed: boolean; pushed: number };

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

/** A same-site path, or the inbox: a notification never links off the site. */
function samePath(url: string | undefined): string {
  return url && url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\") ? url : "/notifications";
}

/**
 * Creates the notifications of one kind (one per recipient and key; an existing one is left as it is) and their
 * deliveries by the channels each account allows. Answers the notifications this call created.
 */
export async function createNotifications(
  env: Env,
  kind: NotificationKind,
  items: readonly ({ userId: string } & NotificationMessage)[],
): Promise<NewNotification[]> {
  if (items.length === 0) return [];
  const db = getDb(env);
  const targets = new Map(
    (
      await getNotificationTargets(
        db,
        items.map((i) => i.userId),
      )
    ).map((t) => [t.userId, t]),
  );
  // Self-excluded fans get no promotional notice (their account or e-mail is under a self-exclusion).
  const excluded = PROMOTIONAL_CATEGORIES.includes(categoryOf(kind))
    ? await selfExcludedAccounts(env, [...targets.values()], new Date())
    : new Set<string>();
  const rows: NewNotification[] = items
    .filter((item) => targets.has(item.userId) && !excluded.has(item.userId))
    .map((item) => ({
      id: crypto.randomUUID(),
      userId: item.userId,
      key: item.key.slice(0, 200),
      kind,
      subject: headerText(item.subject),
      text: item.text,
      url: samePath(item.url),
    }));
  const created = await insertNotifications(db, rows);
  const fresh = rows.filter((row) => created.has(row.id));
  if (fresh.length === 0) return [];
  const keys = vapidKeys(env);
  const pushing = keys ? fresh.filter((row) => shouldPush(kind, targets.get(row.userId)!.switches)) : [];
  const endpoints =
    pushing.length > 0
      ? await listPushEndpoints(
          db,
          pushing.map((row) => row.userId),
        )
      : new Map();
  const deliveries: NewDelivery[] = [];
  for (const row of fresh) {
    const target = targets.get(row.userId)!;
    if (shouldEmail(kind, target.switches))
      deliveries.push({ notificationId: row.id, channel: "email", target: target.email });
  }
  for (const row of pushing) {
    // Only endpoints at a known push service are ever posted to (rows stored before that rule are skipped).
    for (const endpoint of (endpoints.get(row.userId) ?? []).filter((e: string) => isAllowedEndpoint(env, e)))
      deliveries.push({ notificationId: row.id, channel: "push", target: endpoint });
  }
  await insertDeliveries(db, deliveries, new Date());
  return fresh;
}

/**
 * Tells an account a fact, once per key: the inbox entry, then (right away, in this request) its e-mail and pushes;
 * whatever fails is left to the cron's retries. Never throws (failures are logged): a sale, a refund or a draw must
 * not fail because a mailbox or a push service did.
 */
export async function notify(
  env: Env,
  userId: string,
  kind: NotificationKind,
  message: NotificationMessage,
): Promise<NotifyResult> {
  const result: NotifyResult = { created: false, emailed: false, pushed: 0 };
  try {
    const [created] = await createNotifications(env, kind, [{ userId, ...message }]);
    if (!created) return result;
    result.created = true;
    const claimed = await claimDueDeliveries(getDb(env), {
      now: new Date(),
      limit: 25,
      notificationId: created.id,
    });
    for (const outcome of await sendDeliveries(env, claimed)) {
      const delivery = claimed.find((c) => c.id === outcome.id);
      if (outcome.result !== "sent" || !delivery) continue;
      if (delivery.channel === "email") result.emailed = true;
      else result.pushed++;
    }
  } catch (error) {
    console.error("notify: failed", { userId, kind, key: message.key, error });
  }
  return result;
}

/**
 * The cron's delivery step: claims the oldest due deliveries (at most DELIVERY_CHUNK a run, each one outgoing mail
 * or push, within the per-invocation subrequest limit) and sends them; a failure is retried with backoff.
 */
export async function deliverDueNotifications(env: Env, now: Date, limit = DELIVERY_CHUNK) {
  const claimed = await claimDueDeliveries(getDb(env), { now, limit });
  const outcomes = await sendDeliveries(env, claimed, now);
  return {
    claimed: claimed.length,
    sent: outcomes.filter((o) => o.result === "sent").length,
    retrying: outcomes.filter((o) => o.result === "retry").length,
    failed: outcomes.filter((o) => o.result === "failed").length,
  };
}

/** Sends claimed deliveries and records each one's outcome. */
async function sendDeliveries(env: Env, claimed: readonly ClaimedDelivery[], now = new Date()) {
  const outcomes: DeliveryOutcome[] = [];
  const keys = vapidKeys(env);
  for (const delivery of claimed) {
    try {
      outcomes.push(await sendOne(env, delivery, keys));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const at = nextAttemptAt(delivery.attempts, now);
      console.warn("notify: delivery failed", { id: delivery.id, channel: delivery.channel, error: message });
      outcomes.push(
        at
          ? { id: delivery.id, result: "retry", at, error: message }
          : { id: delivery.id, result: "failed", error: message },
      );
    }
  }
  await finishDeliveries(getDb(env), outcomes, now);
  return outcomes;
}

async function sendOne(env: Env, delivery: ClaimedDelivery, keys: VapidKeys | null): Promise<DeliveryOutcome> {
  const { notification: n } = delivery;
  if (delivery.channel === "email") {
    await sendMail(env, getDb(env), await notificationMail(env, delivery.target, n));
    return { id: delivery.id, result: "sent" };
  }
  if (!keys) return { id: delivery.id, result: "skipped", reason: "push is not configured" };
  const payload = { title: n.subject, body: n.text.slice(0, 400), url: n.url, kind: n.kind };
  // The subscription as stored now: a browser that left since is skipped.
  const subscription = await getPushSubscriptionKeys(getDb(env), delivery.target, n.userId);
  if (!subscription) return { id: delivery.id, result: "skipped", reason: "subscription removed" };
  const sent = await sendWebPush({ endpoint: delivery.target, ...subscription }, payload, keys);
  if (sent.ok) return { id: delivery.id, result: "sent" };
  if (sent.gone) {
    await deletePushSubscription(getDb(env), delivery.target);
    return { id: delivery.id, result: "skipped", reason: `subscription gone (${sent.status})` };
  }
  throw new Error(`push refused (${sent.status})`);
}

/**
 * The e-mail of a notification: its text and an HTML part made from it, with a link to the thing itself. Mail that
 * is not about a purchase or an account carries List-Unsubscribe (one-click, RFC 8058) for its category and a
 * visible link to the same signed page.
 */
async function notificationMail(env: Env, to: string, n: ClaimedDelivery["notification"]): Promise<Mail> {
  const origin = siteOrigin(env);
  const link = `${origin}${n.url}`;
  const text = n.text.includes(link) ? n.text : `${n.text}\n\n${link}`;
  if (isTransactional(n.kind)) return { to, subject: n.subject, text, html: mailHtml(text) };
  const category = categoryOf(n.kind) as Exclude<ReturnType<typeof categoryOf>, "transactional">;
  const unsubscribe = await unsubscribeUrl(env, n.userId, category);
  const footer = `You get this because of your notification settings. Stop these e-mails: ${unsubscribe}`;
  return {
    to,
    subject: n.subject,
    text: `${text}\n\n--\n${footer}`,
    html: mailHtml(text, footer),
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
