import assert from "node:assert/strict";
import { test } from "node:test";
import { browser, newPage, signUpAndConfirm, useBrowser } from "./browser.ts";

// A visitor fills a cart from two hosts (a /shop card and a purchase page), signs up and signs in: the cart is
// merged into the new account's, paid in one checkout through the local provider, and both orders show on
// /my-orders.

const DESK_MAT = "Hawker Map Desk Mat";
const BASKET = "Hand-woven Rattan Storage Basket";

useBrowser();

test("a visitor's cart is merged at sign-in and paid in one checkout; the orders show on /my-orders", async () => {
  const page = await newPage(browser);

  // A /shop card of a product with sizes and colours asks for them: "Choose options" leads to the product page, whose
  // Add to Cart posts the chosen ones (native posts and links: the visitor's pages have no React). Decision 600.
  await page.goto(`/shop?q=${encodeURIComponent(DESK_MAT)}`);
  assert.equal(await page.getByRole("button", { name: `Add to Cart ${DESK_MAT}` }).count(), 0);
  await page.getByRole("link", { name: `Choose options ${DESK_MAT}` }).click();
  await page.waitForURL("**/product/**");
  await page.getByText("1200 x 600 mm", { exact: false }).click();
  await page.getByText("Monochrome").click();
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await page.waitForURL("**/cart**");
  const deskMat = page.getByRole("region", { name: "Items from Marcus Tan" });
  await deskMat.getByRole("link", { name: DESK_MAT }).waitFor();
  await deskMat.getByText("Size 1200 x 600 mm · Colour Monochrome").waitFor();
  await page.getByRole("link", { name: "Cart 1 item" }).waitFor();

  // The line's size and colour change on /cart, without JavaScript too (a plain form).
  await deskMat.getByRole("combobox", { name: `Size of ${DESK_MAT}` }).selectOption("900 x 400 mm");
  await deskMat.getByRole("combobox", { name: `Colour of ${DESK_MAT}` }).selectOption("Hawker Teal");
  await deskMat.getByRole("button", { name: "Update" }).click();
  await deskMat.getByText("Size 900 x 400 mm · Colour Hawker Teal").waitFor();
  await page.getByRole("link", { name: "Cart 1 item" }).waitFor();

  // The purchase page adds the chosen quantity.
  await page.goto(`/shop?q=${encodeURIComponent(BASKET)}`);
  await page.locator('li[data-product-card] a[href^="/product/"]').first().click();
  await page.getByRole("link", { name: "BUY NOW" }).click();
  await page.waitForURL("**/buy-now/**");
  await page.getByRole("button", { name: "Increase quantity" }).click();
  assert.equal(await page.getByRole("spinbutton", { name: "Quantity" }).inputValue(), "2");
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await page.waitForURL("**/cart**");
  await page.getByRole("region", { name: "Items from Nadia Rahman" }).getByRole("link", { name: BASKET }).waitFor();
  await page.getByRole("link", { name: "Cart 3 items" }).waitFor();
  await page.getByRole("link", { name: "Sign in to check out" }).waitFor();

  // A new account: sign up, confirm, sign in. The visitor's cart becomes the account's.
  const email = `cart-${Date.now()}@e2e.tribe`;
  await signUpAndConfirm(page, { name: "Cart Shopper", email, password: "cart-password-2026" });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("cart-password-2026");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/signin");
  await page.goto("/cart?shipTo=MY");
  await page.getByRole("link", { name: "Cart 3 items" }).waitFor();
  await page.getByRole("region", { name: "Items from Marcus Tan" }).getByRole("link", { name: DESK_MAT }).waitFor();
  await page.getByRole("region", { name: "Items from Nadia Rahman" }).getByRole("link", { name: BASKET }).waitFor();
  const basketQuantity = page.getByRole("spinbutton", { name: `Quantity of ${BASKET}` });
  assert.equal(await basketQuantity.inputValue(), "2");

  // One checkout for both hosts.
  await page.getByRole("button", { name: "Checkout" }).click();
  await page.getByRole("heading", { name: /Test checkout/ }).waitFor();
  await page.getByLabel("Full name").fill("Cart Shopper");
  await page.getByLabel("Street address").fill("3 Jalan Ampang");
  await page.getByLabel("City").fill("Kuala Lumpur");
  await page.getByLabel("Postal code").fill("50450");
  await page.getByLabel(/Country/).fill("MY");
  await page.getByRole("button", { name: "Pay with card (test)" }).click();
  await page.waitForURL("**/payment/success**");
  await page.getByRole("heading", { name: "Payment successful!" }).waitFor();

  await page.goto("/my-orders");
  await page.getByText(DESK_MAT).first().waitFor();
  await page.getByText(BASKET).first().waitFor();
  // The paid items left the cart.
  assert.equal(await page.getByRole("link", { name: /^Cart \d+ items?$/ }).count(), 0);
  await page.getByRole("link", { name: "Cart", exact: true }).first().waitFor();
  await page.context().close();
});
