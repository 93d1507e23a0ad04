import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { browser, DEMO_PASSWORD, newPage, useBrowser } from "./browser.ts";

// A visitor's read-only pages come without React: forms post natively, and /page.js keeps every pool figure live
// over one WebSocket per page.

const PRODUCT = "Hand-woven Rattan Storage Basket";

useBrowser();

/** Every WebSocket the page opens (one per document is expected) and the React Router client modules it loads. */
function watch(page: Page) {
  const seen = { sockets: [] as string[], reactModules: 0 };
  page.on("websocket", (ws) => seen.sockets.push(ws.url()));
  page.on("request", (request) => {
    if (/\/assets\/entry\.client-[\w-]+\.js$/.test(request.url())) seen.reactModules += 1;
  });
  return seen;
}

test("a visitor's shop needs no React: filters and Buy Now post natively, and the pool on every card updates live over one socket", async () => {
  const shop = await newPage(browser);
  const seen = watch(shop);
  await shop.goto("/shop");
  await shop.getByRole("heading", { name: "Shop", exact: true }).waitFor();

  // The currency select posts the choice by itself (page.js), as the hydrated app does; the page comes back in it.
  const back = shop.waitForResponse(
    (r) => r.request().isNavigationRequest() && r.request().method() === "GET" && new URL(r.url()).pathname === "/shop",
  );
  await shop.getByLabel("Currency").selectOption("USD");
  await back;
  await shop.getByRole("searchbox").first().fill("Rattan Storage");
  seen.sockets.length = 0; // from here on: the sockets of the search results' document
  await shop.keyboard.press("Enter");
  await shop.waitForURL(/q=Rattan/);
  // The search still shows the chosen currency (remembered in a cookie, not the address), and the select shows it.
  assert.doesNotMatch(shop.url(), /currency=/);
  assert.equal(await shop.getByLabel("Currency").inputValue(), "USD");
  const card = shop.locator("li[data-product-card]", { hasText: PRODUCT }).first();
  await card.waitFor();
  const amount = card.locator("[data-pool-show=amount]");
  await shop.waitForFunction(() => document.querySelectorAll("[data-pool]").length > 0);
  await shop.waitForTimeout(500); // the page's socket connects
  const before = (await amount.textContent())?.trim();
  assert.ok(before, "the card shows its host's pool");
  assert.equal(seen.sockets.length, 1, `one WebSocket for the page (${seen.sockets.join(", ")})`);
  assert.match(seen.sockets[0]!, /\/api\/pools\/live\?ids=/);

  // A signed-in fan buys the product in another browser: the visitor's card follows without a reload.
  const fan = await newPage(browser);
  await fan.goto("/signin");
  await fan.getByLabel("Email").fill("fan@demo.tribe");
  await fan.getByLabel("Password").fill(DEMO_PASSWORD);
  await fan.getByRole("button", { name: "Sign In", exact: true }).click();
  await fan.waitForURL("**/dashboard");
  await card
    .getByRole("link", { name: PRODUCT, exact: true })
    .getAttribute("href")
    .then((href) => fan.goto(href!.replace("/product/", "/buy-now/")));
  await fan.getByRole("button", { name: "Buy Now" }).click();
  await fan.getByRole("heading", { name: /Test checkout/ }).waitFor();
  await fan.getByLabel("Full name").fill("Sofia Tan");
  await fan.getByLabel("Street address").fill("12 Jalan Bukit Bintang");
  await fan.getByLabel("City").fill("Kuala Lumpur");
  await fan.getByLabel("Postal code").fill("55100");
  await fan.getByLabel(/Country/).fill("MY");
  await fan.getByRole("button", { name: "Pay with card (test)" }).click();
  await fan.waitForURL("**/payment/success**");

  await shop.waitForFunction(
    (old) => document.querySelector("li[data-product-card] [data-pool-show=amount]")?.textContent?.trim() !== old,
    before,
    { timeout: 15_000 },
  );
  assert.equal(seen.sockets.length, 1, "still one socket");
  assert.equal(seen.reactModules, 0, "the visitor's shop loaded no React Router client");

  // Buy Now posts natively and the answer is rendered by the server.
  await card.getByRole("link", { name: PRODUCT, exact: true }).click();
  await shop.getByRole("link", { name: "BUY NOW" }).click();
  await shop.waitForURL("**/buy-now/**");
  await shop.getByRole("button", { name: "Increase quantity" }).click();
  assert.equal(await shop.getByRole("spinbutton", { name: "Quantity" }).inputValue(), "2");
  await shop.getByRole("button", { name: "Buy Now" }).click();
  await shop.getByRole("alert").filter({ hasText: "Please sign in to make a payment" }).waitFor();
  assert.equal(seen.reactModules, 0, "buy-now loaded no React Router client either");
  await fan.context().close();
  await shop.context().close();
});

test("the home page's featured creators follow their pools live; a signed-in fan's home hydrates", async () => {
  const home = await newPage(browser);
  const seen = watch(home);
  await home.goto("/");
  await home.locator("[data-pool-show=amount]").first().waitFor();
  await home.waitForTimeout(500);
  assert.equal(seen.sockets.length, 1);
  assert.equal(seen.reactModules, 0);
  const scripts = await home
    .locator("script[type=module]")
    .evaluateAll((list) => list.map((s) => s.getAttribute("src")));
  assert.ok(scripts.includes("/page.js"), "the page script is loaded");
  assert.ok(
    scripts.every((src) => src !== null && !src.startsWith("/assets/")),
    `no built client module (${scripts.join(", ")})`,
  );

  const fan = await newPage(browser);
  const fanSeen = watch(fan);
  await fan.goto("/signin");
  await fan.getByLabel("Email").fill("fan@demo.tribe");
  await fan.getByLabel("Password").fill(DEMO_PASSWORD);
  await fan.getByRole("button", { name: "Sign In", exact: true }).click();
  await fan.waitForURL("**/dashboard");
  await fan.goto("/");
  await fan.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  assert.ok(fanSeen.reactModules >= 1, "the fan's pages hydrate");
  await fan.context().close();
  await home.context().close();
});
