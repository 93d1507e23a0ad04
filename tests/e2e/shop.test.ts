import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { browser, DEMO_PASSWORD, newPage, signInWithForm, useBrowser } from "./browser.ts";

// A signed-in fan's /shop hydrates, with cards that are plain markup (docs/decisions/120-shop-card-markup.md): the
// like button goes through a fetcher (no reload), the name link navigates on the client, a product with sizes and
// colours is chosen on its page before it goes in the cart, the filters submit themselves, and the nav's account menu is the same at every width.

const PRODUCT = "Hand-woven Rattan Storage Basket";

useBrowser();

/** Marks the current document; `sameDocument` is then true until a full page load replaces it. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { shopMark: boolean }).shopMark = true));
  return () => page.evaluate(() => (window as unknown as { shopMark?: boolean }).shopMark === true);
}

test("a signed-in fan likes and unlikes a card without a reload, opens it on the client and adds it to the cart", async () => {
  const page = await newPage(browser);
  await signInWithForm(page, "fan@demo.tribe", DEMO_PASSWORD);
  await page.goto(`/shop?q=${encodeURIComponent(PRODUCT)}`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const card = page.locator("li[data-product-card]", { hasText: PRODUCT }).first();
  const like = card.getByRole("button", { name: `Favourite ${PRODUCT}` });
  const sameDocument = await markDocument(page);

  // The like toggles at once and the server keeps it: the state survives a reload, and so does the unlike.
  const before = await like.getAttribute("aria-pressed");
  const toggled = before === "true" ? "false" : "true";
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/product/"));
  await like.click();
  assert.equal((await answered).status(), 200);
  assert.equal(await like.getAttribute("aria-pressed"), toggled);
  assert.ok(await sameDocument(), "the like did not reload the page");
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  assert.equal(await like.getAttribute("aria-pressed"), toggled);
  const back = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/product/"));
  await like.click();
  await back;
  assert.equal(await like.getAttribute("aria-pressed"), before);

  // The currency select posts the choice by itself and comes back; the card shows its prices in that currency.
  const chosen = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/currency"));
  await page.getByLabel("Currency").selectOption("USD");
  await chosen;
  await card
    .getByText(/USD \d/)
    .first()
    .waitFor();
  assert.equal(await page.getByLabel("Currency").inputValue(), "USD", "the chosen currency shows in the select");
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  assert.equal(await page.getByLabel("Currency").inputValue(), "USD", "and still after a reload");
  // The choice is kept on the fan's profile: back to their own (MYR) for the other tests.
  const restored = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/currency"));
  await page.getByLabel("Currency").selectOption("MYR");
  await restored;
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");

  // The name link is a plain link that React Router follows without loading a new document.
  const stillSame = await markDocument(page);
  await card.getByRole("link", { name: PRODUCT, exact: true }).click();
  await page.waitForURL("**/product/**");
  await page.getByRole("link", { name: "BUY NOW" }).waitFor();
  assert.ok(await stillSame(), "the product page was rendered on the client");

  // The card of a product with sizes and colours asks for them: "Choose options" opens its page, whose Add to Cart
  // adds the chosen ones (decision 600).
  await page.goBack();
  await page.waitForURL("**/shop**");
  await page
    .getByRole("link", { name: `Choose options ${PRODUCT}` })
    .first()
    .click();
  await page.waitForURL("**/product/**");
  await page.getByText("Walnut").click();
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await page.waitForURL("**/cart**");
  await page.getByRole("link", { name: PRODUCT }).first().waitFor();
  await page
    .getByText(/Colour Walnut/)
    .first()
    .waitFor();
  await page.context().close();
});

test("a signed-in fan's profile tiles open a product and its Buy Now page on the client", async () => {
  const page = await newPage(browser);
  await signInWithForm(page, "fan@demo.tribe", DEMO_PASSWORD);
  await page.goto("/profile/nadia-home");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const tile = page.locator("li[data-product-card]").first();
  const name = (await tile.locator("p").first().textContent()) ?? "";
  const sameDocument = await markDocument(page);
  await tile.getByRole("link", { name: "Details" }).click();
  await page.waitForURL("**/product/**");
  await page.getByRole("heading", { name }).waitFor();
  await page.goBack();
  await tile.getByRole("link", { name: "Buy Now" }).click();
  await page.waitForURL("**/buy-now/**");
  await page.getByRole("heading", { name }).waitFor();
  assert.ok(await sameDocument(), "the product and Buy Now pages were rendered on the client");
  await page.context().close();
});

