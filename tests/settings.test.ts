import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  groupBuys,
  guessWinGames,
  mailOutbox,
  orders,
  prizePools,
  products,
  productSizes,
  sessions,
  userProfiles,
  userShippingCountries,
  users,
} from "~/db/schema";
import { createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { notify } from "~/lib/notify.server";
import { openPool } from "~/lib/pools.server";
import {
  cookieFrom,
  db,
  decodedHtml,
  get,
  makeUser,
  ORIGIN,
  PASSWORD,
  postForm,
  randomIp,
  SESSION,
  sessionUserOf,
  signIn,
  withoutNetwork,
} from "./helpers";

// /settings: every tab saves on the server with the product's messages; what the switches and lists change elsewhere
// (public pages, checkout, e-mail); the data export and account deletion.

withoutNetwork();

async function profileOf(userId: string) {
  const [row] = await db().select().from(userProfiles).where(eq(userProfiles.userId, userId));
  return row!;
}

async function host(name = "Settings Host") {
  const user = await makeUser({ name: `${name} ${crypto.randomUUID().slice(0, 6)}` });
  return { ...user, cookie: await signIn(user.email) };
}

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
  0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xde, 0x00, 0x00, 0x00, 0x0c, 0x49,
  0x44, 0x41, 0x54, 0x08, 0xd7, 0x63, 0xf8, 0xcf, 0xc0, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xdd, 0x8d, 0xb0,
  0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
]);

function upload(kind: string, bytes: Uint8Array, fileName: string, cookie: string) {
  const form = new FormData();
  form.set("file", new File([bytes as Uint8Array<ArrayBuffer>], fileName, { type: "image/png" }));
  return SELF.fetch(`${ORIGIN}/settings?upload=${kind}`, {
    method: "POST",
    body: form,
    headers: { Cookie: cookie, Origin: ORIGIN, "CF-Connecting-IP": randomIp() },
    redirect: "manual",
  });
}

