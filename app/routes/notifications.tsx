// /notifications: the account's inbox, newest first, paginated in SQL; each notification opens the thing itself
// (marking it read), and can be marked read, or all at once (docs/product.md#notifications).
import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { Button, DateText, EmptyState, Page, pageMeta, Pagination } from "~/components/page";
import { getEnv } from "~/lib/context";
import { pageParam, requireUser } from "~/lib/guards.server";
import { inboxPage, markAllRead, markRead } from "~/lib/inbox.server";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = () => pageMeta("Notifications");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const page = pageParam(request);
  const { notifications, hasNext } = await inboxPage(getEnv(context), user.id, page);
  return { page, hasNext, notifications };
}

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("open"), id: z.string().uuid() }),
  z.object({ intent: z.literal("read"), id: z.string().uuid() }),
  z.object({ intent: z.literal("read-all") }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const parsed = ActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ message: "Choose a notification." }, { status: 400 });
  const env = getEnv(context);
  if (parsed.data.intent === "read-all") {
    await markAllRead(env, user.id);
    return { message: "All notifications marked as read." };
  }
  const url = await markRead(env, user.id, parsed.data.id);
  if (!url) return data({ message: "Notification not found." }, { status: 404 });
  return parsed.data.intent === "open" ? redirect(url) : { message: "Marked as read." };
}

export default function Notifications({ loaderData, actionData }: Route.ComponentProps) {
  const { notifications, page, hasNext } = loaderData;
  const unread = notifications.some((n) => !n.readAt);
  return (
    <Page
      title="Notifications"
      subtitle="What happened to your orders, sales, payouts and pools."
      width="narrow"
      actions={
        unread ? (
          <Form method="post">
            <input type="hidden" name="intent" value="read-all" />
            <Button type="submit" variant="secondary">
              Mark all as read
            </Button>
          </Form>
        ) : null
      }
    >
      {actionData?.message ? (
        <p role="status" className="mb-4 text-sm text-gray-700">
          {actionData.message}
        </p>
      ) : null}
      {notifications.length === 0 ? (
        <EmptyState title="No notifications yet" message="Orders, sales, payouts and pool draws will show up here." />
      ) : (
        <ul className="divide-y divide-gray-100 rounded-xl border border-gray-200 bg-white" data-testid="notifications">
          {notifications.map((n) => (
            <li key={n.id} className="flex items-start gap-3 p-4" data-unread={n.readAt ? undefined : ""}>
              <span
                aria-hidden="true"
                className={`mt-2 h-2 w-2 shrink-0 rounded-full ${n.readAt ? "bg-transparent" : "bg-brand-500"}`}
              />
              <div className="min-w-0 flex-1">
                <Form method="post">
                  <input type="hidden" name="intent" value="open" />
                  <input type="hidden" name="id" value={n.id} />
                  <button type="submit" className="text-left font-medium text-gray-900 hover:underline">
                    {n.readAt ? null : <span className="sr-only">Unread: </span>}
                    {n.subject}
                  </button>
                </Form>
                <p className="mt-1 line-clamp-3 whitespace-pre-line text-sm text-gray-600">{n.text}</p>
                <p className="mt-1 text-xs text-gray-500">
                  <DateText value={n.createdAt} withTime />
                </p>
              </div>
              {n.readAt ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="read" />
                  <input type="hidden" name="id" value={n.id} />
                  <Button type="submit" variant="secondary" size="sm">
                    Mark as read
                  </Button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={(p) => `/notifications?page=${p}`} />
    </Page>
  );
}
