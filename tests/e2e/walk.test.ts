import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { baseUrl, browser, newPage, signInDemo, useBrowser } from "./browser.ts";

// THE WALK (docs/decisions/630-phone-and-keyboard.md): every page of app/routes.ts, once for each role that sees it
// (visitor, fan, host, admin), on a 390 px phone. On each page:
// - it answers 200 (a page that needs what the seed has not, such as a token, answers its own 4xx, listed below),
//   with no uncaught error and nothing on the console (React reports a hydration mismatch there, Chromium a refused
//   resource or a policy violation): a page that renders on the server but breaks once it hydrates fails here;
// - nothing is wider than the phone: the page never scrolls sideways (host tables stack into cards);
// - axe-core finds no serious or critical violation of WCAG 2 A/AA;
// - the keyboard reaches it: the first Tabs land, in order, on visible elements that show their focus (their
//   outline or shadow differs from the unfocused one), and no element has a positive tabindex.
// One browser context per role, no fixed waits: a page is checked once it has loaded (and hydrated, when it does).
// It prints its time; it must stay far inside 5 minutes.

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** A phone's screen (an iPhone 14's CSS pixels), as most fans see the site. */
const PHONE = { viewport: { width: 390, height: 844 }, bypassCSP: true };

/**
 * How many Tabs each page is checked for: on a role's first page from the top (the skip link and the nav bar, the
 * same on every page), on the others the skip link, then (after Enter on it) the page's own first controls.
 */
const TABS_FIRST_PAGE = 8;
const TABS_PER_PAGE = 4;

type Role = "visitor" | "fan" | "host" | "admin";

/** A page to open: its path, or a function of the links the walk has seen so far (null when none is known). */
type Stop = string | ((seen: Seen) => string | null);

/** The first link seen (on any page this role opened) whose path starts with each prefix. */
type Seen = Map<string, string>;

/** Pages that answer something other than 200 on purpose when opened bare (a missing token or checkout). */
const EXPECTED_STATUS: Record<string, number> = {
  "/signin/link": 400,
  "/reset-password": 400,
  "/confirm-email": 400,
  "/unsubscribe": 400,
  "/payment/success": 400,
  "/walk-no-such-page": 404,
};

/** The id-bearing link prefixes the walk remembers (the seed's ids, found on the pages that list them). */
const PREFIXES = [
  "/product/",
  "/buy-now/",
  "/profile/",
  "/group-buy-detail/",
  "/group-buy-product-selection/",
  "/winner-selection/",
  "/enter-free/",
  "/order/",
  "/voucher/",
  "/chat/",
  "/transaction/",
  "/edit-product/",
  "/delete-product/",
  "/view-product/",
  "/view-game/",
  "/edit-game/",
];

/** The first seeded link to `prefix…` seen so far (named by its prefix when none is known). */
const seen = (prefix: string) => Object.assign((links: Seen) => links.get(prefix) ?? null, { prefix });

/** Every route of app/routes.ts (resource routes, sign-out and the dev outbox aside), by the roles that open it. */
const WALK: Record<Role, Stop[]> = {
  visitor: [
    "/",
    "/shop",
    seen("/product/"),
    seen("/buy-now/"),
    "/guess-win",
    "/profile/nadia-home",
    "/profile/nadia-home?tab=games",
    "/profile/nadia-home?tab=winner",
    "/profile/nadia-home/shop",
    seen("/group-buy-product-selection/"),
    seen("/group-buy-detail/"),
    "/explore",
    "/winner-selection",
    seen("/winner-selection/"),
    "/transparency",
    "/winners",
    "/official-rules",
    "/responsible-play",
    seen("/enter-free/"),
    "/shipping-tracking",
    "/terms",
    "/privacy",
    "/signup",
    "/signin",
    "/signin/link",
    "/congratulations",
    "/forgot-password",
    "/reset-password",
    "/confirm-email",
    "/cart",
    "/payment",
    "/payment/success",
    "/payment/cancel",
    "/unsubscribe",
    "/walk-no-such-page",
  ],
  fan: [
    "/",
    "/shop",
    seen("/product/"),
    seen("/buy-now/"),
    "/guess-win",
    "/profile/nadia-home",
    seen("/group-buy-product-selection/"),
    seen("/group-buy-detail/"),
    "/guess-win?tab=saved",
    "/wishlist",
    "/cart",
    "/spending-limit",
    "/my-orders",
    seen("/order/"),
    seen("/voucher/"),
    "/chat",
    seen("/chat/"),
    "/notifications",
    "/tribe",
    "/prize-pool",
    "/winner-selection",
    // A drawn pool's claim page, which the demo fan did not win: the 404 page, signed in.
    (links) => links.get("/winner-selection/")?.replace("/winner-selection/", "/prize-claim/") ?? null,
    "/settings",
    "/settings/shipping",
    "/settings/notifications",
    "/settings/privacy",
    "/settings/account",
    "/settings/responsible-play",
  ],
  host: [
    "/dashboard",
    "/shop-management",
    "/add-product",
    seen("/view-product/"),
    seen("/edit-product/"),
    seen("/delete-product/"),
    "/guess-win-management",
    "/create-guess-win",
    seen("/view-game/"),
    seen("/edit-game/"),
    "/group-buy-management",
    "/orders",
    "/voucher-management",
    "/voucher-scanner",
    "/revenue",
    seen("/transaction/"),
    "/revenue-management",
    "/ads-revenue",
    "/payouts",
    "/prize-pool-management",
    "/prize-pool-settings",
    "/prize-pool-details",
    "/settings",
  ],
  admin: ["/admin", "/dashboard"],
};

