import assert from "node:assert/strict";
import { test } from "node:test";
import { browser, newPage, signInWithForm, signUpAndConfirm, useBrowser } from "./browser.ts";

// The bell in the nav bar counts a fan's unread notifications; a purchase adds its confirmation, opening it from
// /notifications leads to the order and the count goes down (docs/product.md#notifications).

// A seeded voucher product of the demo host (scripts/seed).
const PRODUCT = "Nyonya Kuih Workshop";

useBrowser();

test("a purchase rings the bell once; opening the notification reads it", async () => {
  const page = await newPage(browser);
  const email = `bell-${Date.now()}@example.com`;
  const password = "bell-password-2026";
  await signUpAndConfirm(page, { name: "Bell Fan", email, password });
  await signInWithForm(page, email, password, "/shop");
  const bell = page.getByRole("link", { name: /^Notifications/ });
  await bell.waitFor();
  assert.equal(await bell.getAttribute("aria-label"), "Notifications");
  assert.equal(await page.getByTestId("notification-count").count(), 0);

  await page.getByRole("searchbox").first().fill("Kuih Workshop");
  await page.keyboard.press("Enter");
  await page.locator('li[data-product-card] a[href^="/product/"]', { hasText: PRODUCT }).first().click();
  await page.getByRole("link", { name: "BUY NOW" }).click();
  await page.waitForURL("**/buy-now/**");
  await page.locator("label", { hasText: "Single seat" }).first().click();
  await page.getByRole("button", { name: "Buy Now" }).click();
  // A new fan has given no date of birth: the purchase would earn no entry, said once before paying (decision 520).
  await page.getByText("Press Buy Now again to buy it without an entry.").waitFor();
  await page.getByRole("button", { name: "Buy Now" }).click();
  await page.getByRole("heading", { name: /Test checkout/ }).waitFor();
  await page.getByRole("button", { name: "Pay with card (test)" }).click();
  await page.waitForURL("**/payment/success**");
  await page.getByRole("heading", { name: "Payment successful!" }).waitFor();

  await page.goto("/shop");
  assert.equal((await page.getByTestId("notification-count").textContent())?.trim(), "1");
  assert.equal(await bell.getAttribute("aria-label"), "Notifications, 1 unread");

  await bell.click();
  await page.waitForURL("**/notifications");
  const entry = page.getByRole("button", { name: `Unread: Order confirmed: ${PRODUCT}` });
  await entry.waitFor();
  await page.getByText(/Voucher code: VCH-[A-Z0-9]{8}/).waitFor();
  await entry.click();
  await page.waitForURL("**/order/ORD-*");
  // The URL changes before React renders the revalidated nav bar: wait for the count to go, then check it is gone.
  await page.getByTestId("notification-count").waitFor({ state: "detached", timeout: 5_000 });
  assert.equal(await page.getByTestId("notification-count").count(), 0);
  assert.equal(await bell.getAttribute("aria-label"), "Notifications");
  await page.close();
});
