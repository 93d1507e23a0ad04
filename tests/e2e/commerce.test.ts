import assert from "node:assert/strict";
import { test } from "node:test";
import type { BrowserContext } from "playwright-core";
import { browser, newPage, signInDemo, useBrowser } from "./browser.ts";
import { solidPng } from "./make-png.ts";

useBrowser();

test("a host adds a product with an uploaded image, a fan buys it, the host ships it and the fan tracks it", async () => {
  const name = `Pandan Candle ${Date.now()}`;
  const host = await newPage(browser);
  await signInDemo(host, "host@demo.tribe");

  // The host adds a product, uploading its image to R2 through the Worker.
  await host.goto("/add-product");
  await host.getByLabel("Product name").fill(name);
  await host.getByLabel("Description").fill("Hand-poured soy candle that smells like a kueh stall at dawn.");
  await host.getByLabel("Product type").selectOption("physical");
  await host.locator("#sizes\\.0\\.name").fill("200 g");
  await host.locator("#sizes\\.0\\.price").fill("18.50");
  await host.locator("#sizes\\.0\\.units").fill("12");
  await host.locator("#colors\\.0\\.name").fill("Pandan green");
  await host.locator("#colors\\.0\\.units").fill("12");
  await host
    .getByLabel("Upload image")
    .first()
    .setInputFiles({ name: "candle.png", mimeType: "image/png", buffer: solidPng(64, 64, [34, 139, 34]) });
  await host.waitForFunction(() =>
    (document.getElementById("images.0") as HTMLInputElement | null)?.value.startsWith("/media/products/"),
  );
  await host.getByRole("button", { name: "Add Product" }).click();
  await host.waitForURL("**/shop");

  // A fan finds it in the shop and buys it through the local checkout.
  const fanContext: BrowserContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const fan = await fanContext.newPage();
  await signInDemo(fan, "fan@demo.tribe");
  await fan.goto(`/shop?q=${encodeURIComponent(name)}`);
  const image = fan.locator("img[src^='/media/products/']").first();
  await image.waitFor();
  assert.ok(
    await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 64),
    "the uploaded image is served",
  );
  // Add to Cart puts the item in the cart; the product page's BUY NOW leads to the purchase page.
  await fan.locator('li[data-product-card] a[href^="/product/"]').first().click();
  await fan.getByRole("link", { name: "BUY NOW" }).click();
  await fan.waitForURL("**/buy-now/**");
  await fan.getByRole("button", { name: "Buy Now" }).click();
  await fan.getByRole("heading", { name: /Test checkout/ }).waitFor();
  await fan.getByLabel("Full name").fill("Sofia Tan");
  await fan.getByLabel("Street address").fill("8 Lorong Kulit");
  await fan.getByLabel("City").fill("George Town");
  await fan.getByLabel("Postal code").fill("10460");
  await fan.getByLabel(/Country/).fill("MY");
  await fan.getByRole("button", { name: "Pay with card (test)" }).click();
  await fan.getByRole("heading", { name: "Payment successful!" }).waitFor();
  const orderNumber = (
    await fan.locator("dt", { hasText: "Order" }).locator("xpath=following-sibling::dd[1]").first().textContent()
  )?.trim();
  assert.match(orderNumber ?? "", /^ORD-[A-Z0-9]{8}$/);

  // The host marks it shipped with a tracking number.
  const tracking = `TRK-${Date.now().toString().slice(-8)}`;
  await host.goto(`/orders?tab=orders&q=${orderNumber}`);
  const row = host.locator("tr, li", { hasText: orderNumber! }).first();
  await row.getByRole("button", { name: "Edit" }).click();
  await row.getByRole("combobox").selectOption("shipped");
  await row.getByLabel(/Tracking number/i).fill(tracking);
  await row.getByRole("button", { name: "Save" }).click();
  await host.getByText(`Order ${orderNumber} updated successfully!`).waitFor();

  // The fan (or anyone) finds it on the public tracking page.
  await fan.goto("/shipping-tracking");
  await fan.getByRole("textbox").first().fill(tracking);
  await fan.keyboard.press("Enter");
  await fan.getByText(orderNumber!).first().waitFor();
  await fan
    .getByText(/shipped/i)
    .first()
    .waitFor();
  await host.context().close();
  await fanContext.close();
});
