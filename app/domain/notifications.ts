// Which notifications an account receives, from its switches in Settings > Notifications. Pure: no I/O.

/** What a notification is about. */
export const NOTIFICATION_KINDS = [
  "sale",
  "winner",
  "password_reset",
  "email_confirmation",
  "refund",
  "return_decision",
  "payout_result",
  "order_update",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Mail an account needs: sent whatever the switches say. */
export const ALWAYS_SENT_KINDS: readonly NotificationKind[] = [
  "password_reset",
  "email_confirmation",
  "refund",
  "return_decision",
  "payout_result",
  // Shipped, tracking updates, delivered, "not received": mail about a purchase is transactional.
  "order_update",
];

export type NotificationSwitches = {
  emailNotifications: boolean;
  pushNotifications: boolean;
  winnerNotifications: boolean;
  salesNotifications: boolean;
};

/** Every notification switch is on by default (docs/product.md#notifications). */
export const DEFAULT_NOTIFICATION_SWITCHES: NotificationSwitches = {
  emailNotifications: true,
  pushNotifications: true,
  winnerNotifications: true,
  salesNotifications: true,
};

export function isAlwaysSent(kind: NotificationKind): boolean {
  return ALWAYS_SENT_KINDS.includes(kind);
}

/** The kind's own switch (sales for a sale, winner for a win); true for mail an account needs. */
function kindSwitch(kind: NotificationKind, s: NotificationSwitches): boolean {
  if (kind === "sale") return s.salesNotifications;
  if (kind === "winner") return s.winnerNotifications;
  return true;
}

/** An e-mail goes out for mail an account needs, else only with both the e-mail switch and the kind's switch on. */
export function shouldEmail(kind: NotificationKind, s: NotificationSwitches): boolean {
  return isAlwaysSent(kind) || (s.emailNotifications && kindSwitch(kind, s));
}

/** A push goes out only with the push switch on and (for a sale or a win) the kind's switch on. */
export function shouldPush(kind: NotificationKind, s: NotificationSwitches): boolean {
  return s.pushNotifications && kindSwitch(kind, s);
}
