import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { baseUrl, browser, DEMO_PASSWORD, linkFromOutbox, newPage, signInWithForm, useBrowser } from "./browser.ts";

// Money flowing back, in the browser: the host refunds an order from /orders and the pool shrinks live; a fan asks
// for a return and the host approves it; a host deposit reaches the local checkout page.

const PRODUCT = "Hand-woven Rattan Storage Basket";
const HOST_PROFILE = "/profile/nadia-home";

useBrowser();

async function signedIn(email: string): Promise<Page> {
  const page = await newPage(browser);
  await signInWithForm(page, email, DEMO_PASSWORD);
  return page;
}

/** The fan buys the basket (Medium) through the local checkout; returns the order number the success page shows. */
async function buyBasket(fan: Page): Promise<string> {
  await fan.goto(`/shop?q=${encodeURIComponent("Rattan Storage")}`);
  await fan.getByText(PRODUCT).first().waitFor();
  await fan.locator('li[data-product-card] a[href^="/product/"]').first().click();
  await fan.getByRole("link", { name: "BUY NOW" }).click();
  await fan.waitForURL("**/buy-now/**");
  await fan.getByRole("heading", { name: PRODUCT }).waitFor();
  await fan.locator("label", { hasText: "Medium" }).first().click();
  await fan.getByRole("button", { name: "Buy Now" }).click();
  await fan.getByRole("heading", { name: /Test checkout/ }).waitFor();
  await fan.getByLabel("Full name").fill("Sofia Tan");
  await fan.getByLabel("Street address").fill("12 Jalan Bukit Bintang");
  await fan.getByLabel("City").fill("Kuala Lumpur");
  await fan.getByLabel("Postal code").fill("55100");
  await fan.getByLabel(/Country/).fill("MY");
  await fan.getByRole("button", { name: "Pay with card (test)" }).click();
  await fan.waitForURL("**/payment/success**");
  await fan.getByRole("heading", { name: "Payment successful!" }).waitFor();
  const number =
    (
      await fan
        .locator("dt", { hasText: /^Order$/ })
        .locator("xpath=following-sibling::dd[1]")
        .textContent()
    )?.trim() ?? "";
  assert.match(number, /^ORD-/, "the success page names the order");
  return number;
}

/** The host's row of an order on /orders (searched by its number). */
async function hostOrderRow(host: Page, orderNumber: string) {
  await host.goto(`/orders?tab=orders&q=${encodeURIComponent(orderNumber)}`);
  const row = host.locator("tr", { hasText: orderNumber });
  await row.waitFor();
  return row;
}

function poolText(page: Page): Promise<string> {
  const stat = page.locator("p", { hasText: /^Prize Pool/ }).locator("xpath=following-sibling::p[1]");
  return stat
    .first()
    .textContent()
    .then((t) => t?.trim() ?? "");
}

test("the host refunds an order from /orders; the fan sees it on /my-orders; the profile's pool amount drops live", async () => {
  const fan = await signedIn("fan@demo.tribe");
  const orderNumber = await buyBasket(fan);

  // Anyone watching the host's profile sees the pool live.
  const watcher = await newPage(browser);
  await watcher.goto(HOST_PROFILE);
  await watcher.getByLabel("live").first().waitFor();
  await watcher.waitForTimeout(500); // let the pool's socket connect
  const before = await poolText(watcher);
  assert.ok(before.length > 0, "the profile shows a pool amount");

  const host = await signedIn("host@demo.tribe");
  const row = await hostOrderRow(host, orderNumber);
  await row.locator("summary", { hasText: "Refund" }).click();
  const form = row.getByRole("form", { name: `Refund order ${orderNumber}` });
  // Too much is refused on the server with the amount that is left.
  await form.getByLabel(/^Amount/).fill("99999");
  await form.getByRole("button", { name: "Refund" }).click();
  await form.getByRole("alert").filter({ hasText: "You can refund at most" }).waitFor();
  // The whole order, with a reason the fan reads.
  const full = (await form.getByLabel(/^Amount/).getAttribute("value")) ?? "";
  await form.getByLabel(/^Amount/).fill(full);
  await form.getByLabel(/^Reason/).fill("Sold out of this colour, sorry");
  await form.getByRole("button", { name: "Refund" }).click();
  await host.getByText(`Refunded USD ${full} on order ${orderNumber}`).waitFor();
  await (await hostOrderRow(host, orderNumber)).getByText("Refunded", { exact: true }).first().waitFor();

  // Without a reload, the profile's pool amount drops.
  await watcher.waitForFunction(
    (old) => {
      const label = Array.from(document.querySelectorAll("p")).find((p) => p.textContent?.startsWith("Prize Pool"));
      return label?.nextElementSibling?.textContent?.trim() !== old;
    },
    before,
    { timeout: 15_000 },
  );
  const afterText = await poolText(watcher);
  const amount = (t: string) => Number(t.replace(/[^\d.]/g, ""));
  assert.ok(amount(afterText) < amount(before), `the pool went down (${before} -> ${afterText})`);

  await fan.goto("/my-orders");
  const item = fan.locator("li", { hasText: orderNumber });
  await item.getByText("Refunded", { exact: true }).first().waitFor();
  await item.getByText("Refunded by the host: Sold out of this colour, sorry").waitFor();
  // The fan's mail links to the order on the site as it is served (SITE_ORIGIN), whatever its port.
  const link = await linkFromOutbox(fan, "fan@demo.tribe", `Refund of USD ${full} for order ${orderNumber}`);
  assert.ok(link.startsWith(`${baseUrl()}/`), `the refund mail links to ${link}`);
  await Promise.all([fan.context().close(), host.context().close(), watcher.context().close()]);
});

