import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { pushSubscriptions, userProfiles } from "~/db/schema";
import { savePushSubscription } from "~/db/queries/settings.server";
import { notify } from "~/lib/notify.server";
import { base64UrlDecode, base64UrlEncode, encryptPushPayload, sendWebPush } from "~/lib/web-push";
import { concatBytes } from "~/lib/bytes";
import { db, makeUser, postForm, signIn } from "./helpers";
import { vapidKeys } from "./support/push";

// Web Push: the payload encryption (RFC 8291, aes128gcm) against the RFC's own example, and delivery to a local
// push service that checks the VAPID token (RFC 8292) and decrypts the message as a browser would.

afterEach(() => {
  vi.restoreAllMocks();
});

const encoder = new TextEncoder();

/** RFC 8291 Appendix A. */
const RFC = {
  plaintext: "When I grow up, I want to be a watermelon",
  senderPrivate: "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
  senderPublic: "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
  receiverPublic: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  receiverPrivate: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
  auth: "BTBZMqHH6r4Tts7J_aSIgg",
  salt: "DGv6ra1nlYgDCS1FRnbzlw",
  body: "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
};

function jwk(publicKey: string, privateKey?: string): JsonWebKey {
  const point = base64UrlDecode(publicKey);
  return {
    kty: "EC",
    crv: "P-256",
    x: base64UrlEncode(point.slice(1, 33)),
    y: base64UrlEncode(point.slice(33, 65)),
    ...(privateKey ? { d: privateKey } : {}),
    ext: true,
  };
}

/** A browser's push subscription: an ECDH key pair and a 16-byte auth secret. */
async function browserSubscription(endpoint: string) {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  return {
    privateKey: pair.privateKey,
    subscription: {
      endpoint,
      p256dh: base64UrlEncode(publicRaw),
      auth: base64UrlEncode(crypto.getRandomValues(new Uint8Array(16))),
    },
  };
}

async function hmac(key: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, data));
}

/**
 * The browser's side of RFC 8291, written out with HMAC (HKDF by hand) so it checks the sender independently:
 * reads the header, derives the keys from the receiver's private key, decrypts and removes the delimiter.
 */
async function decrypt(body: Uint8Array, receiverPrivate: CryptoKey, p256dh: string, auth: string): Promise<string> {
  const salt = body.slice(0, 16);
  const recordSize = new DataView(body.buffer, body.byteOffset).getUint32(16);
  const idLength = body[20]!;
  const senderPublic = body.slice(21, 21 + idLength);
  const ciphertext = body.slice(21 + idLength);
  expect(recordSize).toBeGreaterThanOrEqual(ciphertext.length);
  const senderKey = await crypto.subtle.importKey(
    "raw",
    senderPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const ecdh = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: senderKey }, receiverPrivate, 256),
  );
  const receiverPublic = base64UrlDecode(p256dh);
  const prkKey = await hmac(base64UrlDecode(auth), ecdh);
  const ikm = await hmac(
    prkKey,
    concatBytes([encoder.encode("WebPush: info\0"), receiverPublic, senderPublic, new Uint8Array([1])]),
  );
  const prk = await hmac(salt, ikm);
  const cek = (
    await hmac(prk, concatBytes([encoder.encode("Content-Encoding: aes128gcm\0"), new Uint8Array([1])]))
  ).slice(0, 16);
  const nonce = (
    await hmac(prk, concatBytes([encoder.encode("Content-Encoding: nonce\0"), new Uint8Array([1])]))
  ).slice(0, 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const plain = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext));
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  expect(plain[end]).toBe(2); // the last record's delimiter
  return new TextDecoder().decode(plain.slice(0, end));
}

type Received = { endpoint: string; message: unknown; headers: Headers };

/**
 * A local push service: accepts POSTs to https://push.test/<id> for the subscriptions it knows, checks the VAPID
 * Authorization header (ES256 JWT for its origin, signed by the key in k=) and decrypts the body.
 */
