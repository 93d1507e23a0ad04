import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, sessions, userProfiles, users } from "~/db/schema";
import { cookieFrom, db, get, makeUser, PASSWORD, postForm, randomIp, SESSION, signIn, uniqueEmail } from "./helpers";

const validSignup = () => ({
  name: "Aisha Rahman",
  email: uniqueEmail("aisha"),
  password: "a-long-password",
  confirmPassword: "a-long-password",
  website: "https://aisha.example",
  category: "Food & Cooking",
  country: "SG",
  terms: "on",
});

async function accountExists(email: string) {
  const rows = await db().select().from(users).where(eq(users.email, email.toLowerCase()));
  return rows.length > 0;
}

describe("sign-up", () => {
  const invalid: [string, Partial<Record<keyof ReturnType<typeof validSignup>, string>>, string][] = [
    ["missing name", { name: "" }, "Please enter your name"],
    ["blank name", { name: "   " }, "Please enter your name"],
    ["missing email", { email: "" }, "Please enter your email address"],
    ["malformed email", { email: "not-an-email" }, "Please enter a valid email address"],
    ["short password", { password: "short", confirmPassword: "short" }, "Password must be at least 12 characters"],
    ["mismatched confirmation", { confirmPassword: "something-else" }, "Passwords do not match!"],
    ["missing confirmation", { confirmPassword: "" }, "Please confirm your password"],
    ["website not a URL", { website: "my site" }, "Please enter a valid website URL (including https://)"],
    ["missing category", { category: "" }, "Please choose a category"],
    ["unknown category", { category: "Gambling" }, "Please choose a category"],
    ["missing country", { country: "" }, "Please choose your country"],
    ["unknown country", { country: "XX" }, "Please choose your country"],
    ["terms not accepted", { terms: "" }, "Please accept the Terms of Service and Privacy Policy"],
  ];

  it("says which field is missing when a field is left out of the form altogether (not only left empty)", async () => {
    for (const [field, message] of [
      ["name", "Please enter your name"],
      ["confirmPassword", "Please confirm your password"],
      ["country", "Please choose your country"],
    ] as const) {
      const { [field]: _left, ...fields } = validSignup();
      const res = await postForm("/signup", fields);
      expect(res.status, field).toBe(400);
      const html = (await res.text()).replace(/&#x27;/g, "'");
      expect(html, field).toContain(message);
      expect(html, field).not.toContain("Invalid input");
    }
  });

  for (const [label, change, message] of invalid) {
    it(`refuses ${label} with its message, creates nothing and keeps what was typed`, async () => {
      const fields = { ...validSignup(), ...change };
      const res = await postForm("/signup", fields);
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain(message);
      if (fields.email) expect(await accountExists(fields.email)).toBe(false);
      if (fields.name.trim()) expect(html).toContain(`value="${fields.name}"`);
      if (fields.email) expect(html).toContain(`value="${fields.email}"`);
      expect(html).not.toContain(fields.password);
    });
  }

  it("reports every invalid field at once", async () => {
    const res = await postForm("/signup", {
      name: "",
      email: "nope",
      password: "x",
      confirmPassword: "y",
      website: "bad",
      category: "",
      country: "",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    for (const message of [
      "Please enter your name",
      "Please enter a valid email address",
      "Password must be at least 12 characters",
      "Please enter a valid website URL (including https://)",
      "Please choose a category",
      "Please choose your country",
      "Please accept the Terms of Service and Privacy Policy",
    ]) {
      expect(html).toContain(message);
    }
  });

  it("creates the account and its profile, then lands on /congratulations", async () => {
    const fields = validSignup();
    const res = await postForm("/signup", fields);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/congratulations");
    const [user] = await db().select().from(users).where(eq(users.email, fields.email));
    expect(user.role).toBe("user");
    expect(user.passwordHash).toMatch(/^scrypt\$16384\$8\$5\$/);
    const [profile] = await db().select().from(userProfiles).where(eq(userProfiles.userId, user.id));
    expect(profile).toMatchObject({
      creatorName: "Aisha Rahman",
      category: "Food & Cooking",
      website: "https://aisha.example",
      country: "SG",
      currency: "SGD",
      prizePoolTargetCents: 1_000_000,
      prizePoolAutoRenew: true,
      followersCount: 0,
      showRevenue: false,
    });
    const page = await get("/congratulations");
    expect(await page.text()).toContain("Sign In to Your Dashboard");
  });

  it("answers a sign-up with an existing e-mail like a new one, mails the owner, and makes no second account", async () => {
    const fields = validSignup();
    const first = await postForm("/signup", fields);
    const again = await postForm("/signup", {
      ...fields,
      email: fields.email.toUpperCase(),
      password: "another-password",
      confirmPassword: "another-password",
    });
    // Same status, same place, same page: nothing tells the visitor the address was taken.
    expect(again.status).toBe(first.status);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(first.headers.get("Location")).toBe("/congratulations");
    const cookieNames = (res: Response) => res.headers.getSetCookie().map((cookie) => cookie.split("=")[0]);
    expect(cookieNames(again)).toEqual(cookieNames(first));
    const rows = await db().select().from(users).where(eq(users.email, fields.email));
    expect(rows).toHaveLength(1);
    // The first sign-up got its confirmation link; the second, in the same window, mails nothing more (one mail per
    // address per window, decision 410). The password is unchanged.
    const mail = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, fields.email));
    expect(mail.map((m) => m.subject)).toEqual(["Confirm your Tribe account"]);
    await signIn(fields.email, fields.password);
  });

  it("confirms a new account's e-mail only through the mailed link, once", async () => {
    const fields = validSignup();
    await postForm("/signup", fields);
    const [account] = await db().select().from(users).where(eq(users.email, fields.email));
    expect(account.emailConfirmedAt).toBeNull();
    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, fields.email));
    const link = new URL(mail.textBody.match(/https?:\/\/\S+\/confirm-email\?token=\S+/)![0]);

    // Opening the link shows the button and changes nothing (mail scanners open links too).
    const page = await get(link.pathname + link.search);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Confirm my email");
    expect((await db().select().from(users).where(eq(users.id, account.id)))[0].emailConfirmedAt).toBeNull();

    const wrong = await postForm("/confirm-email", { token: "x".repeat(43) });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("This confirmation link is invalid, used or expired.");

    const token = link.searchParams.get("token")!;
    const done = await postForm("/confirm-email", { token });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/signin");
    expect((await db().select().from(users).where(eq(users.id, account.id)))[0].emailConfirmedAt).toBeInstanceOf(Date);
    expect((await postForm("/confirm-email", { token })).status).toBe(400);
    expect((await get(link.pathname + link.search)).status).toBe(400);
  });

  it("gives a profile created without a name the e-mail prefix and country MY", async () => {
    const { id } = await makeUser({ email: "zara.k@example.com" });
    const [profile] = await db().select().from(userProfiles).where(eq(userProfiles.userId, id));
    expect(profile.creatorName).toBe("zara.k");
    expect(profile.country).toBe("MY");
    expect(profile.currency).toBe("MYR");
  });
});

