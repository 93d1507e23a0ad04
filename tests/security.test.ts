import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  emailConfirmationTokens,
  freeGuessUsage,
  guessWinGames,
  passwordResetTokens,
  paymentEvents,
  sessions,
  users,
} from "~/db/schema";
import { markEmailConfirmed } from "~/db/queries/accounts.server";
import { runScheduled } from "../workers/scheduled";
import { BODY_TOO_LARGE_MESSAGE, FORM_MAX_BYTES, FORM_UNREADABLE_MESSAGE } from "~/lib/body-limit";
import { isCountedMutation, RATE_LIMITED_MESSAGE } from "~/lib/rate-limit.server";
import { STATIC_ASSET_POLICY, staticHeadersFile } from "~/lib/security-headers";
import { IMAGE_MAX_BYTES, IMAGE_SIZE_MESSAGE } from "~/lib/uploads.server";
import { db, get, makeUser, ORIGIN, PASSWORD, postForm, randomIp, signIn, uniqueEmail } from "./helpers";

const HOUR = 60 * 60 * 1000;
const publicFiles = import.meta.glob<string>("/public/{_headers,offline.html}", {
  query: "?raw",
  import: "default",
  eager: true,
});
const STATIC_HEADERS_FILE = publicFiles["/public/_headers"]!;
const OFFLINE_PAGE = publicFiles["/public/offline.html"]!;

describe("accounts that have not confirmed their e-mail", () => {
  it("cannot spend a free guess; the same fan can once confirmed", async () => {
    const host = await makeUser({ name: "Riddle Host" });
    const [game] = await db()
      .insert(guessWinGames)
      .values({
        hostId: host.id,
        question: "Which colour is the sky?",
        options: ["Blue", "Green"],
        correctAnswer: "Blue",
        entryFeeCents: 300,
      })
      .returning();
    const fan = await makeUser({ name: "New Fan", emailConfirmed: false });
    const cookie = await signIn(fan.email);
    expect((await postForm("/tribe/join", { hostId: host.id }, { cookie })).status).toBe(200);
    expect((await postForm("/guess-win", { intent: "share", gameId: game!.id }, { cookie })).status).toBe(200);

    const refused = await postForm(
      "/guess-win",
      { intent: "free-guess", gameId: game!.id, answer: "Blue" },
      { cookie },
    );
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Please confirm your email to play a free guess");
    expect(await db().select().from(freeGuessUsage).where(eq(freeGuessUsage.gameId, game!.id))).toHaveLength(0);

    await markEmailConfirmed(db(), fan.id, new Date());
    const played = await postForm("/guess-win", { intent: "free-guess", gameId: game!.id, answer: "Blue" }, { cookie });
    expect(played.status).toBe(200);
    expect(await db().select().from(freeGuessUsage).where(eq(freeGuessUsage.gameId, game!.id))).toHaveLength(1);
  });
});

describe("the cron's clean-up", () => {
  it("purges expired sessions, reset links and confirmation links and keeps live ones", async () => {
    const { id: userId } = await makeUser();
    const now = new Date();
    const past = new Date(now.getTime() - HOUR);
    const future = new Date(now.getTime() + HOUR);
    const key = () => crypto.randomUUID();
    const [oldSession, liveSession, oldReset, liveReset, oldConfirm, liveConfirm] = [
      key(),
      key(),
      key(),
      key(),
      key(),
      key(),
    ];
    await db()
      .insert(sessions)
      .values([
        { id: oldSession, userId, expiresAt: past },
        { id: liveSession, userId, expiresAt: future },
      ]);
    await db()
      .insert(passwordResetTokens)
      .values([
        { tokenHash: oldReset, userId, expiresAt: past },
        { tokenHash: liveReset, userId, expiresAt: future },
      ]);
    await db()
      .insert(emailConfirmationTokens)
      .values([
        { tokenHash: oldConfirm, userId, expiresAt: past },
        { tokenHash: liveConfirm, userId, expiresAt: future },
      ]);

    await runScheduled(env, now);

    const sessionsLeft = await db().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
    expect(sessionsLeft.map((r) => r.id)).toEqual([liveSession]);
    const resetsLeft = await db()
      .select({ id: passwordResetTokens.tokenHash })
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, userId));
    expect(resetsLeft.map((r) => r.id)).toEqual([liveReset]);
    const confirmationsLeft = await db()
      .select({ id: emailConfirmationTokens.tokenHash })
      .from(emailConfirmationTokens)
      .where(eq(emailConfirmationTokens.userId, userId));
    expect(confirmationsLeft.map((r) => r.id)).toEqual([liveConfirm]);
  });
});

