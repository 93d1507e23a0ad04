import { SELF, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { createAccount } from "~/db/queries/accounts.server";
import { platformSettings } from "~/db/schema";
import { REVENUE_RULES_SETTING_KEY } from "~/domain/revenue";
import { hashPassword } from "~/lib/password.server";
import type { SessionUser } from "~/lib/session.server";

export const ORIGIN = "https://tribe.test";
export const db = () => getDb(env);

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;
}

/** A random client address, so one test's failed sign-ins never lock another test out. */
export function randomIp(): string {
  const b = crypto.getRandomValues(new Uint8Array(3));
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

type Opts = { cookie?: string | null; ip?: string; origin?: string | null; headers?: Record<string, string> };

function baseHeaders(opts: Opts): Headers {
  const headers = new Headers(opts.headers);
  if (opts.cookie) headers.set("Cookie", opts.cookie);
  headers.set("CF-Connecting-IP", opts.ip ?? randomIp());
  return headers;
}

export function get(path: string, opts: Opts = {}): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, { headers: baseHeaders(opts), redirect: "manual" });
}

/** A form post as a browser sends it (same-site Origin unless told otherwise). */
export function postForm(path: string, fields: Record<string, string>, opts: Opts = {}): Promise<Response> {
  const headers = baseHeaders(opts);
  if (opts.origin !== null) headers.set("Origin", opts.origin ?? ORIGIN);
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

/** "name=value" of a Set-Cookie header on the response, for sending back. */
export function cookieFrom(res: Response, name: string): string | null {
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    if (pair.startsWith(`${name}=`)) return pair;
  }
  return null;
}

export const SESSION = "__Host-session";
export const PASSWORD = "correct-horse-battery";

/** An adult's date of birth: test accounts have it unless a test says otherwise, so they may enter prize draws. */
export const ADULT_DATE_OF_BIRTH = "1990-01-15";

/**
 * Creates an account directly (role optional; e-mail confirmed and an adult's date of birth unless told otherwise)
 * and returns its id and e-mail.
 */
export async function makeUser(
  opts: {
    role?: "user" | "admin";
    name?: string;
    email?: string;
    emailConfirmed?: boolean;
    dateOfBirth?: string | null;
  } = {},
) {
  const email = opts.email ?? uniqueEmail(opts.name?.toLowerCase().replace(/\W+/g, "-") ?? "user");
  const created = await createAccount(db(), {
    email,
    passwordHash: await hashPassword(PASSWORD),
    role: opts.role,
    name: opts.name,
    emailConfirmed: opts.emailConfirmed ?? true,
    dateOfBirth: opts.dateOfBirth === undefined ? ADULT_DATE_OF_BIRTH : opts.dateOfBirth,
  });
  if (!created) throw new Error(`could not create ${email}`);
  return { id: created.userId, email };
}

/** Signs in through the real form and returns the session cookie. */
export async function signIn(email: string, password = PASSWORD): Promise<string> {
  const res = await postForm("/signin", { email, password });
  const cookie = cookieFrom(res, SESSION);
  if (res.status !== 302 || !cookie) throw new Error(`sign-in failed for ${email}: ${res.status}`);
  return cookie;
}

/** Creates an account (as makeUser does) and signs it in: its id, e-mail and session cookie. */
export async function makeSignedInUser(opts: Parameters<typeof makeUser>[0] = {}) {
  const user = await makeUser(opts);
  return { ...user, cookie: await signIn(user.email) };
}

/** A plain user as the session hands it to server code, for calling that code directly. */
export function sessionUserOf(user: { id: string; email: string }, creatorName = "Buyer"): SessionUser {
  return { id: user.id, email: user.email, role: "user", creatorName, avatarUrl: null, emailConfirmed: true };
}

/** Creates an account named `name` and returns it as its session user. */
export async function makeSessionUser(name = "Buyer"): Promise<SessionUser> {
  return sessionUserOf(await makeUser({ name }), name);
}

/** A page's visible text: scripts, React's <!-- --> separators and tags removed, common entities decoded, whitespace collapsed. */
export async function pageText(res: Response): Promise<string> {
  const html = await res.text();
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** A page's HTML with the entities React escapes decoded (markup kept). */
export async function decodedHtml(res: Response): Promise<string> {
  return (await res.text())
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/**
 * Makes every outside fetch of the tests in this file (or describe block) fail as with no network, e.g. the block
 * explorers a closing pool asks; restores all mocks after each test.
 */
export function withoutNetwork(): void {
  beforeEach(() => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
      throw new TypeError("network disabled in tests");
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
}

/** The worker's bindings with every prize pool object unreachable (its calls throw "pool object unavailable"). */
export function envWithPoolsDown(): Env {
  return {
    ...env,
    PRIZE_POOL: {
      idFromName: env.PRIZE_POOL.idFromName.bind(env.PRIZE_POOL),
      get: () => {
        throw new Error("pool object unavailable");
      },
    },
  } as unknown as Env;
}

/** Runs `check` while the platform's revenue rules are `rules`, then puts the defaults back. */
export async function withRevenueRules(
  rules: Record<string, { prize_pool_contribution: number; host_share: number; platform_fee?: number }>,
  check: () => Promise<void>,
): Promise<void> {
  await db()
    .insert(platformSettings)
    .values({ settingKey: REVENUE_RULES_SETTING_KEY, settingValue: rules })
    .onConflictDoUpdate({ target: platformSettings.settingKey, set: { settingValue: rules } });
  try {
    await check();
  } finally {
    await db().delete(platformSettings).where(eq(platformSettings.settingKey, REVENUE_RULES_SETTING_KEY));
  }
}

/** A D1 session that counts the calls made to D1 through it (each statement call and each batch is one). */
export function countingSession(
  session: D1DatabaseSession = env.DB.withSession("first-primary"),
  counter = { calls: 0 },
) {
  const counted = <T extends object>(statement: T): T =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== "function") return value;
        if (property === "bind")
          return (...args: unknown[]) => counted((value as (...a: unknown[]) => T).apply(target, args));
        return (...args: unknown[]) => {
          counter.calls += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const wrapped = {
    prepare: (query: string) => counted(session.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => {
      counter.calls += 1;
      return session.batch(statements);
    },
    getBookmark: () => session.getBookmark(),
  } as unknown as D1DatabaseSession;
  return { session: wrapped, counter };
}

/** The test Env with a DB whose every request session counts its D1 calls (all sessions share one counter). */
export function countingEnv() {
  const counter = { calls: 0 };
  const DB = { withSession: (constraint: string) => countingSession(env.DB.withSession(constraint), counter).session };
  return { env: { ...env, DB } as unknown as Env, counter };
}