describe("sign-in and sign-out", () => {
  it("asks for both fields", async () => {
    const res = await postForm("/signin", { email: "", password: "" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Please fill in all fields!");
  });

  it("refuses a wrong password with the sign-in message", async () => {
    const { email } = await makeUser();
    const res = await postForm("/signin", { email, password: "wrong-password" });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Failed to sign in. Please check your email and password.");
    expect(cookieFrom(res, SESSION)).toBeNull();
  });

  it("refuses an unknown e-mail with the same message", async () => {
    const res = await postForm("/signin", { email: uniqueEmail(), password: PASSWORD });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Failed to sign in. Please check your email and password.");
  });

  it("signs in, reaches /dashboard, and shows the success toast", async () => {
    const { email } = await makeUser({ name: "Dana" });
    const res = await postForm("/signin", { email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard");
    const session = cookieFrom(res, SESSION)!;
    const header = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))!;
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/Secure/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).toMatch(/Path=\//);
    const toast = cookieFrom(res, "__Host-toast")!;
    const dashboard = await get("/dashboard", { cookie: `${session}; ${toast}` });
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    expect(html).toContain("Successfully signed in!");
    expect(html).toContain("Dana");
  });

  it("shows no flash message whose cookie was not signed by the app", async () => {
    const forged = btoa(
      encodeURIComponent(JSON.stringify({ message: "Send your password to evil@example.com", type: "info" })),
    );
    for (const value of [forged, `${forged}.bad-signature`]) {
      const res = await get("/", { cookie: `__Host-toast=${value}` });
      expect(await res.text()).not.toContain("Send your password");
    }
  });

  it("ends the session server-side on sign-out", async () => {
    const { id, email } = await makeUser();
    const cookie = await signIn(email);
    expect((await get("/dashboard", { cookie })).status).toBe(200);
    const out = await postForm("/signout", {}, { cookie });
    expect(out.status).toBe(302);
    expect(out.headers.get("Location")).toBe("/");
    expect(await db().select().from(sessions).where(eq(sessions.userId, id))).toHaveLength(0);
    const after = await get("/dashboard", { cookie });
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toBe("/signin?redirectTo=%2Fdashboard");
  });

  it("refuses a form posted from another site", async () => {
    const { email } = await makeUser();
    const foreign = await postForm("/signin", { email, password: PASSWORD }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const missing = await postForm("/signin", { email, password: PASSWORD }, { origin: null });
    expect(missing.status).toBe(403);
    expect(cookieFrom(foreign, SESSION)).toBeNull();
  });
});

describe("guarded routes", () => {
  for (const path of ["/dashboard", "/add-product", "/create-guess-win", "/settings"]) {
    it(`sends a visitor from ${path} to /signin and back after sign-in`, async () => {
      const res = await get(path);
      expect(res.status).toBe(302);
      const location = res.headers.get("Location")!;
      expect(location).toBe(`/signin?redirectTo=${encodeURIComponent(path)}`);
      const { email } = await makeUser();
      const redirectTo = new URL(location, "https://x").searchParams.get("redirectTo")!;
      const signin = await postForm("/signin", { email, password: PASSWORD, redirectTo });
      expect(signin.status).toBe(302);
      expect(signin.headers.get("Location")).toBe(path);
      const page = await get(path, { cookie: cookieFrom(signin, SESSION) });
      expect(page.status).toBe(200);
    });
  }

  it("sends a page loaded in the background (a client-side navigation) back to the page, not its data address", async () => {
    // React Router loads /my-orders as /my-orders.data; the redirect travels in the body.
    for (const [data, page] of [
      ["/my-orders.data?_routes=routes%2Fmy-orders", "/my-orders"],
      ["/dashboard.data", "/dashboard"],
      ["/orders.data?tab=orders", "/orders?tab=orders"],
    ] as const) {
      const res = await get(data);
      const body = await res.text();
      expect(body).toContain(`/signin?redirectTo=${encodeURIComponent(page)}`);
      expect(body).not.toContain(".data");
      expect(body).not.toContain("_routes");
    }
  });

  it("never follows a redirect to another site after sign-in", async () => {
    const { email } = await makeUser();
    const res = await postForm("/signin", { email, password: PASSWORD, redirectTo: "//evil.example/x" });
    expect(res.headers.get("Location")).toBe("/dashboard");
  });
});

describe("throttling", () => {
  // The progressive delay of one address for one account (decision 410): four failures cost nothing, then each
  // failure makes the next attempt wait longer. Tests/sign-in-throttle.test.ts covers the owner and the ceiling.
  it("slows one address down for an account after four failures, before checking the password", async () => {
    const { email } = await makeUser();
    const ip = randomIp();
    for (let i = 0; i < 4; i++)
      expect((await postForm("/signin", { email, password: `wrong-${i}` }, { ip })).status).toBe(401);
    // The right password from that address must wait now; it was not checked.
    const slowed = await postForm("/signin", { email, password: PASSWORD }, { ip });
    expect(slowed.status).toBe(429);
    expect(await slowed.text()).toContain("Too many failed sign-in attempts. Please try again in");
    expect(Number(slowed.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(cookieFrom(slowed, SESSION)).toBeNull();
  });

  it("checks at most four passwords in a burst of 20 parallel wrong ones from one address", async () => {
    const { email } = await makeUser();
    const ip = randomIp();
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postForm("/signin", { email, password: `wrong-${i}` }, { ip })),
    );
    const statuses = burst.map((res) => res.status);
    // 401 means the password was checked; the rest were refused before that.
    expect(statuses.filter((status) => status === 401)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(16);
    for (const res of burst.filter((r) => r.status === 429))
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("lets a right password through after a few wrong ones, and starts the address afresh for the account", async () => {
    const { email } = await makeUser();
    const ip = randomIp();
    for (let i = 0; i < 3; i++)
      expect((await postForm("/signin", { email, password: `wrong-${i}` }, { ip })).status).toBe(401);
    expect((await postForm("/signin", { email, password: PASSWORD }, { ip })).status).toBe(302);
    for (let i = 0; i < 4; i++)
      expect((await postForm("/signin", { email, password: `again-${i}` }, { ip })).status).toBe(401);
    expect((await postForm("/signin", { email, password: "again-4" }, { ip })).status).toBe(429);
  });

  it("slows an address down after many failures across accounts, and only that address", async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i++) {
      const res = await postForm("/signin", { email: uniqueEmail(), password: "whatever-1" }, { ip });
      expect(res.status).toBe(401);
    }
    const { email } = await makeUser();
    const slowed = await postForm("/signin", { email, password: PASSWORD }, { ip });
    expect(slowed.status).toBe(429);
    const elsewhere = await postForm("/signin", { email, password: PASSWORD }, { ip: randomIp() });
    expect(elsewhere.status).toBe(302);
  });
});

describe("password reset", () => {
  async function latestLink(email: string): Promise<string> {
    const rows = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    const text = rows.at(-1)?.textBody ?? "";
    const link = text.match(/https?:\/\/\S+/)?.[0];
    if (!link) throw new Error("no reset link mailed");
    return link;
  }

  it("mails a single-use link that changes the password and ends old sessions", async () => {
    const { email } = await makeUser();
    const oldSession = await signIn(email);
    const res = await postForm("/forgot-password", { email });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("If an account exists for that email");
    const link = new URL(await latestLink(email));
    expect(link.pathname).toBe("/reset-password");
    const token = link.searchParams.get("token")!;

    const form = await get(`/reset-password?token=${encodeURIComponent(token)}`);
    expect(form.status).toBe(200);
    const mismatch = await postForm("/reset-password", { token, password: "brand-new-pass", confirmPassword: "other" });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Passwords do not match!");

    const done = await postForm("/reset-password", {
      token,
      password: "brand-new-pass",
      confirmPassword: "brand-new-pass",
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/signin");
    expect((await get("/dashboard", { cookie: oldSession })).status).toBe(302);
    expect((await postForm("/signin", { email, password: PASSWORD })).status).toBe(401);
    await signIn(email, "brand-new-pass");

    const reuse = await postForm("/reset-password", {
      token,
      password: "another-pass-1",
      confirmPassword: "another-pass-1",
    });
    expect(reuse.status).toBe(400);
    expect(await reuse.text()).toContain("invalid or has expired");
    expect((await get(`/reset-password?token=${encodeURIComponent(token)}`)).status).toBe(400);
  });

  it("answers the same for an unknown e-mail and sends nothing", async () => {
    const email = uniqueEmail("ghost");
    const res = await postForm("/forgot-password", { email });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("If an account exists for that email");
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).toHaveLength(0);
  });
});

describe("roles and demo mode", () => {
  it("lets only the platform owner into /admin", async () => {
    const user = await makeUser();
    const admin = await makeUser({ role: "admin" });
    expect((await get("/admin")).status).toBe(302);
    expect((await get("/admin", { cookie: await signIn(user.email) })).status).toBe(403);
    expect((await get("/admin", { cookie: await signIn(admin.email) })).status).toBe(200);
  });
});
