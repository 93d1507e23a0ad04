import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { browser, newPage, signInDemo, useBrowser } from "./browser.ts";

// Every screen a visitor, a fan, a host and the admin reach from the nav opens cleanly in a real browser: answered
// 200, no uncaught error, and nothing on the console (React reports a hydration mismatch there, Chromium a refused
// resource or a policy violation). A page that renders on the server but breaks once it hydrates fails here.
// They are opened on a phone's screen, and none may be wider than it: wide tables scroll inside their own box,
// and the page itself never scrolls sideways.

useBrowser();

/** Opens each path in turn on one signed-in (or visitor) page and returns what went wrong, one line per problem. */
async function visit(page: Page, paths: string[]): Promise<string[]> {
  const problems: string[] = [];
  let current = "";
  page.on("pageerror", (error) => problems.push(`${current}: uncaught ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning")
      problems.push(`${current}: console ${message.type()} ${message.text()}`);
  });
  for (const path of paths) {
    current = path;
    const response = await page.goto(path);
    if (response?.status() !== 200) problems.push(`${path}: status ${response?.status()}`);
    await page.waitForLoadState("networkidle");
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    if (overflow > 0) problems.push(`${path}: ${overflow} px wider than the phone's screen`);
  }
  return problems;
}

/** A phone's screen (an iPhone 14's CSS pixels), as most fans see the site. */
const PHONE = { viewport: { width: 390, height: 844 } };

/** The first link on `path` whose href starts with `prefix` (a real id to open), or null. */
async function firstLink(page: Page, path: string, prefix: string): Promise<string | null> {
  await page.goto(path);
  const link = page.locator(`a[href^="${prefix}"]`).first();
  return (await link.count()) ? link.getAttribute("href") : null;
}

test("a visitor's screens open without errors", async () => {
  const page = await newPage(browser, PHONE);
  const product = await firstLink(page, "/shop", "/product/");
  const profile = await firstLink(page, "/shop", "/profile/");
  assert.ok(product && profile, "the seeded shop links to a product and to its host's profile");
  const buyNow = await firstLink(page, product, "/buy-now/");
  const problems = await visit(page, [
    "/",
    "/shop",
    "/shop?page=2",
    "/explore",
    "/guess-win",
    profile,
    `${profile}?tab=games`,
    `${profile}?tab=winner`,
    `${profile}/shop`,
    product,
    ...(buyNow ? [buyNow] : []),
    "/winner-selection",
    "/official-rules",
    "/responsible-play",
    "/terms",
    "/privacy",
    "/signin",
    "/signup",
    "/forgot-password",
  ]);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test("a fan's screens open without errors", async () => {
  const page = await newPage(browser, PHONE);
  await signInDemo(page, "fan@demo.tribe");
  const order = await firstLink(page, "/my-orders", "/order/");
  const chat = await firstLink(page, "/chat", "/chat/");
  const groupBuy = await firstLink(page, "/shop", "/group-buy-detail/");
  const problems = await visit(page, [
    "/",
    "/shop",
    "/explore",
    "/guess-win",
    "/cart",
    "/my-orders",
    ...(order ? [order] : []),
    "/chat",
    ...(chat ? [chat] : []),
    ...(groupBuy ? [groupBuy] : []),
    "/tribe",
    "/settings",
    "/prize-pool",
    "/shipping-tracking",
  ]);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test("a host's screens open without errors", async () => {
  const page = await newPage(browser, PHONE);
  await signInDemo(page, "host@demo.tribe");
  const product = await firstLink(page, "/shop-management", "/edit-product/");
  const game = await firstLink(page, "/guess-win-management", "/view-game/");
  const viewProduct = await firstLink(page, "/shop-management", "/view-product/");
  const transaction = await firstLink(page, "/revenue", "/transaction/");
  const problems = await visit(page, [
    "/dashboard",
    "/shop-management",
    "/add-product",
    ...(product ? [product] : []),
    ...(viewProduct ? [viewProduct] : []),
    "/guess-win-management",
    "/create-guess-win",
    ...(game ? [game] : []),
    "/group-buy-management",
    "/orders",
    "/voucher-management",
    "/revenue",
    ...(transaction ? [transaction] : []),
    "/revenue-management",
    "/ads-revenue",
    "/payouts",
    "/prize-pool-management",
    "/prize-pool-settings",
    "/prize-pool-details",
    "/settings",
  ]);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test("the admin's screen opens without errors", async () => {
  const page = await newPage(browser, PHONE);
  await signInDemo(page, "admin@demo.tribe");
  assert.deepEqual(await visit(page, ["/admin", "/dashboard"]), []);
  await page.context().close();
});

test("a product named with one word longer than the screen does not widen the pages that show it", async () => {
  const page = await newPage(browser, PHONE);
  await signInDemo(page, "host@demo.tribe");
  const edit = await firstLink(page, "/shop-management", "/edit-product/");
  assert.ok(edit, "the demo host has a product to edit");
  const id = edit.split("/").pop()!;
  const rename = async (name: string) => {
    await page.goto(edit);
    await page.getByLabel("Product name").fill(name);
    await Promise.all([
      page.waitForURL("**/shop-management**"),
      page.locator('form button[type="submit"]').last().click(),
    ]);
  };
  const original = await (async () => {
    await page.goto(edit);
    return page.getByLabel("Product name").inputValue();
  })();
  await rename("Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen Mug");
  try {
    const problems = await visit(page, [
      `/view-product/${id}`,
      `/product/${id}`,
      `/delete-product/${id}`,
      `/buy-now/${id}`,
    ]);
    assert.deepEqual(problems, []);
  } finally {
    await rename(original);
  }
  await page.context().close();
});