test("a signed-in fan's /shop cards count down once the page runs, all from one ticker", async () => {
  const page = await newPage(browser);
  await signInWithForm(page, "fan@demo.tribe", DEMO_PASSWORD);
  await page.clock.install();
  await page.goto(`/shop?q=${encodeURIComponent(PRODUCT)}`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const timer = page
    .locator("li[data-product-card]", { hasText: PRODUCT })
    .first()
    .getByText(/^\d+D \d+H \d+M$/);
  const served = (await timer.textContent()) ?? "";
  const [days, hours] = served.split(" ").map((part) => Number.parseInt(part, 10));
  // Three hours later (the page's clock), the card says so without a reload.
  await page.clock.fastForward("03:00:00");
  await page.waitForFunction(
    ([product, was]) => {
      const card = Array.from(document.querySelectorAll("li[data-product-card]")).find((li) =>
        li.textContent?.includes(product),
      );
      const text = Array.from(card?.querySelectorAll("span") ?? [])
        .map((s) => s.textContent ?? "")
        .find((t) => /^\d+D \d+H \d+M$/.test(t));
      return text !== undefined && text !== was;
    },
    [PRODUCT, served] as const,
  );
  const later = (await timer.textContent()) ?? "";
  const [laterDays, laterHours] = later.split(" ").map((part) => Number.parseInt(part, 10));
  assert.equal(days! * 24 + hours! - (laterDays! * 24 + laterHours!), 3, `${served} -> ${later}`);
  await page.context().close();
});

test("/buy-now: the heart and the wishlist button show one like, toggled at once and kept by the server", async () => {
  const page = await newPage(browser);
  await signInWithForm(page, "fan@demo.tribe", DEMO_PASSWORD);
  await page.goto(`/shop?q=${encodeURIComponent(PRODUCT)}`);
  const id = await page
    .locator("li[data-product-card]", { hasText: PRODUCT })
    .first()
    .getAttribute("data-product-card");
  await page.goto(`/buy-now/${id}`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const heart = page.getByRole("button", { name: /^(Like|Unlike) this product$/ });
  const wishlist = page.getByRole("button", { name: /^(Add to|Remove from) Wishlist$/ });
  const likes = async () => Number(((await page.getByText(/^\d+ likes$/).textContent()) ?? "").split(" ")[0]);
  const sameDocument = await markDocument(page);

  const before = await heart.getAttribute("aria-pressed");
  const toggled = before === "true" ? "false" : "true";
  const count = await likes();
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes(`/product/${id}`));
  await heart.click();
  // Both controls and the count change at once, before the answer.
  assert.equal(await heart.getAttribute("aria-pressed"), toggled);
  assert.equal(await wishlist.getAttribute("aria-pressed"), toggled);
  assert.equal(await likes(), count + (toggled === "true" ? 1 : -1));
  assert.equal((await answered).status(), 200);
  assert.ok(await sameDocument(), "the like did not reload the page");
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  assert.equal(await wishlist.getAttribute("aria-pressed"), toggled, "the server kept the like");

  // The wishlist button undoes it, for both.
  const back = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes(`/product/${id}`));
  await wishlist.click();
  await back;
  assert.equal(await heart.getAttribute("aria-pressed"), before);
  assert.equal(await likes(), count);
  await page.context().close();
});

test("a visitor's static shop posts a like natively and is asked to sign in", async () => {
  const page = await newPage(browser);
  await page.goto(`/shop?q=${encodeURIComponent(PRODUCT)}`);
  const card = page.locator("li[data-product-card]", { hasText: PRODUCT }).first();
  await card.getByRole("button", { name: `Favourite ${PRODUCT}` }).click();
  await page.waitForURL("**/product/**");
  await page.getByText("Please sign in to like this product").waitFor();
  await page.context().close();
});

