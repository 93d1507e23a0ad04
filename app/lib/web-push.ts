// The Web Push protocol with WebCrypto only (no Node library): VAPID (RFC 8292) signs a short JWT with ES256, and
// the payload is encrypted for the browser's subscription keys with "aes128gcm" (RFC 8291 over RFC 8188).
// Pure apart from WebCrypto, so the Worker and the tests (which decrypt what was sent) share it.

import { concatBytes } from "~/lib/bytes";

export type PushSubscriptionKeys = { endpoint: string; p256dh: string; auth: string };
export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** The record size announced in the header: one record holds a whole payload (RFC 8291 caps pushes at 4096 bytes). */
const RECORD_SIZE = 4096;
/** Payload bytes that fit one record with its delimiter, the GCM tag and the header. */
export const MAX_PUSH_PAYLOAD_BYTES = 3993;
/** How long the push service keeps an undelivered message. */
const TTL_SECONDS = 24 * 60 * 60;
/** VAPID tokens are valid for at most 24 h; ours for 12 h. */
const VAPID_TOKEN_SECONDS = 12 * 60 * 60;

const encoder = new TextEncoder();

export function base64UrlEncode(bytes: Uint8Array | ArrayBuffer): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = "";
  for (const b of view) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> {
  const normal = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(normal + "=".repeat((4 - (normal.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The VAPID key pair as a signing key: the private scalar `d` (32 bytes) with its public point (65 bytes). */
async function vapidSigningKey(keys: VapidKeys): Promise<CryptoKey> {
  const point = base64UrlDecode(keys.publicKey);
  if (point.length !== 65 || point[0] !== 0x04) throw new Error("VAPID_PUBLIC_KEY is not an uncompressed P-256 key");
  const d = base64UrlDecode(keys.privateKey);
  if (d.length !== 32) throw new Error("VAPID_PRIVATE_KEY is not a 32-byte P-256 private key");
  return crypto.subtle.importKey(
    "jwk",
    {
      kty: "EC",
      crv: "P-256",
      x: base64UrlEncode(point.slice(1, 33)),
      y: base64UrlEncode(point.slice(33, 65)),
      d: base64UrlEncode(d),
      ext: true,
    },
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign"],
  );
}

/**
 * The `Authorization` header for a push service (RFC 8292): `vapid t=<JWT>, k=<public key>`, the JWT signed with
 * ES256 (WebCrypto's ECDSA signature is already the JWS r||s form) for the endpoint's origin.
 */
export async function vapidAuthorization(endpoint: string, keys: VapidKeys, now = Date.now()): Promise<string> {
  const header = base64UrlEncode(encoder.encode(JSON.stringify({ typ: "JWT", alg: "ES256" })));
  const claims = base64UrlEncode(
    encoder.encode(
      JSON.stringify({
        aud: new URL(endpoint).origin,
        exp: Math.floor(now / 1000) + VAPID_TOKEN_SECONDS,
        sub: keys.subject,
      }),
    ),
  );
  const signingInput = `${header}.${claims}`;
  const signature = await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    await vapidSigningKey(keys),
    encoder.encode(signingInput),
  );
  return `vapid t=${signingInput}.${base64UrlEncode(signature)}, k=${keys.publicKey}`;
}

async function hkdf(
  salt: Uint8Array<ArrayBuffer>,
  ikm: Uint8Array<ArrayBuffer>,
  info: Uint8Array<ArrayBuffer>,
  bytes: number,
) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8));
}

/**
 * The content encryption key and nonce of one message (RFC 8291 section 3.4): the ECDH secret is mixed with the
 * subscription's auth secret, then with the message's salt.
 */
export async function webPushKeys(input: {
  ecdhSecret: Uint8Array<ArrayBuffer>;
  authSecret: Uint8Array<ArrayBuffer>;
  receiverPublic: Uint8Array<ArrayBuffer>;
  senderPublic: Uint8Array<ArrayBuffer>;
  salt: Uint8Array<ArrayBuffer>;
}) {
  const keyInfo = concatBytes([encoder.encode("WebPush: info\0"), input.receiverPublic, input.senderPublic]);
  const ikm = await hkdf(input.authSecret, input.ecdhSecret, keyInfo, 32);
  const cek = await hkdf(input.salt, ikm, encoder.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(input.salt, ikm, encoder.encode("Content-Encoding: nonce\0"), 12);
  return { cek, nonce };
}

/**
 * Encrypts a payload for one subscription as a single aes128gcm record: header (salt, record size, the sender's
 * one-time public key) then the ciphertext of payload || 0x02. `salt` and `senderKeys` are for tests only.
 */
export async function encryptPushPayload(
  payload: Uint8Array,
  subscription: Pick<PushSubscriptionKeys, "p256dh" | "auth">,
  options: { salt?: Uint8Array<ArrayBuffer>; senderKeys?: CryptoKeyPair } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  if (payload.length > MAX_PUSH_PAYLOAD_BYTES) throw new RangeError("push payload too large");
  const receiverPublic = base64UrlDecode(subscription.p256dh);
  const authSecret = base64UrlDecode(subscription.auth);
  const receiverKey = await crypto.subtle.importKey(
    "raw",
    receiverPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const sender =
    options.senderKeys ??
    ((await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair);
  const senderPublic = new Uint8Array((await crypto.subtle.exportKey("raw", sender.publicKey)) as ArrayBuffer);
  const ecdhSecret = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: receiverKey }, sender.privateKey, 256),
  );
  const salt = options.salt ?? crypto.getRandomValues(new Uint8Array(16));
  const { cek, nonce } = await webPushKeys({ ecdhSecret, authSecret, receiverPublic, senderPublic, salt });
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, key, concatBytes([payload, new Uint8Array([2])])),
  );
  const header = new Uint8Array(16 + 4 + 1 + senderPublic.length);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = senderPublic.length;
  header.set(senderPublic, 21);
  return concatBytes([header, ciphertext]);
}

export type PushResult = { ok: true } | { ok: false; gone: boolean; status: number };

/**
 * Sends one push message. 201 (or any 2xx) is delivered; 404 and 410 mean the subscription is gone for good and
 * should be forgotten; anything else is a failure to log.
 */
export async function sendWebPush(
  subscription: PushSubscriptionKeys,
  message: unknown,
  keys: VapidKeys,
  fetcher: typeof fetch = fetch,
): Promise<PushResult> {
  const body = await encryptPushPayload(encoder.encode(JSON.stringify(message)), subscription);
  const response = await fetcher(subscription.endpoint, {
    method: "POST",
    headers: {
      Authorization: await vapidAuthorization(subscription.endpoint, keys),
      "Content-Encoding": "aes128gcm",
      "Content-Type": "application/octet-stream",
      TTL: String(TTL_SECONDS),
      Urgency: "normal",
    },
    body,
  });
  await response.body?.cancel();
  if (response.ok) return { ok: true };
  return { ok: false, gone: response.status === 404 || response.status === 410, status: response.status };
}