describe("the security headers", () => {
  const expectBaseline = (res: Response) => {
    expect(res.headers.get("Strict-Transport-Security")).toBe("max-age=63072000; includeSubDomains");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
  };

  it("gives every page a nonce policy that its inline scripts, and only they, carry", async () => {
    const host = await makeUser({ name: "Header Host" });
    const cookie = await signIn(host.email);
    const pages: [string, string | undefined][] = [
      ["/", undefined],
      ["/shop", undefined],
      ["/signin", undefined],
      ["/signup", undefined],
      ["/no-such-page", undefined],
      ["/dashboard", cookie],
      ["/shop", cookie],
    ];
    const nonces = new Set<string>();
    for (const [path, session] of pages) {
      const res = await get(path, { cookie: session });
      expect(res.headers.get("Content-Type"), path).toContain("text/html");
      expectBaseline(res);
      const policy = res.headers.get("Content-Security-Policy")!;
      const nonce = policy.match(/script-src 'self' 'nonce-([A-Za-z0-9_-]{22})'(?:;|$)/)?.[1];
      expect(nonce, `${path}: ${policy}`).toBeDefined();
      nonces.add(nonce!);
      expect(policy).toContain("form-action 'self' https://checkout.stripe.com");
      expect(policy).toContain("object-src 'none'");
      expect(policy).toContain("base-uri 'none'");
      expect(res.headers.get("Permissions-Policy")).toContain("camera=()");
      const html = await res.text();
      // Every inline script carries this response's nonce; other scripts are files from this site.
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
        if (/\ssrc="\//.test(tag)) continue;
        expect(tag, `${path}: ${tag}`).toContain(`nonce="${nonce}"`);
      }
      for (const attribute of html.match(/nonce="[^"]*"/g) ?? []) expect(attribute).toBe(`nonce="${nonce}"`);
    }
    expect(nonces.size).toBe(pages.length);
  });

  it("puts the baseline on API answers, redirects and files, with a policy that runs nothing", async () => {
    for (const res of [await get("/api/health"), await get("/dashboard"), await postForm("/signin", {})]) {
      expectBaseline(res);
    }
    const api = await get("/api/health");
    expect(api.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
  });

  it("gives every static file the same baseline through public/_headers (asset routing answers before the Worker)", async () => {
    expect(STATIC_HEADERS_FILE).toBe(staticHeadersFile());
    for (const line of [
      "Strict-Transport-Security: max-age=63072000; includeSubDomains",
      "X-Frame-Options: DENY",
      "frame-ancestors 'none'",
    ]) {
      expect(STATIC_HEADERS_FILE).toContain(line);
    }
    // The offline page's one inline handler is the only inline script the static policy allows.
    const handler = /onclick="([^"]*)"/.exec(OFFLINE_PAGE)?.[1];
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(handler!)));
    expect(STATIC_ASSET_POLICY).toContain(`'sha256-${btoa(String.fromCharCode(...digest))}'`);
    expect(STATIC_ASSET_POLICY.split("; ").find((d) => d.startsWith("script-src"))).not.toContain("'unsafe-inline'");
  });

  it("grants the camera to the voucher scanner only", async () => {
    const host = await makeUser({ name: "Scanner Host" });
    const cookie = await signIn(host.email);
    const scanner = await get("/voucher-scanner", { cookie });
    expect(scanner.status).toBe(200);
    expect(scanner.headers.get("Permissions-Policy")).toContain("camera=(self)");
    for (const path of ["/orders", "/", "/voucher-scanner/../shop"]) {
      expect((await get(path, { cookie })).headers.get("Permissions-Policy")).toContain("camera=()");
    }
  });
});

