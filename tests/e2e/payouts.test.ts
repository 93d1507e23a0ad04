import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { browser, newPage, signInDemo, useBrowser } from "./browser.ts";

// Money out in the browser, on the seeded demo data (scripts/seed.ts): the demo host's earnings (sales, ad revenue,
// a drawn pool's 25%) are in the ledger, and two historical pools were drawn and their prizes paid.

const HOST = "host@demo.tribe";

useBrowser();

/** Connects a payout account through the local provider's test onboarding, from /payouts. */
async function connectPayoutAccount(page: Page) {
  await page.goto("/payouts");
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Add payout method" }).click();
  await page.waitForURL("**/payouts/local-onboarding/**");
  await page.getByRole("button", { name: "Complete onboarding" }).click();
  await page.waitForURL((url) => url.pathname === "/payouts");
  await page.getByText("Verified", { exact: true }).waitFor();
  await page.getByText("Default", { exact: true }).waitFor();
}

test("a host connects a payout method (local provider), withdraws, and sees the request completed", async () => {
  const page = await newPage(browser);
  await signInDemo(page, HOST, "/revenue-management");
  // Before a payout method is connected, the page says so.
  await page.getByText("none verified yet").waitFor();

  await connectPayoutAccount(page);

  await page.goto("/revenue-management");
  await page.waitForLoadState("networkidle");
  const before = (await page.getByTestId("withdrawable-balance").textContent()) ?? "";
  const cents = Math.round(Number(before.replace(/[^\d.]/g, "")) * 100);
  assert.ok(cents >= 5_000, `the seeded demo host has earnings to withdraw (withdrawable ${before})`);

  await page.getByRole("button", { name: "Withdraw", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Amount").fill("50");
  await dialog.getByRole("button", { name: "Withdraw", exact: true }).click();
  const done = page.getByRole("status").filter({ hasText: "Withdrawal of USD 50.00" });
  await done.waitFor();
  assert.match((await done.textContent()) ?? "", /Withdrawal of USD 50\.00 sent\./);
  const payoutId = (await page.getByTestId("payout-id").textContent())?.trim() ?? "";
  assert.match(payoutId, /^[0-9a-f-]{36}$/);
  assert.match((await done.textContent()) ?? "", /Estimated arrival: /);
  // The balance went down by the amount and its fee (once the page's data has reloaded after the action).
  await page.waitForFunction(
    (old) => document.querySelector('[data-testid="withdrawable-balance"]')?.textContent !== old,
    before,
  );
  const afterText = (await page.getByTestId("withdrawable-balance").textContent()) ?? "";
  assert.ok(
    Math.round(Number(afterText.replace(/[^\d.]/g, "")) * 100) <= cents - 5_000,
    `withdrawable after: ${afterText}`,
  );

  await page.goto("/payouts");
  const row = page.getByTestId("payout-row").filter({ hasText: "Withdrawal" }).first();
  await row.waitFor();
  assert.match((await row.textContent()) ?? "", /USD 50\.00/);
  assert.match((await row.textContent()) ?? "", /Completed/);
  await page.context().close();
});

test("a seeded winner finds the draw's mail and sees the main prize paid on /payouts", async () => {
  // The seed's drawn pools are historical and fully settled: the draw mailed each winner at the time, and the prize
  // was paid after the settlement period (prize transfers themselves are covered by tests/payouts.test.ts).
  const outbox = await newPage(browser);
  await outbox.goto(`/dev/outbox?q=${encodeURIComponent("in a Tribe prize pool")}`);
  const mail = outbox
    .locator("li")
    .filter({ hasText: /You won USD [\d,.]+ in a Tribe prize pool!/ })
    .first();
  await mail.waitFor();
  const winnerEmail = (await mail.locator("span.font-medium").first().textContent())?.trim() ?? "";
  const prize = /You won (USD [\d,.]+) in a Tribe prize pool!/.exec((await mail.textContent()) ?? "")?.[1] ?? "";
  assert.match(winnerEmail, /@demo\.tribe$/);
  assert.ok(prize, "the mail names the prize");
  await outbox.context().close();

  const page = await newPage(browser);
  await signInDemo(page, winnerEmail, "/payouts");
  const row = page.getByTestId("payout-row").filter({ hasText: "Prize" }).filter({ hasText: prize }).first();
  await row.waitFor();
  assert.match((await row.textContent()) ?? "", /Completed/);
  // Paid: nothing asks the winner for a payout method for it.
  assert.equal(await page.getByText(`You won the main prize of ${prize}!`).count(), 0);
  await page.context().close();
});

test("a visitor recomputes a drawn pool's mini prize winners in the browser from its block hash", async () => {
  const page = await newPage(browser);
  await page.goto("/winner-selection");
  const href = await page.locator('a[href^="/winner-selection/"]').first().getAttribute("href");
  assert.match(href ?? "", /^\/winner-selection\/[0-9a-f-]{36}$/);
  await page.goto(href!);
  await page.waitForLoadState("networkidle");
  await page.getByRole("heading", { name: "Mini prizes" }).waitFor();
  await page.getByRole("button", { name: "Check the mini prize winners" }).click();
  const outcome = page.getByRole("status").filter({ hasText: "Recomputed:" }).first();
  await outcome.waitFor();
  const text = (await outcome.textContent()) ?? "";
  assert.match(text, /^✓ Recomputed: #\d+.* — equals the recorded winners\.$/);
  await page.context().close();
});