describe("Profile tab", () => {
  it("saves the creator name, category, bio and website; empty fields are dropped", async () => {
    const h = await host();
    const res = await postForm(
      "/settings",
      {
        intent: "profile",
        creatorName: "  Nadia Weaves ",
        category: "Art & Creativity",
        bio: "Looms and linen.",
        website: "https://nadia.example",
      },
      { cookie: h.cookie },
    );
    expect(res.status).toBe(200);
    expect(await decodedHtml(res)).toContain("Settings saved successfully!");
    expect(await profileOf(h.id)).toMatchObject({
      creatorName: "Nadia Weaves",
      category: "Art & Creativity",
      bio: "Looms and linen.",
      website: "https://nadia.example",
    });
    // The nav bar reads the name from the session user: the next page shows it.
    expect(await decodedHtml(await get("/dashboard", { cookie: h.cookie }))).toContain("Nadia Weaves");

    await postForm(
      "/settings",
      { intent: "profile", creatorName: "Nadia Weaves", category: "Art & Creativity", bio: "  ", website: "" },
      { cookie: h.cookie },
    );
    expect(await profileOf(h.id)).toMatchObject({ bio: null, website: null });
  });

  it("refuses a missing name, a bad website or an unknown category with the message, and changes nothing", async () => {
    const h = await host();
    const before = await profileOf(h.id);
    const cases: [Record<string, string>, string][] = [
      [{ creatorName: "  ", category: "Education", website: "" }, "Please enter your creator name"],
      [
        { creatorName: "Ok", category: "Education", website: "not a url" },
        "Please enter a valid website URL (including https://)",
      ],
      [{ creatorName: "Ok", category: "Gardening", website: "" }, "Please choose a category"],
    ];
    for (const [fields, message] of cases) {
      const res = await postForm("/settings", { intent: "profile", bio: "", ...fields }, { cookie: h.cookie });
      expect(res.status).toBe(400);
      expect(await decodedHtml(res)).toContain(message);
    }
    const after = await profileOf(h.id);
    expect(after.creatorName).toBe(before.creatorName);
    expect(after.category).toBe(before.category);
    expect(after.website).toBe(before.website);
  });

  it("asks a visitor to sign in and refuses a form from another site", async () => {
    const res = await postForm("/settings", { intent: "profile", creatorName: "X", category: "Education" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("/signin");
    const h = await host();
    const cross = await postForm(
      "/settings",
      { intent: "profile", creatorName: "X", category: "Education" },
      { cookie: h.cookie, origin: "https://evil.example" },
    );
    expect(cross.status).toBe(403);
    expect((await profileOf(h.id)).creatorName).not.toBe("X");
  });

  it("uploads an avatar and a cover to R2 (typed from the bytes) and removes the file each replaces", async () => {
    const h = await host();
    const first = await upload("avatar", PNG, "me.png", h.cookie);
    expect(first.status).toBe(200);
    expect(await decodedHtml(first)).toContain("Uploaded!");
    const avatar1 = (await profileOf(h.id)).avatarUrl!;
    expect(avatar1).toMatch(new RegExp(`^/media/profile-pic/${h.id}/\\d+-\\w+\\.png$`));
    const served = await get(avatar1);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");

    expect((await upload("avatar", PNG, "again.jpg", h.cookie)).status).toBe(200);
    const avatar2 = (await profileOf(h.id)).avatarUrl!;
    expect(avatar2).not.toBe(avatar1);
    expect(await env.MEDIA.head(avatar1.replace("/media/", ""))).toBeNull();
    expect(await env.MEDIA.head(avatar2.replace("/media/", ""))).not.toBeNull();

    expect((await upload("cover", PNG, "cover.png", h.cookie)).status).toBe(200);
    expect((await profileOf(h.id)).coverImageUrl).toMatch(new RegExp(`^/media/cover-photo/${h.id}/`));
  });

  it("refuses a non-image renamed .png and a 6 MB image with a 4xx, changing nothing", async () => {
    const h = await host();
    const fake = await upload(
      "avatar",
      new TextEncoder().encode("#!/bin/sh\necho not an image\n"),
      "photo.png",
      h.cookie,
    );
    expect(fake.status).toBe(415);
    expect(await decodedHtml(fake)).toContain("Failed to upload image: Please select an image file");

    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(PNG);
    const tooBig = await upload("cover", big, "huge.png", h.cookie);
    expect(tooBig.status).toBe(413);
    expect(await decodedHtml(tooBig)).toContain("Failed to upload cover image: File size must be less than 5MB");

    const profile = await profileOf(h.id);
    expect(profile.avatarUrl).toBeNull();
    expect(profile.coverImageUrl).toBeNull();
    const stored = await env.MEDIA.list({ prefix: `profile-pic/${h.id}/` });
    expect(stored.objects).toHaveLength(0);
  });
});

// --- Shipping ---------------------------------------------------------------------------------------------------

async function physicalProduct(hostId: string, name: string) {
  const [product] = await db()
    .insert(products)
    .values({
      hostId,
      name,
      category: "physical",
      status: "active",
      basePriceCents: 2000,
      priceMinCents: 2000,
      priceMaxCents: 2000,
    })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: product!.id, name: "One", priceCents: 2000, availableUnits: 10, position: 0 });
  return product!;
}

async function startCheckout(buyer: { id: string; email: string }, productId: string) {
  const result = await createProductCheckout(env, {
    user: sessionUserOf(buyer),
    productId,
    sizeName: "One",
    quantity: 1,
    origin: ORIGIN,
  });
  if (!result.ok) throw new Error(`checkout failed: ${JSON.stringify(result)}`);
  return result.sessionId;
}

function payLocally(sessionId: string, country: string) {
  return postForm(`/api/local-checkout/${sessionId}/pay`, {
    name: "Ada Buyer",
    street: "1 Orchard Road",
    city: "Singapore",
    postal_code: "238823",
    country,
  });
}