describe("redirects after sign-in", () => {
  const payloads = [
    "//evil.example/x",
    "/\\evil.example",
    "/\t/evil.example",
    "/%09/evil.example",
    "/\n/evil.example",
    "\t//evil.example",
    "/./\\evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    "evil.example",
    "",
  ];

  it.each(payloads)("stays on the site for redirectTo=%j", async (payload) => {
    const { email } = await makeUser();
    const res = await postForm("/signin", { email, password: PASSWORD, redirectTo: payload });
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location.startsWith("/") && !location.startsWith("//") && !location.startsWith("/\\")).toBe(true);
    expect(new URL(location, ORIGIN).origin).toBe(ORIGIN);
    // A signed-in visit to /signin?redirectTo=… (the query string decodes %09 to a tab) stays on the site too.
    const cookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith("__Host-session="))!
      .split(";")[0]!;
    const again = await get(`/signin?redirectTo=${encodeURIComponent(payload)}`, { cookie });
    expect(new URL(again.headers.get("Location")!, ORIGIN).origin).toBe(ORIGIN);
  });

  it("keeps a path on the site, with its query, as the place to go back to", async () => {
    const { email } = await makeUser();
    const res = await postForm("/signin", { email, password: PASSWORD, redirectTo: "/orders?tab=orders&q=a%20b#list" });
    expect(res.headers.get("Location")).toBe("/orders?tab=orders&q=a%20b#list");
  });
});

/** A body streamed in chunks of `chunk` bytes with no Content-Length; `pulled()` says how many bytes were asked for. */
function chunkedBody(head: string, totalBytes: number, chunk = 64 * 1024) {
  const encoder = new TextEncoder();
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const bytes = sent === 0 ? encoder.encode(head.padEnd(chunk, "x")) : new Uint8Array(chunk).fill(0x78);
      sent += bytes.byteLength;
      controller.enqueue(bytes);
    },
  });
  return { stream, pulled: () => sent };
}