test("a host refunds a seeded demo order in full: it is refunded, and its status can no longer be edited", async () => {
  // Another demo host's shop (the other tests use Nadia's): the seed records its orders' payments as a checkout does.
  const host = await signedIn("dewi@demo.tribe");
  await host.goto("/orders?tab=orders");
  const first = host.locator("tbody tr").first();
  const orderNumber = ((await first.locator("td").first().textContent()) ?? "").trim();
  assert.match(orderNumber, /^ORD-/, "the host has seeded orders");
  const row = await hostOrderRow(host, orderNumber);
  await row.locator("summary", { hasText: "Refund" }).click();
  const form = row.getByRole("form", { name: `Refund order ${orderNumber}` });
  const full = (await form.getByLabel(/^Amount/).getAttribute("value")) ?? "";
  await form.getByRole("button", { name: "Refund" }).click();
  await host.getByText(`Refunded USD ${full} on order ${orderNumber}`).waitFor();
  const after = await hostOrderRow(host, orderNumber);
  await after.getByText("Refunded", { exact: true }).first().waitFor();
  assert.equal(await after.getByRole("button", { name: "Edit" }).count(), 0, "a refunded order offers no status edit");
  await host.goto("/orders?tab=orders&status=refunded");
  await host.locator("tr", { hasText: orderNumber }).waitFor();
  await host.context().close();
});

test("a fan asks for a return of a delivered order; the host approves it; the fan sees the refund", async () => {
  const fan = await signedIn("fan@demo.tribe");
  const orderNumber = await buyBasket(fan);

  // The host ships it, then marks it Delivered: the 7-day return window opens ("completed" alone does not).
  const host = await signedIn("host@demo.tribe");
  const row = await hostOrderRow(host, orderNumber);
  await row.getByRole("button", { name: "Edit" }).click();
  await row.getByLabel("Status").selectOption("shipped");
  await row.getByPlaceholder("Tracking number").fill("TRK-E2E-RETURN");
  await row.getByLabel("Carrier").selectOption("DHL");
  await row.getByRole("button", { name: "Save" }).click();
  await host.getByText(`Order ${orderNumber} updated successfully!`).waitFor();
  const shipped = await hostOrderRow(host, orderNumber);
  await shipped.getByRole("button", { name: "Edit" }).click();
  await shipped.getByLabel("Status").selectOption("delivered");
  await shipped.getByRole("button", { name: "Save" }).click();
  await host.getByText(`Order ${orderNumber} updated successfully!`).waitFor();

  await fan.goto(`/order/${orderNumber}`);
  await fan.getByText("7-day return policy").waitFor();
  await fan.getByLabel("Why do you want to return it?").fill("The weave is looser than in the photos");
  await fan.getByRole("button", { name: "Request a return" }).click();
  await fan.getByText("Return requested", { exact: true }).first().waitFor();

  await host.goto("/orders");
  const request = host.getByRole("listitem", { name: `Return request for order ${orderNumber}` });
  await request.getByText("The weave is looser than in the photos").waitFor();
  await request.getByRole("button", { name: /^Approve and refund USD / }).click();
  await host.getByText(`Return of order ${orderNumber} approved`).waitFor();

  await fan.goto("/my-orders");
  const item = fan.locator("li", { hasText: orderNumber });
  await item.getByText("Return approved").first().waitFor();
  await item.getByText("Refunded", { exact: true }).first().waitFor();
  await fan.goto(`/order/${orderNumber}`);
  await fan.getByRole("heading", { name: "Refunds" }).waitFor();
  await Promise.all([fan.context().close(), host.context().close()]);
});

test("a host deposit from the prize pool settings reaches the local checkout page", async () => {
  const host = await signedIn("host@demo.tribe");
  await host.goto("/prize-pool-settings");
  await host.getByLabel("Deposit amount (USD)").fill("25");
  await host.getByRole("button", { name: "Deposit", exact: true }).click();
  await host.getByRole("heading", { name: /Test checkout/ }).waitFor();
  assert.match(new URL(host.url()).pathname, /^\/api\/local-checkout\//);
  await host
    .getByText(/USD 25\.00/)
    .first()
    .waitFor();
  await host.context().close();
});