describe("Shipping tab", () => {
  it("saves the list and the shop filter, the coming-soon check and checkout obey it", async () => {
    const h = await host("Shipper");
    const product = await physicalProduct(h.id, `Batik Scarf ${crypto.randomUUID().slice(0, 6)}`);
    const res = await postForm("/settings", { intent: "shipping", countries: "SG" }, { cookie: h.cookie });
    expect(res.status).toBe(200);
    expect(await decodedHtml(res)).toContain("Shipping countries saved successfully!");
    const rows = await db().select().from(userShippingCountries).where(eq(userShippingCountries.hostId, h.id));
    expect(rows.map((r) => r.countryCode)).toEqual(["SG"]);

    // The shop's Ship to filter.
    expect(await decodedHtml(await get(`/shop?shipTo=SG&q=${encodeURIComponent(product.name)}`))).toContain(
      `/product/${product.id}`,
    );
    expect(await decodedHtml(await get(`/shop?shipTo=MY&q=${encodeURIComponent(product.name)}`))).not.toContain(
      `/product/${product.id}`,
    );

    // Coming soon for a fan in Malaysia.
    const fan = await makeUser({ name: "Fan MY" });
    await db().update(userProfiles).set({ country: "MY" }).where(eq(userProfiles.userId, fan.id));
    const fanCookie = await signIn(fan.email);
    expect(await decodedHtml(await get(`/profile/${h.id}`, { cookie: fanCookie }))).toContain("coming soon");

    // Checkout: an address in a country the host does not ship to is refused, and no order is made.
    const refusedSession = await startCheckout(fan, product.id);
    const refused = await payLocally(refusedSession, "MY");
    expect(refused.status).toBe(400);
    expect(await decodedHtml(refused)).toContain("This shop does not ship to MY");
    expect(await db().select().from(orders).where(eq(orders.checkoutSessionId, refusedSession))).toHaveLength(0);
    const paid = await payLocally(refusedSession, "SG");
    expect(paid.status).toBe(303);
    expect(await db().select().from(orders).where(eq(orders.checkoutSessionId, refusedSession))).toHaveLength(1);
  });

  it("refuses an unknown country code with its message and keeps the saved list", async () => {
    const h = await host();
    await postForm("/settings", { intent: "shipping", countries: "SG" }, { cookie: h.cookie });
    const body = new URLSearchParams([
      ["intent", "shipping"],
      ["countries", "MY"],
      ["countries", "XX"],
    ]);
    const res = await SELF.fetch(`${ORIGIN}/settings`, {
      method: "POST",
      body,
      headers: {
        Cookie: h.cookie,
        Origin: ORIGIN,
        "Content-Type": "application/x-www-form-urlencoded",
        "CF-Connecting-IP": randomIp(),
      },
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    expect(await decodedHtml(res)).toContain("Failed to save shipping countries. Please try again.");
    const rows = await db().select().from(userShippingCountries).where(eq(userShippingCountries.hostId, h.id));
    expect(rows.map((r) => r.countryCode)).toEqual(["SG"]);
  });
});

// --- Notifications --------------------------------------------------------------------------------------------------

async function mailsTo(address: string) {
  return db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, address));
}

