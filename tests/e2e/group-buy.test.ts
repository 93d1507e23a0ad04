import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { baseUrl, browser, DEMO_PASSWORD, newPage, signInWithForm, useBrowser } from "./browser.ts";

// A group buy from start to end: a host creates one with three tiers; two fans join with several products in one
// checkout each (one after sharing it); the end passes and the cron finalises it: the final tier's difference is
// refunded to both fans, the host's revenue shows the final figures and the pool gives back its share of the
// refunds.

const HOST = "yuki@demo.tribe";
const FANS = ["priya.nair@demo.tribe", "hannah.goh@demo.tribe"] as const;
const POSTCARDS = "Kyoto Seasons Riso Postcards";
const SKETCHBOOK = "Washi Sketchbook";
const BRUSH_KIT = "Sumi-e Brush Starter Kit";

useBrowser();

/** The first money figure in a text, in cents ("USD 1,234.50 of USD 2,000.00" -> 123450). */
function cents(text: string | null): number {
  const match = (text ?? "").match(/([\d,]+)\.(\d{2})/);
  assert.ok(match, `a money figure in "${text}"`);
  return Number(match[1]!.replace(/,/g, "")) * 100 + Number(match[2]);
}

async function poolCents(host: Page): Promise<number> {
  await host.goto("/prize-pool");
  return cents(await host.locator("p.text-3xl").first().textContent());
}

/** Chooses `quantity` of a product on the selection page (its first size and colour). */
async function choose(page: Page, product: string, quantity: number) {
  for (let i = 0; i < quantity; i++) await page.getByRole("button", { name: `More ${product}` }).click();
}

/** Pays on the local checkout page; the products are physical, so it asks for an address the host ships to. */
async function payLocally(page: Page) {
  await page.getByRole("heading", { name: /Test checkout/ }).waitFor();
  await page.getByLabel("Full name").fill("Group Buyer");
  await page.getByLabel("Street address").fill("3 Jalan Ampang");
  await page.getByLabel("City").fill("Kuala Lumpur");
  await page.getByLabel("Postal code").fill("50450");
  await page.getByLabel(/Country/).fill("MY");
  await page.getByRole("button", { name: "Pay with card (test)" }).click();
  await page.waitForURL("**/payment/success**");
  await page.getByRole("heading", { name: "Payment successful!" }).waitFor();
}

test("a group buy with three tiers: two fans join, the end passes, the cron refunds the final tier and the pool gives back its share", async () => {
  const host = await newPage(browser);
  await signInWithForm(host, HOST, DEMO_PASSWORD, "/group-buy-management?new=1");
  const poolBefore = await poolCents(host);

  // Create: target RM 1,000, tiers RM 0 at 5%, RM 500 at 10%, RM 1,000 at 15%, ending tomorrow (the end date is a
  // day; it ends at 23:59:59.999 UTC).
  await host.goto("/group-buy-management?new=1");
  const endDate = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  await host.getByLabel("Group buy name").fill("Kyoto Studio Group Buy");
  await host
    .getByLabel("Description")
    .fill("Stationery and brushes from the studio: the more we buy together, the bigger the discount.");
  await host.getByLabel("Target amount (RM)").fill("1000");
  await host.getByLabel("End date").fill(endDate);
  await host.getByRole("button", { name: "Remove tier 4" }).click();
  await host.getByLabel("Tier 2 sales threshold (RM)").fill("500");
  await host.getByLabel("Tier 2 discount (%)").fill("10");
  await host.getByLabel("Tier 3 sales threshold (RM)").fill("1000");
  await host.getByLabel("Tier 3 discount (%)").fill("15");
  for (const name of [POSTCARDS, SKETCHBOOK, BRUSH_KIT])
    await host.getByRole("checkbox", { name: new RegExp(name) }).check();
  await host.getByRole("button", { name: "Create Group Buy" }).click();
  await host.waitForURL((url) => url.pathname === "/group-buy-management" && !url.search.includes("new"));
  const view = host.getByRole("link", { name: "View" }).first();
  const href = await view.getAttribute("href");
  assert.ok(href?.startsWith("/group-buy-detail/"), `a View link to the group buy (${href})`);
  const detailPath = href ?? "";
  const groupBuyId = detailPath.split("/").pop()!;

  // Fan 1 shares first (2 entries), then joins with 4 postcards (USD 18) and 2 sketchbooks (USD 21): USD 114.
  const first = await newPage(browser, { permissions: ["clipboard-read", "clipboard-write"] });
  await signInWithForm(first, FANS[0], DEMO_PASSWORD, detailPath);
  await first.getByRole("button", { name: "Share for 2x Entry" }).click();
  await first.getByRole("button", { name: "Link Copied!" }).waitFor();
  await first.getByText("Double entry unlocked").waitFor();
  await first.goto(`/group-buy-product-selection/${groupBuyId}`);
  await choose(first, POSTCARDS, 4);
  await choose(first, SKETCHBOOK, 2);
  await first.getByRole("button", { name: "Join Group Buy" }).click();
  await payLocally(first);

  // Fan 2 joins without sharing: 2 brush kits (USD 64) and 1 postcard set: USD 146. Sales: USD 260 = RM 1,181.82.
  const second = await newPage(browser);
  await signInWithForm(second, FANS[1], DEMO_PASSWORD, `/group-buy-product-selection/${groupBuyId}`);
  await choose(second, BRUSH_KIT, 2);
  await choose(second, POSTCARDS, 1);
  await second.getByRole("button", { name: "Join Group Buy" }).click();
  await payLocally(second);

  // The pool got the group-buy share (10%) of both checkouts; the revenue is pending while the group buy runs.
  const poolAfterSales = await poolCents(host);
  assert.equal(poolAfterSales - poolBefore, 11_400 / 10 + 14_600 / 10);
  await host.goto("/revenue");
  const row = host.getByRole("row", { name: /Kyoto Studio Group Buy/ });
  await row.getByText("Pending").waitFor();

  // The end passes: the cron runs at a time after the end date and finalises the group buy at the 15% tier.
  const endAt = Date.parse(`${endDate}T23:59:59.999Z`);
  const cron = await fetch(
    `${baseUrl()}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}&time=${endAt + 60_000}`,
  );
  assert.equal(cron.status, 200, await cron.text());

  // Each order is refunded 15% of what it paid: fan 1 USD 10.80 + 6.30, fan 2 USD 19.20 + 2.70 (USD 39.00 in all).
  await host.goto("/revenue");
  await row.getByText("USD 260.00").waitFor();
  await row.getByText("USD 39.00").waitFor();
  await row.getByText("USD 221.00").waitFor();
  assert.equal(await row.getByText("Pending").count(), 0);
  // The pool gives back its 10% of every refund.
  assert.equal(await poolCents(host), poolAfterSales - 3_900 / 10);
  await host.goto(detailPath);
  await host
    .getByText(/Completed|completed/)
    .first()
    .waitFor();

  // Both fans see each order's refund on /my-orders.
  for (const [fan, refunds] of [
    [first, ["USD 10.80 of USD 72.00 refunded", "USD 6.30 of USD 42.00 refunded"]],
    [second, ["USD 19.20 of USD 128.00 refunded", "USD 2.70 of USD 18.00 refunded"]],
  ] as const) {
    await fan.goto("/my-orders");
    for (const line of refunds) await fan.getByText(line).first().waitFor();
    await fan
      .getByText(/Group buy refund/)
      .first()
      .waitFor();
  }
  for (const page of [host, first, second]) await page.context().close();
});
