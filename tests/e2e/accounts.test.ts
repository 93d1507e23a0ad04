import assert from "node:assert/strict";
import { test } from "node:test";
import { browser, confirmEmailFromOutbox, newPage, useBrowser } from "./browser.ts";

useBrowser();

test("a visitor uses the mobile menu, signs up, confirms the e-mail, signs in and sees the dashboard", async () => {
  const page = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto("/");
  await page.getByRole("heading", { name: "Group-buy ecommerce with the most transparent prize pool" }).waitFor();

  // The mobile menu opens, shows the visitor links, and closes again.
  const open = page.getByRole("button", { name: "Open menu" });
  await open.click();
  const menu = page.locator("#mobile-menu");
  await menu.getByRole("link", { name: "Track Your Order" }).waitFor({ state: "visible" });
  assert.equal(await page.getByRole("button", { name: "Close menu" }).getAttribute("aria-expanded"), "true");
  await page.getByRole("button", { name: "Close menu" }).click();
  await menu.waitFor({ state: "hidden" });

  // Sign up through the menu.
  await page.getByRole("button", { name: "Open menu" }).click();
  await menu.getByRole("link", { name: "Sign Up" }).click();
  await page.getByRole("heading", { name: "Create Your Account" }).waitFor();

  const email = `e2e-${Date.now()}@example.com`;
  await page.getByLabel("Name").fill("Mei Lin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("a-good-password");
  await page.getByLabel("Confirm Password").fill("a-different-one");
  await page.getByLabel("Category").selectOption("Art & Creativity");
  await page.getByLabel("Country").selectOption("SG");
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByText("Passwords do not match!").waitFor();
  assert.equal(await page.getByLabel("Name").inputValue(), "Mei Lin");

  await page.getByLabel("Password", { exact: true }).fill("a-good-password");
  await page.getByLabel("Confirm Password").fill("a-good-password");
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL("**/congratulations");
  await page.getByText("We have sent a link to your email.").waitFor();
  await page.getByRole("link", { name: "Sign In to Your Dashboard" }).waitFor();

  // The confirmation link from the mail (the dev outbox in demo mode) confirms the address and leads to sign-in.
  await confirmEmailFromOutbox(page, email);
  await page.getByRole("heading", { name: "Welcome Back!" }).waitFor();
  await page.getByLabel("Email").fill(email);
  // A wrong password is told in a toast that goes after 3 s, and only there.
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  const refused = page
    .getByRole("region", { name: "Notifications" })
    .getByRole("status")
    .filter({ hasText: "Failed to sign in. Please check your email and password." });
  await refused.waitFor();
  assert.equal(
    await page.getByText("Failed to sign in. Please check your email and password.").count(),
    1,
    "said once, in the toast",
  );
  await refused.waitFor({ state: "detached", timeout: 6000 });
  assert.equal(await page.getByLabel("Email").inputValue(), email, "the e-mail stays in the form");
  await page.getByLabel("Password").fill("a-good-password");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL("**/dashboard");
  await page.getByText("Successfully signed in!").waitFor();
  await page.getByRole("link", { name: /Customer Orders/ }).waitFor();
  await page.context().close();
});