function localPushService(
  subscribers: Map<string, { privateKey: CryptoKey; p256dh: string; auth: string }>,
  expectedVapidKey: string,
  options: { gone?: Set<string> } = {},
) {
  const received: Received[] = [];
  const fetcher = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (!request.url.startsWith("https://push.test/")) throw new TypeError("network disabled in tests");
    if (options.gone?.has(request.url)) return new Response("Gone", { status: 410 });
    const subscriber = subscribers.get(request.url);
    if (!subscriber) return new Response("Not found", { status: 404 });
    expect(request.method).toBe("POST");
    expect(request.headers.get("Content-Encoding")).toBe("aes128gcm");
    expect(Number(request.headers.get("TTL"))).toBeGreaterThan(0);

    const auth = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(request.headers.get("Authorization") ?? "");
    if (!auth) return new Response("Unauthorized", { status: 401 });
    const [, header, claims, signature, k] = auth as unknown as [string, string, string, string, string];
    // The service only takes messages for subscriptions made with this application server key.
    if (k !== expectedVapidKey) return new Response("Wrong application server key", { status: 403 });
    const verifyKey = await crypto.subtle.importKey("jwk", jwk(k), { name: "ECDSA", namedCurve: "P-256" }, false, [
      "verify",
    ]);
    const valid = await crypto.subtle.verify(
      { name: "ECDSA", hash: "SHA-256" },
      verifyKey,
      base64UrlDecode(signature),
      encoder.encode(`${header}.${claims}`),
    );
    if (!valid) return new Response("Bad signature", { status: 403 });
    expect(JSON.parse(new TextDecoder().decode(base64UrlDecode(header)))).toEqual({ typ: "JWT", alg: "ES256" });
    const jwt = JSON.parse(new TextDecoder().decode(base64UrlDecode(claims))) as {
      aud: string;
      exp: number;
      sub: string;
    };
    expect(jwt.aud).toBe("https://push.test");
    expect(jwt.exp * 1000).toBeGreaterThan(Date.now());
    expect(jwt.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 60 * 60 * 1000);
    expect(jwt.sub).toMatch(/^mailto:/);

    const body = new Uint8Array(await request.arrayBuffer());
    const text = await decrypt(body, subscriber.privateKey, subscriber.p256dh, subscriber.auth);
    received.push({ endpoint: request.url, message: JSON.parse(text), headers: request.headers });
    return new Response(null, { status: 201 });
  };
  return { received, fetcher };
}

describe("payload encryption (RFC 8291)", () => {
  it("reproduces the RFC's example message byte for byte", async () => {
    const senderKeys = {
      privateKey: await crypto.subtle.importKey(
        "jwk",
        jwk(RFC.senderPublic, RFC.senderPrivate),
        { name: "ECDH", namedCurve: "P-256" },
        true,
        ["deriveBits"],
      ),
      publicKey: await crypto.subtle.importKey(
        "raw",
        base64UrlDecode(RFC.senderPublic),
        { name: "ECDH", namedCurve: "P-256" },
        true,
        [],
      ),
    };
    const body = await encryptPushPayload(
      encoder.encode(RFC.plaintext),
      { p256dh: RFC.receiverPublic, auth: RFC.auth },
      {
        salt: base64UrlDecode(RFC.salt),
        senderKeys,
      },
    );
    expect(base64UrlEncode(body)).toBe(RFC.body);
    const receiverPrivate = await crypto.subtle.importKey(
      "jwk",
      jwk(RFC.receiverPublic, RFC.receiverPrivate),
      { name: "ECDH", namedCurve: "P-256" },
      false,
      ["deriveBits"],
    );
    expect(await decrypt(body, receiverPrivate, RFC.receiverPublic, RFC.auth)).toBe(RFC.plaintext);
  });
});

