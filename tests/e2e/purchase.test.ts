import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { browser, DEMO_PASSWORD, newPage, useBrowser } from "./browser.ts";

const PRODUCT = "Hand-woven Rattan Storage Basket";
const HOST_PROFILE = "/profile/nadia-home";

useBrowser();

async function poolAmount(page: Page): Promise<string> {
  const stat = page.locator("p", { hasText: /^Prize Pool/ }).locator("xpath=following-sibling::p[1]");
  return (await stat.first().textContent())?.trim() ?? "";
}

test("a visitor browses the shop, signs in, buys through the local checkout and watches the pool grow", async () => {
  const shop = await newPage(browser);
  await shop.goto("/shop");
  await shop.getByRole("searchbox").first().fill("Rattan Storage");
  await shop.keyboard.press("Enter");
  await shop.getByText(PRODUCT).first().waitFor();
  // Add to Cart puts the item in the cart; the product page's BUY NOW leads to the purchase page.
  // The product's own card (not the first card of the list the search replaces, which may still be showing).
  await shop.locator('li[data-product-card] a[href^="/product/"]', { hasText: PRODUCT }).first().click();
  await shop.getByRole("link", { name: "BUY NOW" }).click();
  await shop.waitForURL("**/buy-now/**");
  await shop.getByRole("heading", { name: PRODUCT }).waitFor();

  // A visitor is asked to sign in before paying, and comes back to the product afterwards.
  await shop.getByRole("button", { name: "Buy Now" }).click();
  const alert = shop.getByRole("alert").filter({ hasText: "Please sign in to make a payment" });
  await alert.waitFor();
  await alert.getByRole("link", { name: "Sign in" }).click();
  await shop.waitForURL("**/signin**");
  await shop.getByLabel("Email").fill("fan@demo.tribe");
  await shop.getByLabel("Password").fill(DEMO_PASSWORD);
  await shop.getByRole("button", { name: "Sign In", exact: true }).click();
  await shop.waitForURL("**/buy-now/**");

  // The host's profile, open in another tab of the same browser, shows the pool live.
  const profile = await shop.context().newPage();
  await profile.goto(HOST_PROFILE);
  await profile.getByLabel("live").first().waitFor();
  await profile.waitForTimeout(500); // let the pool's socket connect
  const before = await poolAmount(profile);
  assert.ok(before.length > 0, "the profile shows a pool amount");

  await shop.locator("label", { hasText: "Medium" }).first().click();
  assert.equal(await shop.getByRole("radio", { name: /Medium/ }).isChecked(), true);
  await shop.getByRole("button", { name: "Buy Now" }).click();
  await shop.getByRole("heading", { name: /Test checkout/ }).waitFor();
  await shop.getByLabel("Full name").fill("Sofia Tan");
  await shop.getByLabel("Street address").fill("12 Jalan Bukit Bintang");
  await shop.getByLabel("City").fill("Kuala Lumpur");
  await shop.getByLabel("Postal code").fill("55100");
  await shop.getByLabel(/Country/).fill("MY");
  await shop.getByRole("button", { name: "Pay with card (test)" }).click();
  await shop.waitForURL("**/payment/success**");
  await shop.getByRole("heading", { name: "Payment successful!" }).waitFor();
  const entryText = await shop
    .locator("dt", { hasText: "Your prize pool entry number" })
    .locator("xpath=following-sibling::dd[1]")
    .textContent();
  const entry = Number(entryText?.replace("#", ""));
  assert.ok(Number.isInteger(entry) && entry >= 0, `an entry number is shown (${entryText})`);

  // Without a reload, the profile's pool amount grows.
  await profile.waitForFunction(
    (old) => {
      const label = Array.from(document.querySelectorAll("p")).find((p) => p.textContent?.startsWith("Prize Pool"));
      return label?.nextElementSibling?.textContent?.trim() !== old;
    },
    before,
    { timeout: 15_000 },
  );
  // Live messages carry no user id (nothing public may tell whose entry it is): the buyer's own entry numbers come
  // with the page, so they show after a reload.
  await profile.reload();
  await profile.getByText(new RegExp(`Your entry numbers: .*\\b${entry}\\b`)).waitFor({ timeout: 15_000 });

  await shop.goto("/my-orders");
  await shop.getByText(PRODUCT).first().waitFor();
  await shop.getByText(`Prize pool entry #${entry}`).first().waitFor();
  await shop.context().close();
});
