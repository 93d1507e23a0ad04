// What the app told an account (the in-app inbox) and each channel's delivery of it (docs/product.md#notifications,
// decision 570).
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DELIVERY_CHANNELS, DELIVERY_STATUSES, NOTIFICATION_KINDS } from "../../domain/notifications";
import { createdAt, id, timestamp } from "./columns";
import { users } from "./accounts";

/**
 * One notification per recipient and fact: `key` names the fact (`order-confirmed:<order>`, `refund:<refund id>`,
 * `pool-closed:<pool>`, ...), unique per account, so the webhook, the success page and the cron racing make one.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    /** The same-site path of the thing itself (an order, a pool's verification page, ...). */
    url: text("url").notNull(),
    createdAt: createdAt(),
    readAt: timestamp("read_at"),
  },
  (t) => [
    uniqueIndex("notifications_user_key_unique").on(t.userId, t.key),
    index("notifications_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("notifications_user_unread_idx")
      .on(t.userId)
      .where(sql`read_at is null`),
  ],
);

/**
 * One channel's delivery of a notification (an e-mail to an address, a push to one subscribed browser), claimed by
 * a conditional update before it is sent and retried with backoff by the cron.
 */
export const notificationDeliveries = sqliteTable(
  "notification_deliveries",
  {
    id: id(),
    notificationId: text("notification_id")
      .notNull()
      .references(() => notifications.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: DELIVERY_CHANNELS }).notNull(),
    /** The e-mail address or the push endpoint. */
    target: text("target").notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When a pending delivery may be tried (again); a claimed one's claim ends at this time. */
    nextAttemptAt: timestamp("next_attempt_at").notNull(),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("notification_deliveries_target_unique").on(t.notificationId, t.channel, t.target),
    index("notification_deliveries_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

/**
 * The cron's progress telling a closed or drawn pool's entrants (and its host), a chunk per run: the last account
 * id done, and when all were.
 */
export const poolNotices = sqliteTable(
  "pool_notices",
  {
    poolId: text("pool_id").notNull(),
    event: text("event", { enum: ["closed", "drawn"] }).notNull(),
    afterUserId: text("after_user_id").notNull().default(""),
    doneAt: timestamp("done_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.event] })],
);

export type Notification = typeof notifications.$inferSelect;
export type NotificationDelivery = typeof notificationDeliveries.$inferSelect;
