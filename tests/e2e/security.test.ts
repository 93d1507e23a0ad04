// The Content-Security-Policy in a real browser: pages run (static pages' speculation rules and /page.js, the
// hydrated app for a signed-in fan) with no violation, and form-action lets checkout hand over to the local
// checkout page and to Stripe's hosted checkout while refusing any other site.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { baseUrl, browser, DEMO_PASSWORD, newPage, signInWithForm, useBrowser } from "./browser.ts";

useBrowser();

/** Chromium reports every CSP violation on the console ("Refused to …"); collect them per page. */
function watchViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to/i.test(text)) violations.push(text);
  });
  return violations;
}

async function firstBuyNowPath(page: Page): Promise<string> {
  await page.goto("/shop");
  // Each card names its product page; the purchase page of the same product is /buy-now/{id}.
  const href = await page.locator('li[data-product-card] a[href^="/product/"]').first().getAttribute("href");
  assert.ok(href, "the shop links to a product page");
  return href.replace("/product/", "/buy-now/");
}

test("pages run under the CSP: a visitor's static pages and a signed-in fan's hydrated app, no violations", async () => {
  const page = await newPage(browser);
  const violations = watchViolations(page);
  const home = await page.goto("/");
  const policy = home?.headers()["content-security-policy"] ?? "";
  assert.match(policy, /script-src 'self' 'nonce-[A-Za-z0-9_-]+'/);
  assert.match(policy, /frame-ancestors 'none'/);
  await page.goto("/shop");
  await page.waitForLoadState("networkidle");

  await signInWithForm(page, "fan@demo.tribe", DEMO_PASSWORD, "/shop");
  // The app hydrated (root.tsx marks it) and client-side navigation works.
  await page.waitForSelector("html[data-hydrated=true]");
  // Add to Cart puts the item in the cart; the product page's BUY NOW leads to the purchase page.
  await page.locator('li[data-product-card] a[href^="/product/"]').first().click();
  await page.getByRole("link", { name: "BUY NOW" }).click();
  await page.waitForURL("**/buy-now/**");
  await page.getByRole("button", { name: "Buy Now" }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.hydrated), "true");
  await page.goto("/my-orders");
  await page.waitForSelector("html[data-hydrated=true]");
  assert.deepEqual(violations, []);
  await page.context().close();
});

test("form-action: a native checkout form is redirected to the local checkout page", async () => {
  // Without JavaScript the Buy Now form is a plain form post, so the browser itself follows the action's redirect.
  const page = await newPage(browser, { javaScriptEnabled: false });
  const violations = watchViolations(page);
  await page.goto("/signin");
  await page.getByLabel("Email").fill("fan@demo.tribe");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL("**/dashboard");
  await page.goto(await firstBuyNowPath(page));
  const radio = page.getByRole("radio").first();
  if (await radio.count()) await radio.check();
  await page.getByRole("button", { name: "Buy Now" }).click();
  await page.waitForURL("**/api/local-checkout/**");
  await page.getByRole("heading", { name: /Test checkout/ }).waitFor();
  assert.deepEqual(violations, []);
  await page.context().close();
});

/**
 * A page of the app (with its real policy) whose form post is answered with a 303 to `target`, as the Buy Now
 * action answers in Stripe mode. Records the other sites the browser then asks for (tests run offline: whether the
 * browser goes on to ask is what the policy decides) and the CSP reports.
 */
async function formRedirectingTo(context: BrowserContext, path: string, target: string) {
  const page = await context.newPage();
  const violations = watchViolations(page);
  const asked: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(baseUrl())) asked.push(request.url());
  });
  await page.route(`**${path}`, (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 303, headers: { Location: target } })
      : route.continue(),
  );
  await page.goto(path);
  const submit = () =>
    page.evaluate(() => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = location.pathname;
      document.body.append(form);
      form.submit();
    });
  return { page, violations, asked, submit };
}

test("form-action: a form's redirect to Stripe Checkout is followed, to any other site refused", async () => {
  const page = await newPage(browser);
  const path = await firstBuyNowPath(page);

  const stripe = "https://checkout.stripe.com/c/pay/cs_test_a1b2c3";
  const toStripe = await formRedirectingTo(page.context(), path, stripe);
  const asked = toStripe.page.waitForEvent("request", (request) => request.url() === stripe);
  await toStripe.submit();
  assert.equal((await asked).isNavigationRequest(), true);
  assert.deepEqual(toStripe.violations, []);

  const evil = await formRedirectingTo(page.context(), path, "https://evil.example/steal");
  const reported = evil.page.waitForEvent("console", (message) => message.text().includes("form-action"));
  await evil.submit();
  await reported;
  await evil.page.waitForTimeout(500);
  assert.deepEqual(
    evil.asked.filter((url) => url.includes("evil.example")),
    [],
  );
  // Chromium names the form's own URL in the report (it hides where a redirect pointed).
  assert.ok(
    evil.violations.some((v) => v.includes("form-action") && v.includes("has been blocked")),
    `a form-action violation was reported: ${evil.violations.join(" | ")}`,
  );
  await page.context().close();
});

test("static files carry the security baseline (public/_headers); the offline page's button runs under it", async () => {
  const page = await newPage(browser);
  const violations = watchViolations(page);
  await page.goto("/");
  const stylesheet = await page.locator('link[rel="stylesheet"]').first().getAttribute("href");
  assert.ok(stylesheet?.startsWith("/assets/"), "the home page links its built stylesheet");
  for (const path of ["/sw.js", "/pwa.js", "/page.js", "/manifest.webmanifest", "/icons/icon-192.png", stylesheet!]) {
    const res = await page.request.get(path);
    assert.equal(res.status(), 200, path);
    const headers = res.headers();
    assert.match(headers["content-security-policy"] ?? "", /frame-ancestors 'none'/, path);
    assert.match(headers["content-security-policy"] ?? "", /object-src 'none'/, path);
    assert.equal(headers["x-frame-options"], "DENY", path);
    assert.equal(headers["strict-transport-security"], "max-age=63072000; includeSubDomains", path);
    assert.equal(headers["referrer-policy"], "strict-origin-when-cross-origin", path);
    assert.equal(headers["x-content-type-options"], "nosniff", path);
    assert.match(headers["permissions-policy"] ?? "", /camera=\(\)/, path);
  }
  const offline = await page.goto("/offline.html");
  assert.equal(offline?.status(), 200);
  assert.match(offline?.headers()["content-security-policy"] ?? "", /frame-ancestors 'none'/);
  await page.getByRole("heading", { name: "You're offline" }).waitFor();
  const reloaded = page.waitForEvent("load");
  await page.getByRole("button", { name: "Try again" }).click();
  await reloaded;
  assert.deepEqual(violations, []);
  await page.context().close();
});
