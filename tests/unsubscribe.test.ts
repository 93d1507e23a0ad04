import { env, SELF } from "cloudflare:test";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, userProfiles } from "~/db/schema";
import { notify } from "~/lib/notify.server";
import { db, get, makeUser, ORIGIN, pageText, postForm, randomIp, signIn } from "./helpers";

// Mail that is not about a purchase or an account carries List-Unsubscribe and List-Unsubscribe-Post (RFC 8058)
// pointing at a URL signed per account and category: the mail provider's one-click POST works without a session or
// an Origin, the visible link opens a page with a button, and a tampered URL is refused and changes nothing.

async function switches(userId: string) {
  const [row] = await db()
    .select({
      sales: userProfiles.salesNotifications,
      winner: userProfiles.winnerNotifications,
      pool: userProfiles.poolNotifications,
      email: userProfiles.emailNotifications,
    })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId));
  return row!;
}

async function unsubscribeUrlMailedTo(address: string): Promise<URL> {
  const [mail] = await db()
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, address))
    .orderBy(asc(mailOutbox.createdAt));
  const header = mail!.headers?.["List-Unsubscribe"] ?? "";
  const url = new URL(header.slice(1, -1));
  // The visible link in the text part is the same URL.
  expect(mail!.textBody).toContain(url.toString());
  expect(mail!.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  return url;
}

/** The mail provider's one-click POST (RFC 8058): no cookie, no Origin header. */
function oneClick(pathAndQuery: string) {
  return SELF.fetch(`${ORIGIN}${pathAndQuery}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": randomIp() },
    body: "List-Unsubscribe=One-Click",
    redirect: "manual",
  });
}

describe("one-click unsubscribe", () => {
  it("a valid signed URL turns the category off by a POST without origin; the inbox keeps filling", async () => {
    const host = await makeUser({ name: "Unsub Host" });
    await notify(env, host.id, "sale", { key: "new-order:u1", subject: "New order ORD-1: Mat", text: "Sold 1." });
    const url = await unsubscribeUrlMailedTo(host.email);
    expect(url.pathname).toBe("/unsubscribe");
    expect(url.searchParams.get("c")).toBe("sales");

    const res = await oneClick(url.pathname + url.search);
    expect(res.status).toBe(200);
    expect(await switches(host.id)).toEqual({ sales: false, winner: true, pool: true, email: true });

    // The next sale is in the inbox, not in the mailbox.
    const next = await notify(env, host.id, "sale", { key: "new-order:u2", subject: "New order ORD-2", text: "Sold." });
    expect(next).toEqual({ created: true, emailed: false, pushed: 0 });
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, host.email))).toHaveLength(1);
  });

  it("the visible link opens a page with a button that unsubscribes", async () => {
    const fan = await makeUser({ name: "Unsub Fan" });
    await notify(env, fan.id, "pool_closed", { key: "pool-closed:p1", subject: "Pool closed", text: "Closed." });
    const url = await unsubscribeUrlMailedTo(fan.email);
    expect(url.searchParams.get("c")).toBe("pool");
    const page = await get(url.pathname + url.search);
    expect(page.status).toBe(200);
    const text = await pageText(page);
    expect(text).toContain("Stop e-mails and pushes about pool updates?");
    expect(text).toContain("Unsubscribe");
    // Nothing changes by opening it.
    expect((await switches(fan.id)).pool).toBe(true);
    const pressed = await postForm(url.pathname + url.search, {});
    expect(pressed.status).toBe(200);
    expect(await pageText(pressed)).toContain("You will get no more e-mails about pool updates.");
    expect((await switches(fan.id)).pool).toBe(false);
  });

  it("refuses a tampered or foreign URL and changes nothing", async () => {
    const victim = await makeUser({ name: "Victim" });
    const attacker = await makeUser({ name: "Attacker" });
    await notify(env, attacker.id, "sale", { key: "new-order:a1", subject: "New order", text: "Sold." });
    const url = await unsubscribeUrlMailedTo(attacker.email);
    const forged = new URL(url);
    forged.searchParams.set("u", victim.id);
    const otherCategory = new URL(url);
    otherCategory.searchParams.set("c", "winner");
    const badSignature = new URL(url);
    badSignature.searchParams.set("s", `${url.searchParams.get("s")!.slice(0, -2)}AA`);
    for (const bad of [forged, otherCategory, badSignature]) {
      expect((await oneClick(bad.pathname + bad.search)).status).toBe(400);
      expect((await get(bad.pathname + bad.search)).status).toBe(400);
    }
    expect((await oneClick("/unsubscribe")).status).toBe(400);
    expect(await switches(victim.id)).toEqual({ sales: true, winner: true, pool: true, email: true });
    expect(await switches(attacker.id)).toEqual({ sales: true, winner: true, pool: true, email: true });
  });

  it("only the unsubscribe path is exempt from the origin check", async () => {
    const user = await makeUser({ name: "Origin Check" });
    const cookie = await signIn(user.email);
    const res = await postForm("/notifications", { intent: "read-all" }, { cookie, origin: "https://evil.example" });
    expect(res.status).toBe(403);
  });

  it("never puts a line break from user content into a mail header", async () => {
    const host = await makeUser({ name: "Header Host" });
    await notify(env, host.id, "sale", {
      key: "new-order:h1",
      subject: "New order: Mat\r\nBcc: victim@example.com",
      text: "Sold.",
    });
    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, host.email));
    expect(mail!.subject).toBe("New order: Mat Bcc: victim@example.com");
  });
});