/** Where the walk's time goes (printed with its total). */
const TIMES = new Map<string, number>();

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * axe's serious and critical violations of WCAG 2 A/AA on the page as it is now (axe is in every page of the
 * context: addInitScript). The nav bar and footer, the same on every page, are checked on a role's first page only.
 */
async function seriousViolations(page: Page, first: boolean): Promise<string[]> {
  return page.evaluate(async (whole) => {
    const w = window as unknown as {
      axe: { run: (context: object, options: object) => Promise<{ violations: AxeViolation[] }> };
    };
    const context = whole ? document : { exclude: [[".site-header"], [".site-footer"]] };
    const result = await w.axe.run(context, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `axe ${v.id} (${v.impact}): ${v.help} at ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(" "))
            .join(", ")}`,
      );
  }, first);
}

/** Sideways scrolling and positive tabindex, as problems. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const scroller = document.scrollingElement!;
    if (scroller.scrollWidth > scroller.clientWidth) {
      const wide = Array.from(document.querySelectorAll("body *"))
        .filter((e) => e.getBoundingClientRect().right > scroller.clientWidth + 1)
        .slice(-1)
        .map((e) => `${e.tagName.toLowerCase()}.${Array.from(e.classList).slice(0, 3).join(".")}`);
      problems.push(`${scroller.scrollWidth - scroller.clientWidth} px wider than the phone (${wide.join(", ")})`);
    }
    // A pool figure ("RM 45,454.55") may wrap between its currency and its number, never inside the number.
    for (const e of Array.from(document.querySelectorAll("[data-pool-show]:not([data-pool-show=bar])"))) {
      const text = e.firstChild;
      const start = text?.nodeType === Node.TEXT_NODE ? (text.textContent ?? "").search(/[0-9]/) : -1;
      if (!text || start < 0 || (e as HTMLElement).offsetParent === null) continue;
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, text.textContent!.length);
      const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
      if (lines.size > 1) problems.push(`the figure "${e.textContent}" breaks inside its number`);
    }
    for (const e of Array.from(document.querySelectorAll("[tabindex]"))) {
      if (Number(e.getAttribute("tabindex")) > 0) problems.push(`positive tabindex on ${e.outerHTML.slice(0, 80)}`);
    }
    return problems;
  });
}

/**
 * Tabs through the page's first focusable elements: each Tab moves the focus to a new, visible element whose focus
 * is drawn (outline, shadow, background or border differs from the element unfocused). A recorder in the page notes
 * each focus as it happens, so the Tabs cost one round trip each and the findings one more.
 */
