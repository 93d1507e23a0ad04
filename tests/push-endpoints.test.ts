import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { pushSubscriptions } from "~/db/schema";
import { isAllowedPushEndpoint, PUSH_MESSAGES, pushTestHost } from "~/domain/push-endpoints";
import { notify } from "~/lib/notify.server";
import { base64UrlEncode } from "~/lib/web-push";
import { db, decodedHtml, makeUser, postForm, signIn } from "./helpers";
import { vapidEnv } from "./support/push";

// Issue 27 item 7 (decision 430): push endpoints are https at a known push service (parsed hostname), never an
// address; an endpoint stored for another account is refused; signing out deletes the session's subscription.

afterEach(() => {
  vi.restoreAllMocks();
});

async function browserKeys() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  return { p256dh: base64UrlEncode(publicRaw), auth: base64UrlEncode(crypto.getRandomValues(new Uint8Array(16))) };
}

const subscribe = async (cookie: string, endpoint: string) =>
  postForm("/settings?tab=notifications", { intent: "push-subscribe", endpoint, ...(await browserKeys()) }, { cookie });

const rowsOf = (userId: string) => db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

describe("push endpoint rule", () => {
  it("accepts the browsers' push services by parsed hostname, https on 443 only", () => {
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
      "https://web.push.apple.com/QGuQyavXutnMH",
      "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
      "https://FCM.googleapis.com:443/fcm/send/x",
    ]) {
      expect(isAllowedPushEndpoint(endpoint), endpoint).toBe(true);
    }
  });

  it("refuses other hosts, lookalikes, addresses, http, other ports and credentials", () => {
    for (const endpoint of [
      "https://169.254.169.254/latest/meta-data/",
      "https://[fd00::1]/push",
      "https://127.0.0.1/push",
      "https://2130706433/push",
      "https://localhost/push",
      "http://fcm.googleapis.com/fcm/send/x",
      "https://fcm.googleapis.com:8443/fcm/send/x",
      "https://user:pw@fcm.googleapis.com/fcm/send/x",
      "https://fcm.googleapis.com.evil.example/x",
      "https://evil.example/fcm.googleapis.com",
      "https://notify.windows.com/x",
      "https://evilnotify.windows.com/x",
      "https://example.com/push",
      "not a url",
      "",
    ]) {
      expect(isAllowedPushEndpoint(endpoint), endpoint).toBe(false);
    }
  });

  it("honours the test host only in demo mode, never as an address", () => {
    expect(pushTestHost({ DEMO_MODE: "true", PUSH_TEST_HOST: "push.test" })).toBe("push.test");
    expect(pushTestHost({ DEMO_MODE: "false", PUSH_TEST_HOST: "push.test" })).toBeNull();
    expect(pushTestHost({ PUSH_TEST_HOST: "push.test" })).toBeNull();
    expect(isAllowedPushEndpoint("https://push.test/abc", "push.test")).toBe(true);
    expect(isAllowedPushEndpoint("https://push.test/abc", null)).toBe(false);
    expect(isAllowedPushEndpoint("https://169.254.169.254/abc", "169.254.169.254")).toBe(false);
  });
});

describe("push subscriptions in Settings", () => {
  it("refuses a link-local or unknown endpoint with a clear message and stores nothing", async () => {
    const user = await makeUser({ name: "Metadata Prober" });
    const cookie = await signIn(user.email);
    for (const endpoint of ["https://169.254.169.254/latest/meta-data/", "https://attacker.example/collect"]) {
      const res = await subscribe(cookie, endpoint);
      expect(res.status).toBe(400);
      expect(await decodedHtml(res)).toContain(PUSH_MESSAGES.endpoint);
    }
    expect(await rowsOf(user.id)).toHaveLength(0);
  });

  it("refuses an endpoint stored for another account: the subscription cannot be re-pointed", async () => {
    const owner = await makeUser({ name: "Endpoint Owner" });
    const thief = await makeUser({ name: "Endpoint Thief" });
    const endpoint = `https://push.test/${crypto.randomUUID()}`;
    expect((await subscribe(await signIn(owner.email), endpoint)).status).toBe(200);

    const res = await subscribe(await signIn(thief.email), endpoint);
    expect(res.status).toBe(400);
    expect(await decodedHtml(res)).toContain(PUSH_MESSAGES.taken);
    expect((await rowsOf(owner.id)).map((row) => row.endpoint)).toEqual([endpoint]);
    expect(await rowsOf(thief.id)).toHaveLength(0);
  });

  it("signing out deletes the subscription that session stored, and no other", async () => {
    const user = await makeUser({ name: "Leaving Subscriber" });
    const phone = await signIn(user.email);
    const laptop = await signIn(user.email);
    const phoneEndpoint = `https://push.test/${crypto.randomUUID()}`;
    const laptopEndpoint = `https://push.test/${crypto.randomUUID()}`;
    expect((await subscribe(phone, phoneEndpoint)).status).toBe(200);
    expect((await subscribe(laptop, laptopEndpoint)).status).toBe(200);

    expect((await postForm("/signout", {}, { cookie: phone })).status).toBe(302);
    expect((await rowsOf(user.id)).map((row) => row.endpoint)).toEqual([laptopEndpoint]);

    // The next account on the phone may now subscribe that browser.
    const next = await makeUser({ name: "Next On Phone" });
    expect((await subscribe(await signIn(next.email), phoneEndpoint)).status).toBe(200);
  });

  it("never posts to a stored endpoint that is not a known push service", async () => {
    const user = await makeUser({ name: "Old Row" });
    await db()
      .insert(pushSubscriptions)
      .values({
        endpoint: "https://169.254.169.254/latest/meta-data/",
        userId: user.id,
        ...(await browserKeys()),
        createdAt: new Date(),
      });
    const pushEnv = await vapidEnv("mailto:ops@tribe.test");
    const calls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL) => {
      calls.push(input instanceof Request ? input.url : String(input));
      return new Response(null, { status: 201 });
    });
    const result = await notify(pushEnv, user.id, "sale", {
      key: `new-order:${crypto.randomUUID()}`,
      subject: "New order",
      text: "You sold 1 x Basket.",
    });
    expect(result.pushed).toBe(0);
    expect(calls.filter((url) => url.includes("169.254"))).toEqual([]);
  });
});
