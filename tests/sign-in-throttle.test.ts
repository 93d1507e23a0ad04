import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authThrottle } from "~/db/schema";
import { SIGN_IN_ACCOUNT_CEILING } from "~/domain/accounts";
import { cookieFrom, db, get, makeUser, PASSWORD, postForm, randomIp, SESSION, uniqueEmail } from "./helpers";
import { mailedToken, mailsTo } from "./support/accounts";

// Issue 27 (decision 410): sign-in throttling slows an attacker without locking the owner out. One address trying
// one account waits longer after each failure; the owner elsewhere is never refused; past 100 failures an hour from
// all addresses, a password alone no longer signs in and the owner is mailed a one-time link.

const LINK_SENT = "we have e-mailed its owner a link to sign in";

describe("progressive delay", () => {
  it("lets the owner in from another address at once after six wrong passwords from one address", async () => {
    const { email } = await makeUser();
    const attacker = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await postForm("/signin", { email, password: `guess-${i}` }, { ip: attacker })).status);
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const owner = await postForm("/signin", { email, password: PASSWORD }, { ip: randomIp() });
    expect(owner.status).toBe(302);
    expect(cookieFrom(owner, SESSION)).not.toBeNull();
  });

  it("makes each wait longer than the last for the same address and account", async () => {
    const { email } = await makeUser();
    const ip = randomIp();
    const key = `pair:${email}|${ip}`;
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      // Attempts until refused; then the wait is let pass (as if time went by) and the next failure is counted.
      let res = await postForm("/signin", { email, password: `wrong-${i}-a` }, { ip });
      while (res.status === 401) res = await postForm("/signin", { email, password: `wrong-${i}-b` }, { ip });
      expect(res.status).toBe(429);
      waits.push(Number(res.headers.get("Retry-After")));
      await db()
        .update(authThrottle)
        .set({ lockedUntil: new Date(Date.now() - 1) })
        .where(eq(authThrottle.key, key));
    }
    expect(waits[1]).toBeGreaterThan(waits[0]!);
    expect(waits[2]).toBeGreaterThan(waits[1]!);
  });
});

describe("the per-account ceiling", () => {
  async function atCeiling(email: string) {
    await db()
      .insert(authThrottle)
      .values({ key: `account:${email}`, failures: SIGN_IN_ACCOUNT_CEILING.maxFailures, windowStartedAt: new Date() });
  }

  it("past 100 failures in the hour, a right password does not sign in: the owner is mailed a one-time link", async () => {
    const { email } = await makeUser();
    await atCeiling(email);
    const res = await postForm("/signin", { email, password: PASSWORD }, { ip: randomIp() });
    expect(res.status).toBe(429);
    expect(await res.text()).toContain(LINK_SENT);
    expect(cookieFrom(res, SESSION)).toBeNull();
    // Asked again: the same answer, and still one mail.
    await postForm("/signin", { email, password: PASSWORD }, { ip: randomIp() });
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual(["Your Tribe sign-in link"]);

    const token = await mailedToken(email, "/signin/link");
    // Opening the link signs in nobody (mail scanners open links): it shows a button.
    const page = await get(`/signin/link?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(cookieFrom(page, SESSION)).toBeNull();
    expect(await page.text()).toContain("Sign me in");
    const signedIn = await postForm("/signin/link", { token });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/dashboard");
    const cookie = cookieFrom(signedIn, SESSION)!;
    expect((await get("/settings", { cookie })).status).toBe(200);
    // Once only.
    expect((await postForm("/signin/link", { token })).status).toBe(400);
    expect((await get(`/signin/link?token=${encodeURIComponent(token)}`)).status).toBe(400);
  });

  it("answers an unknown address at the ceiling the same way and mails nobody", async () => {
    const email = uniqueEmail("nobody");
    await atCeiling(email);
    const res = await postForm("/signin", { email, password: PASSWORD }, { ip: randomIp() });
    expect(res.status).toBe(429);
    expect(await res.text()).toContain(LINK_SENT);
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it("refuses a made-up or malformed link without a session", async () => {
    expect((await postForm("/signin/link", { token: "x".repeat(43) })).status).toBe(400);
    expect((await get("/signin/link?token=short")).status).toBe(400);
  });
});