describe("Notifications tab", () => {
  it("saves the four switches", async () => {
    const h = await host();
    const res = await postForm(
      "/settings",
      { intent: "notifications", emailNotifications: "on", winnerNotifications: "on" },
      { cookie: h.cookie },
    );
    expect(res.status).toBe(200);
    expect(await profileOf(h.id)).toMatchObject({
      emailNotifications: true,
      pushNotifications: false,
      winnerNotifications: true,
      salesNotifications: false,
    });
    const bad = await postForm(
      "/settings",
      { intent: "notifications", emailNotifications: "maybe" },
      { cookie: h.cookie },
    );
    expect(bad.status).toBe(400);
    expect(await decodedHtml(bad)).toContain("Failed to save settings. Please try again.");
  });

  it("e-mails a host about a sale only while sales notifications are on", async () => {
    const quiet = await host("Quiet Seller");
    const loud = await host("Loud Seller");
    await postForm(
      "/settings",
      { intent: "notifications", emailNotifications: "on", pushNotifications: "on", winnerNotifications: "on" },
      { cookie: quiet.cookie },
    );
    await postForm("/settings", { intent: "shipping", countries: "SG" }, { cookie: quiet.cookie });
    await postForm("/settings", { intent: "shipping", countries: "SG" }, { cookie: loud.cookie });
    const fan = await makeUser({ name: "Sale Fan" });
    for (const host of [quiet, loud]) {
      const product = await physicalProduct(host.id, "Rattan Basket");
      expect((await payLocally(await startCheckout(fan, product.id), "SG")).status).toBe(303);
    }
    expect(await mailsTo(quiet.email)).toHaveLength(0);
    const mails = await mailsTo(loud.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain("Rattan Basket");
  });

  it("e-mails a fan's win only while winner notifications are on; mail an account needs always goes", async () => {
    const fan = await host("Lucky Fan");
    const message = { subject: "You won the main prize!", text: "Entry #3 won." };
    expect((await notify(env, fan.id, "winner", { ...message, key: "prize-won:pool-1" })).emailed).toBe(true);
    await postForm(
      "/settings",
      { intent: "notifications", emailNotifications: "on", salesNotifications: "on" },
      { cookie: fan.cookie },
    );
    expect((await notify(env, fan.id, "winner", { ...message, key: "prize-won:pool-2" })).emailed).toBe(false);
    await postForm("/settings", { intent: "notifications" }, { cookie: fan.cookie });
    expect(
      (
        await notify(env, fan.id, "refund", {
          key: "refund:re_1",
          subject: "Your refund",
          text: "USD 10.00 is on its way.",
        })
      ).emailed,
    ).toBe(true);
    const subjects = (await mailsTo(fan.email)).map((m) => m.subject);
    expect(subjects.filter((s) => s === "You won the main prize!")).toHaveLength(1);
    expect(subjects).toContain("Your refund");
  });
});

// --- Privacy ----------------------------------------------------------------------------------------------------

describe("Privacy tab", () => {
  it("hides a private host from home, explore and search and shows others a private notice", async () => {
    const h = await host("Zelda Private");
    const [profile] = await db().select().from(userProfiles).where(eq(userProfiles.userId, h.id));
    const name = profile!.creatorName;
    // Make sure the host would be featured and found while public.
    await db()
      .update(userProfiles)
      .set({ followersCount: 1_000_000, bio: "Secret garden" })
      .where(eq(userProfiles.userId, h.id));
    const mug = await physicalProduct(h.id, "Plain Mug");
    const profileLink = `/profile/${h.id}`;
    expect(await decodedHtml(await get("/"))).toContain(profileLink);
    expect(await decodedHtml(await get(`/explore?q=${encodeURIComponent(name)}`))).toContain(profileLink);
    expect(await decodedHtml(await get(`/shop?q=${encodeURIComponent(name)}`))).toContain(`/product/${mug.id}`);

    const res = await postForm("/settings", { intent: "privacy", showFollowers: "on" }, { cookie: h.cookie });
    expect(res.status).toBe(200);
    expect(await profileOf(h.id)).toMatchObject({ profilePublic: false, showRevenue: false, showFollowers: true });

    expect(await decodedHtml(await get("/"))).not.toContain(profileLink);
    expect(await decodedHtml(await get(`/explore?q=${encodeURIComponent(name)}`))).not.toContain(profileLink);
    expect(await decodedHtml(await get(`/shop?q=${encodeURIComponent(name)}`))).not.toContain(`/product/${mug.id}`);
    const visitor = await get(`/profile/${h.id}`);
    expect(visitor.status).toBe(403);
    const notice = await decodedHtml(visitor);
    expect(notice).toContain("This profile is private");
    expect(notice).not.toContain("Secret garden");
    // The host still sees their own profile.
    expect(await decodedHtml(await get(`/profile/${h.id}`, { cookie: h.cookie }))).toContain("Secret garden");
  });

  it("shows revenue and followers on the public profile only when switched on", async () => {
    const h = await host("Open Books");
    await db()
      .update(userProfiles)
      .set({ totalRevenueCents: 123_456, currency: "USD", followersCount: 42 })
      .where(eq(userProfiles.userId, h.id));
    await postForm(
      "/settings",
      { intent: "privacy", profilePublic: "on", showFollowers: "on", showRevenue: "on" },
      { cookie: h.cookie },
    );
    let page = await decodedHtml(await get(`/profile/${h.id}`));
    expect(page).toContain("42 tribes");
    expect(page).toMatch(/1,234\.56 revenue/);
    await postForm("/settings", { intent: "privacy", profilePublic: "on" }, { cookie: h.cookie });
    page = await decodedHtml(await get(`/profile/${h.id}`));
    expect(page).not.toContain("42 tribes");
    expect(page).not.toMatch(/1,234\.56 revenue/);
  });
});

// --- Account ----------------------------------------------------------------------------------------------------

describe("Account tab", () => {
  it("changes the password only with the current one, and signs out the other devices", async () => {
    const h = await host();
    const otherDevice = await signIn(h.email);
    const wrong = await postForm(
      "/settings",
      {
        intent: "password",
        currentPassword: "not-my-password",
        newPassword: "brand-new-secret",
        confirmPassword: "brand-new-secret",
      },
      { cookie: h.cookie },
    );
    expect(wrong.status).toBe(400);
    expect(await decodedHtml(wrong)).toContain("Your current password is incorrect");
    const mismatch = await postForm(
      "/settings",
      { intent: "password", currentPassword: PASSWORD, newPassword: "brand-new-secret", confirmPassword: "other" },
      { cookie: h.cookie },
    );
    expect(mismatch.status).toBe(400);
    expect(await decodedHtml(mismatch)).toContain("Passwords do not match!");
    await signIn(h.email); // still the old password

    const ok = await postForm(
      "/settings",
      {
        intent: "password",
        currentPassword: PASSWORD,
        newPassword: "brand-new-secret",
        confirmPassword: "brand-new-secret",
      },
      { cookie: h.cookie },
    );
    expect(ok.status).toBe(200);
    expect((await get("/settings", { cookie: h.cookie })).status).toBe(200);
    expect((await get("/settings", { cookie: otherDevice })).status).toBe(302);
    await expect(signIn(h.email)).rejects.toThrow();
    await signIn(h.email, "brand-new-secret");
  });

  it("changes the e-mail once the button of the link mailed to the new address is pressed", async () => {
    const h = await host();
    const newEmail = `moved-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await postForm(
      "/settings",
      { intent: "email", newEmail, currentPassword: PASSWORD },
      { cookie: h.cookie },
    );
    expect(res.status).toBe(200);
    expect(await decodedHtml(res)).toContain(`We sent a confirmation link to ${newEmail}`);
    const [user] = await db().select().from(users).where(eq(users.id, h.id));
    expect(user!.email).toBe(h.email);

    const [mail] = await mailsTo(newEmail);
    const link = /https?:\/\/\S+\/settings\/confirm-email\?token=\S+/.exec(mail!.textBody)![0];
    const path = link.replace(/^https?:\/\/[^/]+/, "");
    const token = new URL(link).searchParams.get("token")!;
    // Opening the link shows a button and changes nothing (mail scanners open links).
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(await decodedHtml(page)).toContain("Confirm my new email");
    expect((await db().select().from(users).where(eq(users.id, h.id)))[0]!.email).toBe(h.email);
    const confirmed = await postForm("/settings/confirm-email", { token });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/settings?tab=account");
    // The toast the next page shows (a signed cookie: base64 of the URI-encoded JSON, then its signature).
    const toast = cookieFrom(confirmed, "__Host-toast")!.split("=")[1]!.split(".")[0]!;
    expect(decodeURIComponent(atob(toast))).toContain(`Your email address has been changed. It is now ${newEmail}.`);
    expect((await db().select().from(users).where(eq(users.id, h.id)))[0]!.email).toBe(newEmail);
    expect((await profileOf(h.id)).email).toBe(newEmail);
    expect((await mailsTo(h.email)).map((m) => m.subject)).toContain("Your Tribe email address was changed");
    // A link works once.
    expect((await get(path)).status).toBe(400);
    expect((await postForm("/settings/confirm-email", { token })).status).toBe(400);
    await signIn(newEmail);
  });

  it("exports every record of the account as JSON and as a ZIP of CSV files", async () => {
    const h = await host("Exporter");
    const product = await physicalProduct(h.id, "Export Lamp");
    await postForm("/settings", { intent: "shipping", countries: "SG" }, { cookie: h.cookie });
    const fan = await makeUser({ name: "Export Fan" });
    const sessionId = await startCheckout(fan, product.id);
    await payLocally(sessionId, "SG");
    const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, sessionId));

    const json = await get("/settings/export?format=json", { cookie: h.cookie });
    expect(json.status).toBe(200);
    expect(json.headers.get("Content-Disposition")).toMatch(
      /attachment; filename="tribe-data-\d{4}-\d{2}-\d{2}\.json"/,
    );
    const data = (await json.json()) as {
      records: Record<string, { id?: string; orderNumber?: string; countryCode?: string }[]>;
    };
    expect(data.records.account![0]).toMatchObject({ id: h.id, email: h.email });
    expect(JSON.stringify(data.records.account)).not.toContain("scrypt");
    expect(data.records.products!.map((p) => p.id)).toContain(product.id);
    expect(data.records.orders!.map((o) => o.orderNumber)).toContain(order!.orderNumber);
    expect(data.records.shipping_countries!.map((c) => c.countryCode)).toEqual(["SG"]);
    // What the app told the account is its data too: the sale's notice is in the export.
    expect(data.records.notifications!.map((n) => (n as { subject?: string }).subject)).toContain(
      `New order ${order!.orderNumber}: Export Lamp`,
    );
    for (const table of ["spend_limits", "entry_spend", "free_entries", "postal_entries", "prize_claims"])
      expect(data.records[table]).toEqual([]);

    const zipRes = await get("/settings/export?format=zip", { cookie: h.cookie });
    expect(zipRes.status).toBe(200);
    expect(zipRes.headers.get("Content-Type")).toBe("application/zip");
    const files = await unzip(new Uint8Array(await zipRes.arrayBuffer()));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(["account.csv", "profile.csv", "orders.csv", "products.csv"]),
    );
    expect(files["orders.csv"]).toContain(order!.orderNumber);
    expect(files["products.csv"]).toContain("Export Lamp");

    expect((await get("/settings/export?format=xml", { cookie: h.cookie })).status).toBe(400);
    expect((await get("/settings/export?format=json")).status).toBe(302);
  });

  it("deletes an account after the typed confirmation: sessions end, data is erased, others' orders stay, the pool closes", async () => {
    const h = await host("Leaving Host");
    const product = await physicalProduct(h.id, "Last Candle");
    await postForm("/settings", { intent: "shipping", countries: "SG" }, { cookie: h.cookie });
    await upload("avatar", PNG, "me.png", h.cookie);
    const avatarKey = (await profileOf(h.id)).avatarUrl!.replace("/media/", "");
    const pool = await openPool(env, { hostId: h.id, targetCents: 1_000_000 });
    const [groupBuy] = await db()
      .insert(groupBuys)
      .values({
        hostId: h.id,
        name: "Spring bundle",
        status: "active",
        targetCents: 100_000,
        endAt: new Date(Date.now() + 7 * 86_400_000),
      })
      .returning();
    const [game] = await db()
      .insert(guessWinGames)
      .values({
        hostId: h.id,
        question: "Which colour?",
        options: ["Red", "Blue"],
        correctAnswer: "Red",
        entryFeeCents: 100,
        status: "active",
      })
      .returning();
    const fan = await makeUser({ name: "Loyal Fan" });
    const sessionId = await startCheckout(fan, product.id);
    await payLocally(sessionId, "SG");

    const notTyped = await postForm(
      "/settings",
      { intent: "delete", confirmation: "delete", currentPassword: PASSWORD },
      { cookie: h.cookie },
    );
    expect(notTyped.status).toBe(400);
    expect(await decodedHtml(notTyped)).toContain("Please type DELETE to confirm");
    expect((await get("/settings", { cookie: h.cookie })).status).toBe(200);

    const res = await postForm(
      "/settings",
      { intent: "delete", confirmation: "DELETE", currentPassword: PASSWORD },
      { cookie: h.cookie },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(cookieFrom(res, SESSION)).toBe(`${SESSION}=`);

    // Sessions end and the account cannot sign in again.
    expect((await get("/settings", { cookie: h.cookie })).status).toBe(302);
    expect(await db().select().from(sessions).where(eq(sessions.userId, h.id))).toHaveLength(0);
    await expect(signIn(h.email)).rejects.toThrow();
    // Personal data is erased.
    const [user] = await db().select().from(users).where(eq(users.id, h.id));
    expect(user!.email).not.toBe(h.email);
    expect(user!.deletedAt).not.toBeNull();
    const profile = await profileOf(h.id);
    expect(profile).toMatchObject({
      creatorName: "Deleted account",
      bio: null,
      avatarUrl: null,
      profilePublic: false,
      prizePoolAutoRenew: false,
    });
    expect(await env.MEDIA.head(avatarKey)).toBeNull();
    expect((await get(`/profile/${h.id}`)).status).toBe(404);
    // The fan's order stays, and the host's products leave the shop.
    const kept = await db().select().from(orders).where(eq(orders.checkoutSessionId, sessionId));
    expect(kept).toHaveLength(1);
    expect(kept[0]!.userId).toBe(fan.id);
    const [archived] = await db().select().from(products).where(eq(products.id, product.id));
    expect(archived!.status).toBe("archived");
    // The open pool closed now (to be drawn as usual) and no next pool opened.
    const pools = await db().select().from(prizePools).where(eq(prizePools.hostId, h.id));
    expect(pools.find((p) => p.id === pool.id)!.status).toBe("closed");
    expect(pools.filter((p) => p.status === "open")).toHaveLength(0);
    expect(
      await db()
        .select()
        .from(userShippingCountries)
        .where(and(eq(userShippingCountries.hostId, h.id))),
    ).toHaveLength(0);
    // The running game ended and the group buy was cancelled by its rule (fans refunded in full).
    expect((await db().select().from(guessWinGames).where(eq(guessWinGames.id, game!.id)))[0]!.status).toBe(
      "completed",
    );
    expect((await db().select().from(groupBuys).where(eq(groupBuys.id, groupBuy!.id)))[0]!.status).toBe("cancelled");
  });
});

/** Reads a ZIP's files through its central directory (stored or deflated), as text. */
async function unzip(bytes: Uint8Array): Promise<Record<string, string>> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  expect(end).toBeGreaterThanOrEqual(0);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const body = bytes.slice(dataStart, dataStart + size);
    const raw =
      method === 8
        ? new Uint8Array(
            await new Response(
              new Blob([body]).stream().pipeThrough(new DecompressionStream("deflate-raw")),
            ).arrayBuffer(),
          )
        : body;
    out[name] = new TextDecoder().decode(raw);
    at += 46 + nameLength + extra + comment;
  }
  return out;
}
