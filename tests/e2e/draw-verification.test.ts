import assert from "node:assert/strict";
import { test } from "node:test";
import { browser, newPage, useBrowser } from "./browser.ts";

// The verification page recomputes a seeded drawn pool's draw in the browser: the digest of the opaque entries.txt,
// the draw log's hash chain, the block header (double SHA-256, proof of work, difficulty floor), its descent from the
// recorded tip and its time, and the winner among the valid entries. The seeded pools are historical and record
// their block's parent as the tip (the fixture holds no earlier headers), so the margin check fails, as it must
// (decision 390).

useBrowser();

test("a visitor verifies a drawn pool in the browser: every check passes but the seed's margin", async () => {
  const page = await newPage(browser);
  await page.goto("/winner-selection");
  const link = page.locator('a[href^="/winner-selection/"]').first();
  const href = await link.getAttribute("href");
  assert.match(href ?? "", /^\/winner-selection\/[0-9a-f-]{36}$/);
  await page.goto(href!);
  await page.getByRole("heading", { name: "Verify a draw" }).waitFor();
  // Entries are listed by opaque key only.
  const firstKey = await page.locator("tbody td").nth(1).innerText();
  assert.match(firstKey.trim(), /^[0-9a-f]{64}/);

  const entriesTxt = page.waitForResponse((response) => response.url().endsWith("/entries.txt"));
  await page.getByRole("button", { name: "Verify in your browser" }).click();
  assert.equal((await entriesTxt).status(), 200);
  const checks = page.locator("ol[aria-live] > li");
  await checks.filter({ hasText: "Block hash picks the winning entry" }).first().waitFor();
  const texts = await checks.allInnerTexts();
  assert.ok(texts.length >= 7, texts.join("\n"));
  const margin = texts.filter((t) => t.includes("past the highest explorer tip"));
  assert.equal(margin.length, 1, texts.join("\n"));
  assert.ok(margin[0]!.includes("✗"), margin[0]);
  for (const text of texts.filter((t) => !margin.includes(t))) assert.ok(text.includes("✓"), `not passed: ${text}`);
  assert.ok(texts.some((t) => t.includes("Block descends from the recorded tip")));
  assert.ok(texts.some((t) => t.includes("Block was mined after the commitment")));
  assert.ok(texts.some((t) => t.includes("Draw log is hash-chained")));
  assert.ok(texts.some((t) => t.includes("equals the published digest")));
  assert.ok(texts.some((t) => t.includes("difficulty of at least 10^12")));
  await page.context().close();
});
