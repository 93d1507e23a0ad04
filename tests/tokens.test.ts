import { describe, expect, it } from "vitest";
import { createEmailConfirmationToken } from "~/db/queries/accounts.server";
import { randomToken, sha256Hex } from "~/lib/crypto.server";
import { db, get, makeUser, PASSWORD, postForm, signIn } from "./helpers";
import { endMailWindow, mailedToken } from "./support/accounts";

// Issue 27, point 2 (decision 410): tokens die with what they protect. A newer reset link revokes older reset links
// (only those); using a reset link, changing the password or changing the e-mail revokes every outstanding reset,
// e-mail-change and confirmation link and every other session. Links from mail never act on GET.

const NEW_PASSWORD = "a-fresh-password-2026";

async function resetLink(email: string): Promise<string> {
  await endMailWindow("reset", email);
  expect((await postForm("/forgot-password", { email })).status).toBe(200);
  return mailedToken(email, "/reset-password");
}

async function emailChangeLink(cookie: string): Promise<{ token: string; address: string }> {
  const address = `next-${crypto.randomUUID().slice(0, 8)}@example.com`;
  expect(
    (await postForm("/settings", { intent: "email", newEmail: address, currentPassword: PASSWORD }, { cookie })).status,
  ).toBe(200);
  return { token: await mailedToken(address, "/settings/confirm-email"), address };
}

async function confirmationLink(userId: string): Promise<string> {
  const token = randomToken();
  await createEmailConfirmationToken(db(), userId, await sha256Hex(token), new Date(Date.now() + 86_400_000));
  return token;
}

const usable = {
  reset: async (token: string) => (await get(`/reset-password?token=${encodeURIComponent(token)}`)).status === 200,
  emailChange: async (token: string) =>
    (await get(`/settings/confirm-email?token=${encodeURIComponent(token)}`)).status === 200,
  confirmation: async (token: string) =>
    (await get(`/confirm-email?token=${encodeURIComponent(token)}`)).status === 200,
};
const signedIn = async (cookie: string) => (await get("/settings", { cookie })).status === 200;

describe("tokens die with what they protect", () => {
  it("revokes older reset links when a newer one is issued, and only those", async () => {
    const user = await makeUser();
    const cookie = await signIn(user.email);
    const change = await emailChangeLink(cookie);
    const confirmation = await confirmationLink(user.id);
    const first = await resetLink(user.email);
    const second = await resetLink(user.email);
    expect(second).not.toBe(first);
    expect(await usable.reset(first)).toBe(false);
    const stale = await postForm("/reset-password", {
      token: first,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(stale.status).toBe(400);
    // Anyone can ask for a reset: that alone ends nothing else.
    expect(await usable.reset(second)).toBe(true);
    expect(await usable.emailChange(change.token)).toBe(true);
    expect(await usable.confirmation(confirmation)).toBe(true);
    expect(await signedIn(cookie)).toBe(true);
  });

  it("revokes every reset, e-mail-change and confirmation link and every session once a reset link is used", async () => {
    const user = await makeUser();
    const [one, two] = [await signIn(user.email), await signIn(user.email)];
    const change = await emailChangeLink(one);
    const confirmation = await confirmationLink(user.id);
    const reset = await resetLink(user.email);
    const done = await postForm("/reset-password", {
      token: reset,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(done.status).toBe(302);
    expect(await usable.reset(reset)).toBe(false);
    expect(await usable.emailChange(change.token)).toBe(false);
    expect((await postForm("/settings/confirm-email", { token: change.token })).status).toBe(400);
    expect(await usable.confirmation(confirmation)).toBe(false);
    expect(await signedIn(one)).toBe(false);
    expect(await signedIn(two)).toBe(false);
    await signIn(user.email, NEW_PASSWORD);
  });

  it("revokes them and the other sessions when the password is changed in Settings, keeping this one", async () => {
    const user = await makeUser();
    const [here, elsewhere] = [await signIn(user.email), await signIn(user.email)];
    const change = await emailChangeLink(here);
    const confirmation = await confirmationLink(user.id);
    const reset = await resetLink(user.email);
    const res = await postForm(
      "/settings",
      { intent: "password", currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { cookie: here },
    );
    expect(res.status).toBe(200);
    expect(await usable.reset(reset)).toBe(false);
    expect(await usable.emailChange(change.token)).toBe(false);
    expect(await usable.confirmation(confirmation)).toBe(false);
    expect(await signedIn(elsewhere)).toBe(false);
    expect(await signedIn(here)).toBe(true);
  });

  it("revokes them and every session when a change of e-mail is confirmed: a reset link sent to the old address dies", async () => {
    const user = await makeUser();
    const cookie = await signIn(user.email);
    const reset = await resetLink(user.email);
    const confirmation = await confirmationLink(user.id);
    const change = await emailChangeLink(cookie);
    expect((await postForm("/settings/confirm-email", { token: change.token })).status).toBe(302);
    expect(await usable.reset(reset)).toBe(false);
    const late = await postForm("/reset-password", {
      token: reset,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(late.status).toBe(400);
    expect(await usable.confirmation(confirmation)).toBe(false);
    expect(await signedIn(cookie)).toBe(false);
    await signIn(change.address);
  });

  it("never changes the e-mail on GET /settings/confirm-email: the page shows a button", async () => {
    const user = await makeUser();
    const cookie = await signIn(user.email);
    const change = await emailChangeLink(cookie);
    for (let i = 0; i < 3; i++) {
      const page = await get(`/settings/confirm-email?token=${encodeURIComponent(change.token)}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Confirm my new email");
    }
    // Still the old address: sign-in with it works, with the new one not.
    await signIn(user.email);
    expect((await postForm("/signin", { email: change.address, password: PASSWORD })).status).toBe(401);
  });
});
