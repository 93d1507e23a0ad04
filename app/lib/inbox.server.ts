// The in-app inbox (/notifications): an account's notifications newest first, a page at a time, and marking them
// read. Only the account's own rows are ever read or changed.
import { getDb } from "~/db/client.server";
import { listNotifications, markAllNotificationsRead, markNotificationRead } from "~/db/queries/notifications.server";
import { NOTIFICATIONS_PAGE_SIZE } from "~/domain/notifications";

export async function inboxPage(env: Env, userId: string, page: number) {
  const rows = await listNotifications(getDb(env), userId, {
    limit: NOTIFICATIONS_PAGE_SIZE,
    offset: (page - 1) * NOTIFICATIONS_PAGE_SIZE,
  });
  return { notifications: rows.slice(0, NOTIFICATIONS_PAGE_SIZE), hasNext: rows.length > NOTIFICATIONS_PAGE_SIZE };
}

/** Marks one of the account's notifications read: where it points, or null when it is not theirs. */
export function markRead(env: Env, userId: string, id: string): Promise<string | null> {
  return markNotificationRead(getDb(env), userId, id, new Date());
}

export function markAllRead(env: Env, userId: string): Promise<number> {
  return markAllNotificationsRead(getDb(env), userId, new Date());
}
