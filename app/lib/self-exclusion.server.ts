// Self-exclusion (issue 29, docs/product.md#self-exclusion): the keys a self-exclusion is kept under, as keyed hashes
// (HMAC-SHA-256 with SELF_EXCLUSION_SECRET), whether an account is excluded, and a fan excluding themselves. The
// rows outlive the account (app/db/schema/eligibility.ts); nothing removes or shortens them.

import { getDb } from "~/db/client.server";
import { extendSelfExclusion, selfExcludedKeyHashes, selfExclusionEndOf } from "~/db/queries/eligibility.server";
import {
  nameAndBirthText,
  normaliseEmail,
  normaliseFullName,
  selfExclusionEnd,
  type SelfExclusionKeyKind,
  type SelfExclusionPeriod,
} from "~/domain/self-exclusion";
import { isDemoMode } from "~/lib/config.server";

type SecretEnv = Pick<Env, "SELF_EXCLUSION_SECRET" | "DEMO_MODE">;

/**
 * The key of the local runs' hashes when .dev.vars has none (a .dev.vars made before the secret existed); never used
 * outside demo mode. Production sets SELF_EXCLUSION_SECRET once and keeps it: a new secret would lose every
 * self-exclusion kept under the old one.
 */
const DEMO_SELF_EXCLUSION_SECRET = "local-development-self-exclusion-secret";

const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(env: SecretEnv): Promise<CryptoKey> {
  const secret = env.SELF_EXCLUSION_SECRET || (isDemoMode(env) ? DEMO_SELF_EXCLUSION_SECRET : "");
  // Without the secret nobody's exclusion can be checked: entries fail closed rather than let an excluded fan in.
  if (!secret) throw new Error("SELF_EXCLUSION_SECRET is not set: self-exclusions cannot be checked");
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    keys.set(secret, key);
  }
  return key;
}

async function keyHash(key: CryptoKey, kind: SelfExclusionKeyKind, text: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${kind}:${text}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Who a person is, as far as self-exclusion goes: the account, its e-mail, its names and date of birth. */
export interface ExclusionIdentity {
  userId: string;
  email: string;
  /** The account's name, and the full name the fan typed when excluding themselves (when it differs). */
  names: string[];
  dateOfBirth: string | null;
}

/** The keys an identity is found under, each hashed. */
export async function selfExclusionKeys(
  env: SecretEnv,
  identity: ExclusionIdentity,
): Promise<{ keyHash: string; kind: SelfExclusionKeyKind }[]> {
  const key = await hmacKey(env);
  const texts: [SelfExclusionKeyKind, string][] = [
    ["account", identity.userId],
    ["email", normaliseEmail(identity.email)],
  ];
  const dob = identity.dateOfBirth;
  if (dob) {
    const names = new Set(identity.names.map(normaliseFullName).filter((n) => n !== ""));
    for (const name of names) texts.push(["name_dob", nameAndBirthText(name, dob)]);
  }
  return Promise.all(texts.map(async ([kind, text]) => ({ kind, keyHash: await keyHash(key, kind, text) })));
}

/** When the identity's self-exclusion ends, or null when it is not excluded at `now` (one D1 read). */
export async function selfExcludedUntil(
  env: SecretEnv & Pick<Env, "DB">,
  identity: ExclusionIdentity,
  now: Date,
): Promise<Date | null> {
  const hashes = (await selfExclusionKeys(env, identity)).map((k) => k.keyHash);
  return selfExclusionEndOf(getDb(env), hashes, now);
}

/**
 * Of these accounts, the ones self-excluded at `now`, found by their account and e-mail keys (issue 30: they get no
 * promotional notices). One read per 99 keys.
 */
export async function selfExcludedAccounts(
  env: SecretEnv & Pick<Env, "DB">,
  accounts: readonly { userId: string; email: string }[],
  now: Date,
): Promise<Set<string>> {
  if (accounts.length === 0) return new Set();
  const key = await hmacKey(env);
  const keyed = await Promise.all(
    accounts.map(async (a) => ({
      userId: a.userId,
      hashes: [await keyHash(key, "account", a.userId), await keyHash(key, "email", normaliseEmail(a.email))],
    })),
  );
  const excluded = await selfExcludedKeyHashes(
    getDb(env),
    keyed.flatMap((k) => k.hashes),
    now,
  );
  return new Set(keyed.filter((k) => k.hashes.some((h) => excluded.has(h))).map((k) => k.userId));
}

/**
 * Excludes the person from prize draws for the period from `now`: kept under every key of the identity, each
 * extended to the new end unless it already ends later. Returns the end that applies now (the later of the two).
 */
export async function excludeSelf(
  env: SecretEnv & Pick<Env, "DB">,
  identity: ExclusionIdentity,
  period: SelfExclusionPeriod,
  now: Date,
): Promise<{ endsAt: Date; extended: boolean }> {
  const keysOf = await selfExclusionKeys(env, identity);
  const db = getDb(env);
  const before = await selfExclusionEndOf(
    db,
    keysOf.map((k) => k.keyHash),
    now,
  );
  const wanted = selfExclusionEnd(now, period);
  // Every key gets the latest end the person has, so a key added now (a new name) is not kept for less.
  const endsAt = before && before > wanted ? before : wanted;
  await extendSelfExclusion(db, keysOf, endsAt, now);
  return { endsAt, extended: !before || wanted > before };
}
