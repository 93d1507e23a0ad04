import assert from "node:assert/strict";
import { test } from "node:test";
import { baseUrl, browser, newPage, signInDemo, useBrowser } from "./browser.ts";

// Issue 29's free routes in the browser (decision 530). A pool with paid, free and postal entries, closed and drawn
// on a real block (the seed's pool drawn on block 840,000: the browser tests have no block source of their own), is
// verified on its verification page: entries.txt names each entry's source, and every check passes but the seed's
// margin (decision 390). Then a fan enters an open pool for free through the form, and the platform owner records a
// postal card into the same pool, beside the paid entries already in it.

useBrowser();

/** The drawn pool whose entries.txt names free, postal and paid entries. */
async function mixedDrawnPool(): Promise<string> {
  const page = await newPage(browser);
  await page.goto("/winner-selection");
  const hrefs = await page
    .locator('a[href^="/winner-selection/"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  await page.context().close();
  for (const href of new Set(hrefs.filter((h) => /^\/winner-selection\/[0-9a-f-]{36}$/.test(h)))) {
    const text = await (await fetch(`${baseUrl()}${href}/entries.txt`)).text();
    if (/:free(:void)?\n/.test(text) && /:postal(:void)?\n/.test(text) && /:paid(:void)?\n/.test(text)) return href;
  }
  throw new Error(`no drawn pool with free, postal and paid entries among ${hrefs.join(", ")}`);
}

test("free, postal and paid entries in one pool, drawn and verified in the browser", async () => {
  const href = await mixedDrawnPool();
  const page = await newPage(browser);
  await page.goto(href);
  await page.getByRole("heading", { name: "Verify a draw" }).waitFor();
  const entriesTxt = page.waitForResponse((response) => response.url().endsWith("/entries.txt"));
  await page.getByRole("button", { name: "Verify in your browser" }).click();
  assert.equal((await entriesTxt).status(), 200);
  const checks = page.locator("ol[aria-live] > li");
  await checks.filter({ hasText: "Block hash picks the winning entry" }).first().waitFor();
  const texts = await checks.allInnerTexts();
  const margin = texts.filter((t) => t.includes("past the highest explorer tip"));
  assert.equal(margin.length, 1, texts.join("\n"));
  for (const text of texts.filter((t) => !margin.includes(t))) assert.ok(text.includes("✓"), `not passed: ${text}`);
  assert.ok(
    texts.some((t) => t.includes("equals the published digest")),
    texts.join("\n"),
  );
  const list = texts.find((t) => t.includes("By source:"));
  assert.ok(list, texts.join("\n"));
  assert.match(list, /\d+ paid/);
  assert.match(list, /\d+ free/);
  assert.match(list, /\d+ postal/);
  assert.ok(list.includes("every entry has the same chance"), list);
  await page.context().close();
});

test("a fan enters an open pool for free and the platform owner records a postal card into it", async () => {
  const fan = await newPage(browser);
  await signInDemo(fan, "fan@demo.tribe", "/profile/nadia-home");
  await fan.getByRole("link", { name: "Enter for free" }).click();
  await fan.getByRole("heading", { name: "Enter for free" }).waitFor();
  await fan.getByText("If you win, your surname and region are published on /winners").waitFor();
  await fan.getByLabel("Withhold my name if I win").check();
  await fan.getByRole("button", { name: "Enter for free" }).click();
  const done = fan.getByRole("status").filter({ hasText: "Your entry number is #" });
  await done.waitFor();
  const entry = Number(/#(\d+)/.exec(await done.innerText())?.[1]);
  assert.ok(Number.isInteger(entry) && entry >= 0, await done.innerText());
  // A second free entry the same day is refused.
  await fan.goto("/profile/nadia-home");
  await fan.getByRole("link", { name: "Enter for free" }).click();
  await fan.getByRole("button", { name: "Enter for free" }).click();
  await fan.getByText("You have already entered this pool for free today.").waitFor();
  // The free entry is one of the fan's entry numbers in the pool, like a paid one.
  await fan.goto("/profile/nadia-home");
  await fan.getByText(new RegExp(`Your entry numbers: .*\\b${entry}\\b`)).waitFor();
  await fan.context().close();

  const admin = await newPage(browser);
  await signInDemo(admin, "admin@demo.tribe", "/admin");
  const card = `PC-E2E-${Date.now()}`;
  await admin.getByLabel("Host's e-mail").fill("host@demo.tribe");
  await admin.getByLabel("Entrant's e-mail").fill("fan@demo.tribe");
  await admin.getByLabel("Card reference").fill(card);
  await admin.getByLabel("Received on (UTC)").fill(new Date().toISOString().slice(0, 10));
  await admin.getByRole("button", { name: "Record postal entry" }).click();
  const recorded = admin.getByRole("status").filter({ hasText: `Card ${card} recorded: entry #` });
  await recorded.waitFor();
  assert.ok(Number(/#(\d+)/.exec(await recorded.innerText())?.[1]) > entry, await recorded.innerText());
  // The same card again counts once.
  await admin.getByLabel("Host's e-mail").fill("host@demo.tribe");
  await admin.getByLabel("Entrant's e-mail").fill("fan@demo.tribe");
  await admin.getByLabel("Card reference").fill(card);
  await admin.getByLabel("Received on (UTC)").fill(new Date().toISOString().slice(0, 10));
  await admin.getByRole("button", { name: "Record postal entry" }).click();
  await admin.getByText("This card was recorded already; it counts once.").waitFor();
  await admin.context().close();
});