describe("bodies that are not forms", () => {
  const send = (path: string, contentType: string | null, body: string | null, cookie?: string) => {
    const headers = new Headers({ Origin: ORIGIN, "CF-Connecting-IP": randomIp() });
    if (contentType) headers.set("Content-Type", contentType);
    if (cookie) headers.set("Cookie", cookie);
    return SELF.fetch(`${ORIGIN}${path}`, { method: "POST", headers, body, redirect: "manual" });
  };

  it("answers a page's action sent JSON, text or a broken multipart form with a 4xx and a message, creating nothing", async () => {
    const email = uniqueEmail("json-signup");
    const json = JSON.stringify({
      name: "Json Fan",
      email,
      password: "a-long-password",
      confirmPassword: "a-long-password",
    });
    const { email: fan } = await makeUser();
    const cookie = await signIn(fan);
    const cases: [string, string, string, number][] = [
      ["/signup", "application/json", json, 415],
      ["/signin", "text/plain", "email=a@b.example", 415],
      ["/forgot-password", "multipart/form-data", "--x\r\n", 400],
      ["/cart", "multipart/form-data; boundary=zz", "not a multipart body", 400],
    ];
    for (const [path, type, body, status] of cases) {
      for (const c of [undefined, cookie]) {
        const res = await send(path, type, body, c);
        expect(res.status, `${path} ${type}`).toBe(status);
        expect(await res.text()).toBe(FORM_UNREADABLE_MESSAGE);
      }
    }
    expect(await db().select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it("treats a POST without a body or type as an empty form, so the action answers with its own message", async () => {
    const res = await send("/signin", null, null);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const { email } = await makeUser();
    const cookie = await signIn(email);
    for (const path of ["/cart", "/tribe/join", "/guess-win"]) {
      const answer = await send(path, null, null, cookie);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
  });
});

describe("body size caps", () => {
  it("refuses a chunked form over the cap with 413 before reading it all, and creates nothing", async () => {
    const email = uniqueEmail("big-form");
    const fields = new URLSearchParams({
      name: "Big Form",
      email,
      password: "a-long-password",
      confirmPassword: "a-long-password",
      category: "Food & Cooking",
      country: "SG",
      terms: "on",
    });
    const total = 8 * 1024 * 1024;
    const body = chunkedBody(`${fields}&pad=`, total);
    const res = await SELF.fetch(`${ORIGIN}/signup`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": randomIp() },
      body: body.stream,
      redirect: "manual",
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toBe(BODY_TOO_LARGE_MESSAGE);
    expect(await db().select().from(users).where(eq(users.email, email))).toHaveLength(0);
    // The Worker stopped at the cap: most of the 8 MB were never asked for.
    expect(body.pulled()).toBeLessThan(total / 2);
  });

  it("refuses a declared Content-Length over the cap at once", async () => {
    const res = await SELF.fetch(`${ORIGIN}/signin`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": randomIp() },
      body: `email=a%40b.example&password=${"x".repeat(FORM_MAX_BYTES)}`,
      redirect: "manual",
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toBe(BODY_TOO_LARGE_MESSAGE);
  });

  it("refuses a chunked webhook over its cap with a JSON 413 and records no event", async () => {
    const before = (await db().select({ id: paymentEvents.id }).from(paymentEvents)).length;
    const body = chunkedBody('{"id":"evt_big","type":"checkout.session.completed","pad":"', 2 * 1024 * 1024);
    const res = await SELF.fetch(`${ORIGIN}/api/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=00" },
      body: body.stream,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: BODY_TOO_LARGE_MESSAGE });
    expect((await db().select({ id: paymentEvents.id }).from(paymentEvents)).length).toBe(before);
  });

  it("refuses a chunked image upload over 5 MB with the size message and stores nothing", async () => {
    const host = await makeUser({ name: "Chunky Uploader" });
    const cookie = await signIn(host.email);
    const png = "\x89PNG\r\n\x1a\n";
    const body = chunkedBody(png, IMAGE_MAX_BYTES + 512 * 1024);
    const res = await SELF.fetch(`${ORIGIN}/api/uploads/image`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "image/png", Cookie: cookie, "CF-Connecting-IP": randomIp() },
      body: body.stream,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: IMAGE_SIZE_MESSAGE });
    expect((await env.MEDIA.list({ prefix: `products/${host.id}/` })).objects).toHaveLength(0);
  });
});

describe("rate limits on mutations", () => {
  // The test limits (vitest.config.ts): 40 mutations a minute per address, 400 per account (the fuzz run posts more
  // than 200 as one account). The limiter's windows are whole minutes, so a burst that spans a minute's end needs
  // more requests: send until the first 429.
  const exhaust = async (limit: number, send: () => Promise<Response>) => {
    let accepted = 0;
    while (accepted < 3 * limit) {
      const batch = await Promise.all(Array.from({ length: 25 }, send));
      for (const res of batch) await res.body?.cancel();
      const statuses = batch.map((res) => res.status);
      accepted += statuses.filter((s) => s !== 429).length;
      if (statuses.includes(429)) break;
    }
    return accepted;
  };

  it("answers 429 with a message once one address sends too many, and the refused sign-up creates nothing", async () => {
    const ip = randomIp();
    expect(await exhaust(40, () => postForm("/api/uploads/video/none/complete", {}, { ip }))).toBeGreaterThanOrEqual(
      40,
    );
    const email = uniqueEmail("limited");
    const refused = await postForm(
      "/signup",
      {
        name: "Too Many",
        email,
        password: "a-long-password",
        confirmPassword: "a-long-password",
        category: "Food & Cooking",
        country: "SG",
        terms: "on",
      },
      { ip },
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("60");
    expect(await refused.text()).toBe(RATE_LIMITED_MESSAGE);
    expect(await db().select().from(users).where(eq(users.email, email))).toHaveLength(0);
    // Reading is never limited, and another address is counted on its own.
    expect((await get("/signup", { ip })).status).toBe(200);
    expect((await postForm("/signin", { email: "nobody@example.com", password: "whatever-1" })).status).toBe(401);
  });

  it("answers 429 once one account sends too many from any addresses, and the refused sign-out changes nothing", async () => {
    const fan = await makeUser({ name: "Busy Fan" });
    const cookie = await signIn(fan.email);
    expect(
      await exhaust(400, () => postForm("/api/uploads/video/none/complete", {}, { cookie })),
    ).toBeGreaterThanOrEqual(400);
    const refused = await postForm("/signout", {}, { cookie });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toBe(RATE_LIMITED_MESSAGE);
    const api = await postForm("/api/uploads/video", {}, { cookie });
    expect(api.status).toBe(429);
    expect(await api.json()).toEqual({ error: RATE_LIMITED_MESSAGE });
    // Still signed in: the session the refused sign-out would have ended is there.
    expect((await get("/my-orders", { cookie })).status).toBe(200);
    // The payment provider's webhooks are never counted.
    expect(isCountedMutation("POST", "/api/webhooks/stripe")).toBe(false);
  }, 120_000);
});