test("on a visitor's static product page the total and BUY NOW follow the chosen size and quantity", async () => {
  const page = await newPage(browser);
  await page.goto(`/shop?q=${encodeURIComponent(PRODUCT)}`);
  await page
    .locator("li[data-product-card]", { hasText: PRODUCT })
    .first()
    .getByRole("link", { name: PRODUCT, exact: true })
    .click();
  await page.waitForURL("**/product/**");
  assert.equal(
    await page.evaluate(() => document.documentElement.dataset.hydrated),
    undefined,
    "a visitor's page is static",
  );
  // "Medium · RM 144.00": three of them, as checkout charges them (shownPurchaseCents): the unit in USD cents
  // (data-unit-cents) times three, converted once into RM by the total's exact rate and rounded half up.
  const medium = page.getByText(/^Medium · /);
  const label = ((await medium.textContent()) ?? "").split(" · ")[1]!.split(" ")[0]!;
  const unitCents = BigInt((await page.getByRole("radio", { name: /^Medium/ }).getAttribute("data-unit-cents"))!);
  const [num, den] = (await page.locator("[data-total]").getAttribute("data-rate"))!
    .split("/")
    .map((n) => BigInt(n)) as [bigint, bigint];
  const totalCents = (2n * unitCents * 3n * num + den) / (2n * den);
  const threeTimes = `${label} ${(Number(totalCents) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
  await medium.click();
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await page.locator("[data-total]").getByText(threeTimes, { exact: true }).waitFor();
  await page.getByRole("link", { name: "BUY NOW" }).click();
  await page.waitForURL(/\/buy-now\/.*size=Medium.*quantity=3/);
  assert.equal(await page.getByRole("radio", { name: /^Medium/ }).isChecked(), true);
  assert.equal(await page.getByRole("spinbutton", { name: "Quantity" }).inputValue(), "3");
  await page.locator("[data-total]").getByText(threeTimes, { exact: true }).waitFor();
  await page.context().close();
});

test("on a visitor's static profile, Share copies the page's link and says 'Link copied to clipboard!'", async () => {
  const page = await newPage(browser, { permissions: ["clipboard-read", "clipboard-write"] });
  await page.goto(`/shop?q=${encodeURIComponent(PRODUCT)}`);
  await page.locator("li[data-product-card]", { hasText: PRODUCT }).first().getByRole("link", { name: /^by / }).click();
  await page.waitForURL("**/profile/**");
  assert.equal(
    await page.evaluate(() => document.documentElement.dataset.hydrated),
    undefined,
    "a visitor's page is static",
  );
  assert.equal(
    await page.evaluate(() => typeof navigator.share),
    "undefined",
    "this browser copies instead of sharing",
  );
  await page.getByRole("button", { name: "Share" }).click();
  await page.getByRole("button", { name: "Link copied to clipboard!" }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, new URL(page.url()).origin + new URL(page.url()).pathname);
  await page.getByRole("button", { name: "Share" }).waitFor();
  await page.context().close();
});

test("on a phone, a signed-in fan's menu shows the main links and the account menu its links", async () => {
  const page = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await signInWithForm(page, "fan@demo.tribe", DEMO_PASSWORD);
  await page.goto("/shop");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");

  const menu = page.locator("#mobile-menu");
  await page.getByRole("button", { name: "Open menu" }).click();
  await menu.getByRole("link", { name: "Guess & Win" }).waitFor({ state: "visible" });
  await page.getByRole("button", { name: "Close menu" }).click();
  await menu.waitFor({ state: "hidden" });

  await page.locator("summary", { hasText: "Account menu for" }).click();
  await page.getByRole("link", { name: "Settings" }).click();
  await page.waitForURL("**/settings**");
  await page.context().close();
});

test("a signed-in fan's nav bar and footer links navigate on the client and mark the page shown", async () => {
  const page = await newPage(browser);
  await signInWithForm(page, "fan@demo.tribe", DEMO_PASSWORD);
  await page.goto("/shop");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const nav = page.getByRole("navigation", { name: "Main" });
  assert.equal(await nav.getByRole("link", { name: "Shop", exact: true }).getAttribute("aria-current"), "page");
  assert.equal(await nav.getByRole("link", { name: "Guess & Win" }).getAttribute("aria-current"), null);

  // The bar's links are plain links that React Router follows without loading a new document ...
  const sameDocument = await markDocument(page);
  await nav.getByRole("link", { name: "Guess & Win" }).click();
  await page.waitForURL("**/guess-win");
  // The page shown is marked once React has rendered it.
  await nav.locator('a[aria-current="page"]', { hasText: "Guess & Win" }).waitFor();
  assert.ok(await sameDocument(), "/guess-win was rendered on the client");
  assert.equal(await nav.locator('a[aria-current="page"]').count(), 1);

  // ... and so are the account menu's and the footer's.
  await page.locator("details.account-menu summary").click();
  await page.getByRole("link", { name: "Settings" }).click();
  await page.waitForURL("**/settings");
  assert.ok(await sameDocument(), "/settings was rendered on the client");
  await page.waitForFunction(() => !document.querySelector("details.account-menu")?.hasAttribute("open"), null, {
    timeout: 5000,
  });
  await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Terms" }).click();
  await page.waitForURL("**/terms");
  assert.ok(await sameDocument(), "/terms was rendered on the client");

  // A modified click is left to the browser (a new tab), as with any link.
  const opened = page.context().waitForEvent("page");
  await nav.getByRole("link", { name: "Shop", exact: true }).click({ modifiers: ["Control"] });
  const tab = await opened;
  await tab.waitForLoadState();
  assert.match(tab.url(), /\/shop$/);
  assert.equal(page.url().endsWith("/terms"), true);
  await page.context().close();
});
