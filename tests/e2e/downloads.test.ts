import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { browser, newPage, signInDemo, useBrowser } from "./browser.ts";

useBrowser();

test("the demo fan downloads a seeded digital order's file from /my-orders", async () => {
  const page = await newPage(browser, { acceptDownloads: true });
  await signInDemo(page, "fan@demo.tribe", "/my-orders?type=digital");
  const button = page.getByRole("button", { name: "Download" }).first();
  await button.waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  assert.equal(await download.failure(), null);
  const text = await readFile((await download.path())!, "utf8");
  // The seed's file: the product's name, its host, and a thank-you (scripts/seed.ts).
  assert.match(text, /Thank you for supporting the tribe!/);
  assert.match(download.suggestedFilename(), /\.txt$/);
  await page.context().close();
});
