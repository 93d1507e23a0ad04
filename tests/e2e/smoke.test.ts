import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { launchBrowser, newPage } from "./browser.ts";

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

test("the home page loads and its nav bar links to the shop", async () => {
  const page = await newPage(browser);
  const response = await page.goto("/");
  assert.equal(response?.status(), 200);

  const shop = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shop", exact: true });
  await shop.waitFor({ state: "visible" });
  assert.equal(await shop.getAttribute("href"), "/shop");
  await page.context().close();
});