describe("delivery to a push service", () => {
  it("signs a VAPID token the service verifies and sends a payload only the browser can read", async () => {
    const keys = await vapidKeys("mailto:ops@tribe.test");
    const browser = await browserSubscription("https://push.test/sub-1");
    const service = localPushService(
      new Map([[browser.subscription.endpoint, { privateKey: browser.privateKey, ...browser.subscription }]]),
      keys.publicKey,
    );
    const result = await sendWebPush(
      browser.subscription,
      { title: "New order", body: "Rattan Basket", url: "/orders" },
      keys,
      service.fetcher,
    );
    expect(result).toEqual({ ok: true });
    expect(service.received).toHaveLength(1);
    expect(service.received[0]!.message).toEqual({ title: "New order", body: "Rattan Basket", url: "/orders" });

    const other = await vapidKeys("mailto:ops@tribe.test");
    const forged = localPushService(
      new Map([[browser.subscription.endpoint, { privateKey: browser.privateKey, ...browser.subscription }]]),
      keys.publicKey,
    );
    // A sender with other VAPID keys than the subscription was made with is refused by the service.
    expect(await sendWebPush(browser.subscription, { title: "x" }, other, forged.fetcher)).toEqual({
      ok: false,
      gone: false,
      status: 403,
    });
    expect(forged.received).toHaveLength(0);
  });

  it("notify() pushes to each subscribed browser while the push switch is on, and forgets a gone subscription", async () => {
    const keys = await vapidKeys("mailto:ops@tribe.test");
    const pushEnv = {
      ...env,
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: keys.subject,
    };
    const host = await makeUser({ name: "Push Host" });
    const phone = await browserSubscription(`https://push.test/${crypto.randomUUID()}`);
    const laptop = await browserSubscription(`https://push.test/${crypto.randomUUID()}`);
    const old = await browserSubscription(`https://push.test/${crypto.randomUUID()}`);
    for (const b of [phone, laptop, old]) await savePushSubscription(db(), host.id, b.subscription);
    const subscribers = new Map(
      [phone, laptop].map((b) => [b.subscription.endpoint, { privateKey: b.privateKey, ...b.subscription }]),
    );
    const service = localPushService(subscribers, keys.publicKey, { gone: new Set([old.subscription.endpoint]) });
    vi.spyOn(globalThis, "fetch").mockImplementation(service.fetcher as typeof fetch);

    const sale = {
      subject: "New order ORD-1234ABCD: Rattan Basket",
      text: "You sold 1 x Rattan Basket.",
      url: "/orders",
    };
    const result = await notify(pushEnv, host.id, "sale", { ...sale, key: "new-order:1" });
    expect(result).toEqual({ created: true, emailed: true, pushed: 2 });
    expect(service.received.map((r) => r.endpoint).sort()).toEqual(
      [phone, laptop].map((b) => b.subscription.endpoint).sort(),
    );
    expect(service.received[0]!.message).toMatchObject({
      title: sale.subject,
      body: sale.text,
      url: "/orders",
      kind: "sale",
    });
    const left = await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, host.id));
    expect(left.map((s) => s.endpoint)).not.toContain(old.subscription.endpoint);

    // Push switched off: nothing is pushed (the e-mail still follows its own switches).
    await db().update(userProfiles).set({ pushNotifications: false }).where(eq(userProfiles.userId, host.id));
    expect(await notify(pushEnv, host.id, "sale", { ...sale, key: "new-order:2" })).toEqual({
      created: true,
      emailed: true,
      pushed: 0,
    });
    // Sales switched off: neither.
    await db()
      .update(userProfiles)
      .set({ pushNotifications: true, salesNotifications: false })
      .where(eq(userProfiles.userId, host.id));
    expect(await notify(pushEnv, host.id, "sale", { ...sale, key: "new-order:3" })).toEqual({
      created: true,
      emailed: false,
      pushed: 0,
    });
    expect(service.received).toHaveLength(2);
  });

  it("stores a browser's subscription from Settings and refuses a malformed one", async () => {
    const user = await makeUser({ name: "Subscriber" });
    const cookie = await signIn(user.email);
    const browser = await browserSubscription(`https://push.test/${crypto.randomUUID()}`);
    const ok = await postForm(
      "/settings?tab=notifications",
      { intent: "push-subscribe", ...browser.subscription },
      { cookie },
    );
    expect(ok.status).toBe(200);
    const rows = await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));
    expect(rows).toMatchObject([
      { endpoint: browser.subscription.endpoint, p256dh: browser.subscription.p256dh, auth: browser.subscription.auth },
    ]);

    const bad = await postForm(
      "/settings?tab=notifications",
      { intent: "push-subscribe", endpoint: "http://push.test/x", p256dh: "short", auth: "x" },
      { cookie },
    );
    expect(bad.status).toBe(400);
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toHaveLength(1);

    const off = await postForm(
      "/settings?tab=notifications",
      { intent: "push-unsubscribe", endpoint: browser.subscription.endpoint },
      { cookie },
    );
    expect(off.status).toBe(200);
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toHaveLength(0);
  });
});
