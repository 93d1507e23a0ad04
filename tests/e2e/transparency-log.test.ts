import assert from "node:assert/strict";
import { test } from "node:test";
import { browser, newPage, useBrowser } from "./browser.ts";

// The public commitment log (decision 550): a visitor keeps the head /transparency shows, and on a seeded drawn pool's
// verification page the browser fetches the log's JSON pages, recomputes every hash, and proves the log extends the
// kept head and chains from the pool's record to the head. A head the log no longer holds (a chain rewritten since)
// is exposed.

useBrowser();

test("a visitor keeps the log's head and the verification page proves the log extends it", async () => {
  const page = await newPage(browser);
  await page.goto("/transparency");
  await page.getByRole("heading", { name: "Transparency" }).waitFor();
  const seq = (await page.getByTestId("log-head-seq").innerText()).replace("#", "").trim();
  const hash = (await page.getByTestId("log-head-hash").innerText()).trim();
  assert.match(seq, /^\d+$/);
  assert.ok(Number(seq) >= 2, "the seeded drawn pools' commitments are in the log");
  assert.match(hash, /^[0-9a-f]{64}$/);
  // The seeded pools' commitments, with their entries by source.
  const records = page.getByTestId("log-record");
  assert.ok((await records.count()) >= 3);
  assert.match(await page.getByTestId("entry-counts").first().innerText(), /\d+ /);

  await page.goto("/winner-selection");
  const href = await page.locator('a[href^="/winner-selection/"]').first().getAttribute("href");
  assert.match(href ?? "", /^\/winner-selection\/[0-9a-f-]{36}$/);
  await page.goto(href!);
  await page.getByRole("heading", { name: "Public commitment log" }).waitFor();
  assert.match(await page.getByTestId("pool-log-record").innerText(), /^#\d+ [0-9a-f]{64}$/);
  assert.equal(await page.getByTestId("pool-log-head").innerText(), `#${seq} ${hash}`);

  // The head kept: every check passes.
  await page.getByLabel("Kept record number").fill(seq);
  await page.getByLabel("Kept record hash").fill(hash);
  const pages = page.waitForResponse((response) => response.url().includes("/transparency.json?from="));
  await page.getByRole("button", { name: "Check the log" }).click();
  assert.equal((await pages).status(), 200);
  const checks = page.getByTestId("log-checks").locator("li");
  await checks.filter({ hasText: "The log extends the head you kept" }).waitFor();
  const passed = await checks.allInnerTexts();
  assert.equal(passed.length, 3, passed.join("\n"));
  for (const text of passed) assert.ok(text.includes("✓"), `not passed: ${text}`);
  assert.ok(passed.some((t) => t.includes("This pool's records are in the public log")));
  assert.ok(passed.some((t) => t.includes("The log chains from this pool's record to the head")));

  // A head whose hash is not at its number any more (the log was rewritten since it was kept) is exposed.
  const other = hash.replace(/^./, (c) => (c === "0" ? "1" : "0"));
  await page.getByLabel("Kept record hash").fill(other);
  await page.getByRole("button", { name: "Check the log" }).click();
  const kept = checks.filter({ hasText: "The log extends the head you kept" });
  await kept.filter({ hasText: "the log was rewritten since" }).waitFor();
  assert.ok((await kept.innerText()).includes("✗"));

  // A hash that is not one is refused before anything is fetched.
  await page.getByLabel("Kept record hash").fill("not a hash");
  await page.getByRole("button", { name: "Check the log" }).click();
  assert.equal(
    await page.getByRole("alert").filter({ hasText: "hexadecimal" }).innerText(),
    "Enter the record hash you kept (64 hexadecimal digits).",
  );
  await page.context().close();
});
