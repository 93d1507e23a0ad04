// What the app tells an account, through which channels, and when a failed delivery is tried again. Pure: no I/O.
// The rules are in docs/product.md#notifications.

/** What a notification is about. Each kind belongs to one category (below). */
export const NOTIFICATION_KINDS = [
  // A fan's purchase and its money (transactional).
  "order_confirmed",
  "payment_pending",
  "payment_result",
  // Shipped, tracking updates, delivered, "not received" (the shipping timeline).
  "order_update",
  "refund",
  "return_decision",
  "group_buy",
  // A host's sales.
  "sale",
  "low_stock",
  "group_buy_finalised",
  // A host's money and what needs their action (transactional).
  "return_requested",
  "dispute",
  "payout_result",
  // Prize pools.
  "pool_closed",
  "pool_drawn",
  "winner",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * The switches of Settings > Notifications a category answers to. "transactional" is mail about a purchase, money
 * or an account: always sent, never unsubscribable.
 */
export const NOTIFICATION_CATEGORIES = ["transactional", "sales", "winner", "pool"] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/** The categories a person can unsubscribe from (each has its own switch). */
export const UNSUBSCRIBABLE_CATEGORIES = ["sales", "winner", "pool"] as const;
export type UnsubscribableCategory = (typeof UNSUBSCRIBABLE_CATEGORIES)[number];

const CATEGORY_OF: Record<NotificationKind, NotificationCategory> = {
  order_confirmed: "transactional",
  payment_pending: "transactional",
  payment_result: "transactional",
  order_update: "transactional",
  refund: "transactional",
  return_decision: "transactional",
  group_buy: "transactional",
  return_requested: "transactional",
  dispute: "transactional",
  payout_result: "transactional",
  sale: "sales",
  low_stock: "sales",
  group_buy_finalised: "sales",
  pool_closed: "pool",
  pool_drawn: "pool",
  winner: "winner",
};

/**
 * Categories that invite play: a self-excluded fan gets none of them (issue 30 item 6, decision 570). A prize already
 * won, purchases and money are not promotion.
 */
export const PROMOTIONAL_CATEGORIES: readonly NotificationCategory[] = ["pool"];

export function categoryOf(kind: NotificationKind): NotificationCategory {
  return CATEGORY_OF[kind];
}

/** What each unsubscribable category is called on the unsubscribe page and in Settings. */
export const CATEGORY_LABELS: Record<UnsubscribableCategory, string> = {
  sales: "Sales notifications",
  winner: "Winner notifications",
  pool: "Pool updates",
};

export type NotificationSwitches = {
  emailNotifications: boolean;
  pushNotifications: boolean;
  winnerNotifications: boolean;
  salesNotifications: boolean;
  /** Pools you hold entries in (or run) closed and drawn. */
  poolNotifications: boolean;
};

/** Every notification switch is on by default (docs/product.md#notifications). */
export const DEFAULT_NOTIFICATION_SWITCHES: NotificationSwitches = {
  emailNotifications: true,
  pushNotifications: true,
  winnerNotifications: true,
  salesNotifications: true,
  poolNotifications: true,
};

/** The switch of an unsubscribable category. */
export const CATEGORY_SWITCH: Record<UnsubscribableCategory, keyof NotificationSwitches> = {
  sales: "salesNotifications",
  winner: "winnerNotifications",
  pool: "poolNotifications",
};

export function isTransactional(kind: NotificationKind): boolean {
  return categoryOf(kind) === "transactional";
}

function categorySwitch(kind: NotificationKind, s: NotificationSwitches): boolean {
  const category = categoryOf(kind);
  return category === "transactional" ? true : s[CATEGORY_SWITCH[category]];
}

/** An e-mail goes out for transactional mail, else only with both the e-mail switch and the category's switch on. */
export function shouldEmail(kind: NotificationKind, s: NotificationSwitches): boolean {
  return isTransactional(kind) || (s.emailNotifications && categorySwitch(kind, s));
}

/** A push goes out only with the push switch on and the category's switch on. */
export function shouldPush(kind: NotificationKind, s: NotificationSwitches): boolean {
  return s.pushNotifications && categorySwitch(kind, s);
}

/** A delivery channel: each is its own row (the in-app inbox is the notification itself). */
export const DELIVERY_CHANNELS = ["email", "push"] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

export const DELIVERY_STATUSES = ["pending", "sending", "sent", "failed", "skipped"] as const;

/** Waits before each retry of a failed delivery (after the 1st, 2nd, ... failed attempt); then it is given up. */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000, 12 * 60 * 60_000];
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When a delivery that failed its `attempts`-th try is tried again; null when it is given up. */
export function nextAttemptAt(attempts: number, now: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay);
}

/** How long a claimed delivery stays claimed: after that a crashed sender's claim can be taken again. */
export const DELIVERY_LEASE_MS = 2 * 60_000;

/**
 * Per cron run: deliveries sent (each one outgoing call: a mail or a push; well inside the per-invocation
 * subrequest limit with the run's other steps) and recipients of a pool's close or draw enqueued.
 */
export const DELIVERY_CHUNK = 100;
export const POOL_NOTICE_CHUNK = 400;

/** A size or colour with this many units left (or fewer) is "low stock": its host is told when it gets there. */
export const LOW_STOCK_UNITS = 10;

/** True when taking `taken` units brought the stock from above the low-stock line to it or below. */
export function crossedLowStock(unitsLeft: number, taken: number): boolean {
  return unitsLeft <= LOW_STOCK_UNITS && unitsLeft + taken > LOW_STOCK_UNITS;
}

/** Notifications per page of /notifications. */
export const NOTIFICATIONS_PAGE_SIZE = 20;

/** One line of text for a mail header or a subject: user content may carry no line break into a header. */
export function headerText(text: string, max = 200): string {
  const flat = text
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach a header
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
