import { env } from "cloudflare:test";
import { savePushSubscription } from "~/db/queries/settings.server";
import { base64UrlEncode } from "~/lib/web-push";
import { db } from "../helpers";

// Web Push for the notification tests: the Worker's bindings with a fresh VAPID key pair, and browsers subscribed at
// the tests' push service (PUSH_TEST_HOST, vitest.config.ts).

/** A VAPID key pair in the form the secrets hold it (base64url public point and private scalar). */
export async function vapidKeys(subject = "") {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const privateJwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  return { publicKey: base64UrlEncode(publicRaw), privateKey: privateJwk.d!, subject };
}

/** The worker's bindings with Web Push configured (a fresh VAPID key pair). */
export async function vapidEnv(subject = ""): Promise<Env> {
  const keys = await vapidKeys(subject);
  return { ...env, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: subject };
}

/** A browser's subscription at the tests' push service (a real P-256 key, so the payload can be encrypted). */
export async function subscribe(userId: string): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const endpoint = `https://push.test/${crypto.randomUUID()}`;
  await savePushSubscription(db(), userId, {
    endpoint,
    p256dh: base64UrlEncode(raw),
    auth: base64UrlEncode(crypto.getRandomValues(new Uint8Array(16))),
  });
  return endpoint;
}
