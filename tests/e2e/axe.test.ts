import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { browser, newPage, signInDemo, useBrowser } from "./browser.ts";

// axe-core on the key pages, as a visitor and signed in: no serious or critical accessibility violations.

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

useBrowser();

/** axe's serious and critical violations of WCAG 2.1 A/AA on the page as it is now. */
async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

function describe(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    )
    .join("\n");
}

/** Each page's serious and critical violations, as "path: rule (impact): help at targets" lines. */
async function check(page: Page, path: string, failures: string[]) {
  await page.goto(path);
  await page.locator("#main").waitFor();
  await page.waitForLoadState("networkidle");
  const violations = await seriousViolations(page);
  if (violations.length) failures.push(`${path}:\n${describe(violations)}`);
}

test("a visitor's key pages have no serious or critical axe violations", async () => {
  const page = await newPage(browser, { bypassCSP: true });
  await page.goto("/shop");
  const productHref = await page.locator('li[data-product-card] a[href^="/product/"]').first().getAttribute("href");
  assert.ok(productHref, "the shop lists a product");
  const productId = productHref.split("/").pop()!;
  // A cart with an item, so /cart is checked with its lines and forms.
  // (The first card that adds in one click: a product with sizes or colours to choose links to its page instead.)
  await page
    .locator("li[data-product-card]")
    .getByRole("button", { name: /^Add to Cart/ })
    .first()
    .click();
  await page.waitForURL("**/cart**");
  const failures: string[] = [];
  for (const path of [
    "/",
    "/shop",
    `/product/${productId}`,
    `/buy-now/${productId}`,
    "/cart",
    "/profile/nadia-home",
    "/guess-win",
    "/signin",
  ]) {
    await check(page, path, failures);
  }
  assert.deepEqual(failures, []);
  await page.context().close();
});

test("a signed-in fan's and host's key pages have no serious or critical axe violations", async () => {
  const fan = await newPage(browser, { bypassCSP: true });
  await signInDemo(fan, "fan@demo.tribe");
  const failures: string[] = [];
  for (const path of ["/", "/shop", "/guess-win", "/my-orders", "/profile/nadia-home"])
    await check(fan, path, failures);
  await fan.context().close();

  const host = await newPage(browser, { bypassCSP: true });
  await signInDemo(host, "host@demo.tribe");
  await check(host, "/dashboard", failures);
  await host.context().close();
  assert.deepEqual(failures, []);
});