async function keyboardProblems(page: Page, first: boolean): Promise<string[]> {
  await page.evaluate(() => {
    type Focus = { name: string; key: string; drawn: boolean; visible: boolean; skip: boolean };
    const w = window as unknown as { walkFocus: Focus[]; walkRecorder?: (event: FocusEvent) => void };
    w.walkFocus = [];
    if (!w.walkRecorder) {
      let measuring = false;
      const ring = (s: CSSStyleDeclaration) =>
        `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}|${s.boxShadow}|${s.backgroundColor}|${s.borderColor}`;
      w.walkRecorder = (event) => {
        const e = event.target;
        if (measuring || !(e instanceof HTMLElement || e instanceof SVGElement)) return;
        // The focus may be drawn on the element or on the label wrapping a visually hidden control.
        const drawnOn = e.classList.contains("sr-only") && e.closest("label") ? e.closest("label")! : e;
        const focused = ring(getComputedStyle(drawnOn));
        const box = drawnOn.getBoundingClientRect();
        const name = `${e.tagName.toLowerCase()} "${(e.getAttribute("aria-label") || e.textContent || "").trim().slice(0, 40)}"`;
        measuring = true;
        e.blur();
        const unfocused = ring(getComputedStyle(drawnOn));
        e.focus({ preventScroll: true });
        measuring = false;
        w.walkFocus.push({
          name,
          key: `${name}@${Math.round(box.left)},${Math.round(box.top + window.scrollY)}`,
          drawn: focused !== unfocused,
          visible: box.width > 0 && box.height > 0,
          skip: e instanceof HTMLAnchorElement && e.getAttribute("href") === "#main",
        });
      };
      document.addEventListener("focusin", w.walkRecorder);
    }
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  if (!first) {
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
  }
  for (let i = 0; i < (first ? TABS_FIRST_PAGE : TABS_PER_PAGE); i++) await page.keyboard.press("Tab");
  const focuses = await page.evaluate(
    () =>
      (
        window as unknown as {
          walkFocus: { name: string; key: string; drawn: boolean; visible: boolean; skip: boolean }[];
        }
      ).walkFocus,
  );
  const problems: string[] = [];
  if (!first && !focuses[0]?.skip) problems.push("the first Tab does not reach the skip link");
  if (focuses.length < 2) problems.push("Tab reaches nothing");
  const visited = new Set<string>();
  for (const [i, focus] of focuses.entries()) {
    if (visited.has(focus.key)) break; // wrapped around a short page
    visited.add(focus.key);
    if (!focus.visible) problems.push(`Tab ${i + 1} focuses an invisible ${focus.name}`);
    else if (!focus.drawn) problems.push(`Tab ${i + 1} focuses ${focus.name} without a visible focus style`);
  }
  return problems;
}

/**
 * The bar's menus by keyboard (on a role's first page): the phone's menu button and the account menu open with
 * Enter and close with Escape, which gives the focus back to their button.
 */
async function menuProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  const menus = [
    { name: "the menu button", toggle: ".menu-toggle > summary, button.menu-toggle", panel: "#mobile-menu" },
    { name: "the account menu", toggle: ".account-menu > summary", panel: ".account-menu > div" },
  ];
  for (const menu of menus) {
    const toggle = page.locator(menu.toggle).first();
    if (!(await toggle.count())) continue;
    const shown = () => page.locator(menu.panel).first().isVisible();
    await toggle.focus();
    await page.keyboard.press("Enter");
    if (!(await shown())) problems.push(`${menu.name} does not open with Enter`);
    await page.keyboard.press("Escape");
    if (await shown()) problems.push(`${menu.name} does not close with Escape`);
    else if (!(await toggle.evaluate((e) => e === document.activeElement)))
      problems.push(`${menu.name} closed by Escape does not give the focus back to its button`);
  }
  return problems;
}

/** Waits until the page is loaded and, when it hydrates, hydrated (root.tsx marks <html data-hydrated="true">). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !document.documentElement.hasAttribute("data-hydrate") || document.documentElement.dataset.hydrated,
  );
}

/**
 * A product named with one word longer than the screen does not widen the pages that show it: renamed through the
 * edit form, its pages are checked for sideways scrolling, then the name is put back.
 */
async function longNameProblems(page: Page, edit: string): Promise<string[]> {
  const id = edit.split("/").pop()!;
  const rename = async (name: string) => {
    await page.goto(edit);
    await settled(page);
    await page.getByLabel("Product name").fill(name);
    await Promise.all([
      page.waitForURL("**/shop-management**"),
      page.locator('form button[type="submit"]').last().click(),
    ]);
  };
  await page.goto(edit);
  const original = await page.getByLabel("Product name").inputValue();
  await rename("Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen Mug");
  const problems: string[] = [];
  try {
    for (const path of [`/view-product/${id}`, `/product/${id}`, `/delete-product/${id}`, `/buy-now/${id}`]) {
      await page.goto(path, { waitUntil: "domcontentloaded" });
      await settled(page);
      for (const problem of await layoutProblems(page)) problems.push(`${path} with a long product name: ${problem}`);
    }
  } finally {
    await rename(original);
  }
  return problems;
}

/** Walks one role's pages in one context; returns every problem as "role path: problem" lines. */
async function walk(role: Role, stops: Stop[]): Promise<{ problems: string[]; pages: number }> {
  const page = await newPage(browser, PHONE);
  await page.context().addInitScript({ content: AXE_SOURCE });
  const problems: string[] = [];
  let current = "";
  page.on("pageerror", (error) => problems.push(`${role} ${current}: uncaught ${error.message}`));
  let expected = 200;
  page.on("console", (message) => {
    // A page answering its expected 4xx: Chromium logs the document's own status, nothing else may appear.
    if (expected !== 200 && message.text().includes(`the server responded with a status of ${expected}`)) return;
    if (message.type() === "error" || message.type() === "warning")
      problems.push(`${role} ${current}: console ${message.type()} ${message.text()}`);
  });
  if (role !== "visitor") await signInDemo(page, `${role}@demo.tribe`);
  const links: Seen = new Map();
  const opened = new Set<string>();
  let pages = 0;
  for (const stop of stops) {
    const path = typeof stop === "string" ? stop : stop(links);
    if (path === null) {
      problems.push(`${role}: no page before this stop links to ${(stop as { prefix?: string }).prefix}…`);
      continue;
    }
    if (opened.has(path)) continue;
    opened.add(path);
    current = path;
    pages++;
    // The visitor's /cart is checked with a line in it (its quantity, size, colour and remove forms), put there as a
    // /shop card's one-click Add to Cart does (a product with sizes or colours to choose links to its page instead).
    if (role === "visitor" && path === "/cart") {
      await page.goto("/shop");
      const productId = await page
        .locator("li[data-product-card]")
        .getByRole("button", { name: /^Add to Cart/ })
        .first()
        .getAttribute("value");
      assert.ok(productId, "no one-click Add to Cart on /shop");
      const added = await page.request.post("/cart", {
        form: { intent: "add", productId },
        headers: { Origin: baseUrl() },
        maxRedirects: 0,
      });
      assert.ok(added.status() < 400, `Add to Cart answered ${added.status()}`);
    }
    expected = EXPECTED_STATUS[path.split("?")[0]!] ?? (path.startsWith("/prize-claim/") ? 404 : 200);
    let t = performance.now();
    const lap = (phase: string) => {
      const now = performance.now();
      TIMES.set(phase, (TIMES.get(phase) ?? 0) + now - t);
      t = now;
    };
    const response = await page.goto(path, { waitUntil: "domcontentloaded" });
    if (response?.status() !== expected) problems.push(`${role} ${path}: status ${response?.status()}`);
    await settled(page);
    lap("load");
    const hrefs = await page.evaluate(() =>
      Array.from(document.querySelectorAll("a[href^='/']")).map((a) => a.getAttribute("href")!),
    );
    for (const href of hrefs) {
      const prefix = PREFIXES.find((p) => href.startsWith(p) && href.length > p.length);
      if (prefix && !links.has(prefix)) links.set(prefix, href.split("#")[0]!);
    }
    const found = await layoutProblems(page);
    lap("layout");
    found.push(...(await seriousViolations(page, pages === 1)));
    lap("axe");
    found.push(...(await keyboardProblems(page, pages === 1)));
    if (pages === 1) found.push(...(await menuProblems(page)));
    lap("keyboard");
    for (const problem of found) problems.push(`${role} ${path}: ${problem}`);
  }
  if (role === "host") {
    const edit = links.get("/edit-product/");
    if (!edit) problems.push("host: no product to rename");
    else {
      current = "a product named with one word longer than the screen";
      for (const problem of await longNameProblems(page, edit)) problems.push(`host ${problem}`);
    }
  }
  await page.context().close();
  return { problems, pages };
}

useBrowser();

test("the walk: every page, once per role, on a 390 px phone: no errors, no sideways scroll, no serious axe violation, a visible keyboard focus", async () => {
  const started = performance.now();
  // Two roles at a time (the app server and the browser each get a core), the longest walks first.
  const roles = (Object.keys(WALK) as Role[]).sort((a, b) => WALK[b].length - WALK[a].length);
  const queue = [...roles];
  const results: { problems: string[]; pages: number }[] = [];
  const worker = async () => {
    for (let role = queue.shift(); role; role = queue.shift()) results.push(await walk(role, WALK[role]));
  };
  await Promise.all([worker(), worker()]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const pages = results.reduce((sum, r) => sum + r.pages, 0);
  const phases = [...TIMES].map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`).join(", ");
  console.log(`walk: ${pages} pages for ${roles.length} roles in ${seconds} s (summed over roles: ${phases})`);
  assert.deepEqual(
    results.flatMap((r) => r.problems),
    [],
  );
  assert.ok(Number(seconds) < 300, `the walk took ${seconds} s (at most 300)`);
});
