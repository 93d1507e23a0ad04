import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notifications } from "~/db/schema";
import { NOTIFICATIONS_PAGE_SIZE } from "~/domain/notifications";
import { createNotifications } from "~/lib/notify.server";
import { db, decodedHtml, get, makeUser, pageText, postForm, signIn } from "./helpers";

// The inbox: the bell in the nav bar with the unread count (read with the session, in the page's own batch), and
// /notifications newest first, paginated in SQL, each opening the thing itself, mark-read and mark-all-read, only
// ever the account's own (docs/product.md#notifications).

async function fill(userId: string, count: number) {
  for (let i = 0; i < count; i++) {
    await createNotifications(env, "payout_result", [
      {
        userId,
        key: `payout-sent:inbox-${i}:0`,
        subject: `Payout ${i}`,
        text: `Payout number ${i}.`,
        url: `/payouts?n=${i}`,
      },
    ]);
  }
  // Distinct times, oldest first.
  const rows = await db().select().from(notifications).where(eq(notifications.userId, userId));
  for (const row of rows) {
    const n = Number(row.subject.split(" ")[1]);
    await db()
      .update(notifications)
      .set({ createdAt: new Date(Date.UTC(2026, 10, 1, 0, n)) })
      .where(eq(notifications.id, row.id));
  }
}

function bellCount(html: string): string | null {
  return /data-testid="notification-count"[^>]*>([^<]+)</.exec(html)?.[1] ?? null;
}

describe("the bell", () => {
  it("shows the unread count on signed-in pages, and nothing to a visitor", async () => {
    const fan = await makeUser({ name: "Bell Fan" });
    const cookie = await signIn(fan.email);
    expect(bellCount(await decodedHtml(await get("/shop", { cookie })))).toBeNull();
    await fill(fan.id, 3);
    const html = await decodedHtml(await get("/shop", { cookie }));
    expect(bellCount(html)).toBe("3");
    expect(html).toContain('aria-label="Notifications, 3 unread"');
    expect(await decodedHtml(await get("/shop"))).not.toContain("notification-count");
  });
});

describe("/notifications", () => {
  it("asks a visitor to sign in", async () => {
    const res = await get("/notifications");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("/signin");
  });

  it("lists newest first a page at a time", async () => {
    const fan = await makeUser({ name: "Inbox Fan" });
    const cookie = await signIn(fan.email);
    await fill(fan.id, NOTIFICATIONS_PAGE_SIZE + 2);
    const first = await pageText(await get("/notifications", { cookie }));
    const newest = `Payout ${NOTIFICATIONS_PAGE_SIZE + 1}`;
    expect(first.indexOf(newest)).toBeGreaterThanOrEqual(0);
    expect(first.indexOf(newest)).toBeLessThan(first.indexOf(`Payout ${NOTIFICATIONS_PAGE_SIZE}`));
    expect(first).not.toContain("Payout 1.");
    expect(first).toContain("Next");
    const second = await pageText(await get("/notifications?page=2", { cookie }));
    expect(second).toContain("Payout 1");
    expect(second).toContain("Payout 0");
    expect(second).not.toContain(newest);
  });

  it("opens a notification's thing and marks it read; marks one or all read; never another account's", async () => {
    const fan = await makeUser({ name: "Reader" });
    const other = await makeUser({ name: "Other Reader" });
    const cookie = await signIn(fan.email);
    await fill(fan.id, 3);
    await fill(other.id, 1);
    const mine = await db().select().from(notifications).where(eq(notifications.userId, fan.id));
    const [theirs] = await db().select().from(notifications).where(eq(notifications.userId, other.id));
    const byNumber = (n: number) => mine.find((row) => row.subject === `Payout ${n}`)!;

    const open = await postForm("/notifications", { intent: "open", id: byNumber(0).id }, { cookie });
    expect(open.status).toBe(302);
    expect(open.headers.get("Location")).toBe("/payouts?n=0");
    expect(bellCount(await decodedHtml(await get("/shop", { cookie })))).toBe("2");

    expect((await postForm("/notifications", { intent: "read", id: byNumber(1).id }, { cookie })).status).toBe(200);
    expect(bellCount(await decodedHtml(await get("/shop", { cookie })))).toBe("1");

    // Another account's notification: not found, and left unread.
    expect((await postForm("/notifications", { intent: "read", id: theirs!.id }, { cookie })).status).toBe(404);
    expect((await postForm("/notifications", { intent: "open", id: "not-a-uuid" }, { cookie })).status).toBe(400);
    const [still] = await db().select().from(notifications).where(eq(notifications.id, theirs!.id));
    expect(still!.readAt).toBeNull();

    const all = await postForm("/notifications", { intent: "read-all" }, { cookie });
    expect(all.status).toBe(200);
    expect(await pageText(all)).toContain("All notifications marked as read.");
    expect(bellCount(await decodedHtml(await get("/shop", { cookie })))).toBeNull();
  });
});
