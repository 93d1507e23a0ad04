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
  const text = await readFile((await download.path())!, "latin1");
  // The seed's file (scripts/seed/digital-file.ts): a PDF of the product's name, its host, and a thank-you.
  assert.match(text, /^%PDF-1\.4\n/);
  assert.match(text, /\(Thank you for supporting the tribe!\) Tj/);
  assert.match(text, /%%EOF\n$/);
  assert.match(download.suggestedFilename(), /\.pdf$/);
  await page.context().close();
});
