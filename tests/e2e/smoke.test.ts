import assert from "node:assert/strict";
import { test } from "node:test";
import { browser, newPage, useBrowser } from "./browser.ts";

useBrowser();

test("the home page loads and its nav bar links to the shop", async () => {
  const page = await newPage(browser);
  const response = await page.goto("/");
  assert.equal(response?.status(), 200);

  const shop = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shop", exact: true });
  await shop.waitFor({ state: "visible" });
  assert.equal(await shop.getAttribute("href"), "/shop");
  await page.context().close();
});
