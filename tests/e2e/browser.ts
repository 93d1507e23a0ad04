// Helpers for the browser tests (run by scripts/e2e.mjs with Node's test runner against `vite preview` on seeded
// throw-away state). Chromium comes from the system (scripts/e2e.mjs finds or installs it and sets CHROME_PATH);
// playwright-core drives it.
import { after, before } from "node:test";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";

export const CHROME_PATH = process.env.CHROME_PATH || "/usr/bin/chromium";

/**
 * Flags for a quiet, offline, sandbox-free headless Chromium. Playwright adds --headless itself and gives every
 * launch a fresh temporary profile (its own --user-data-dir), so no state leaks between runs.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The app under test, e.g. http://localhost:41234 (no trailing slash). */
export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error("E2E_BASE_URL is not set: run the browser tests with `npm run test:e2e`");
  return url.replace(/\/+$/, "");
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROME_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** The test file's Chromium: `useBrowser()` launches it before the file's tests and closes it after them. */
export let browser: Browser;

/** Registers the file's browser launch and close (node:test runs each file in its own process). */
export function useBrowser(): void {
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
}

/** A page in a new, isolated context (own cookies and storage) whose relative URLs resolve against the app. */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ baseURL: baseUrl(), ...options });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  return context.newPage();
}

/** A new account as the sign-up form takes it (category and country default to "Other" and the form's default). */
export type NewAccount = { name: string; email: string; password: string; category?: string; country?: string };

/** The newest link in the dev outbox (/dev/outbox, demo mode) from a mail to `email` with this subject. */
export async function linkFromOutbox(page: Page, email: string, subject: string): Promise<string> {
  await page.goto("/dev/outbox");
  const mail = page
    .locator("li", { hasText: `To ${email}` })
    .filter({ hasText: subject })
    .first();
  await mail.waitFor();
  const href = await mail.locator("a").first().getAttribute("href");
  if (!href) throw new Error(`no link in the mail "${subject}" to ${email}`);
  return href;
}

/**
 * Signs up through the real form, opens the confirmation link the app mailed (read from the dev outbox) and
 * confirms the e-mail address. Ends on /signin (not signed in) with the confirmation toast shown.
 */
export async function signUpAndConfirm(page: Page, account: NewAccount): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("Name").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm Password").fill(account.password);
  await page.getByLabel("Category").selectOption(account.category ?? "Other");
  if (account.country) await page.getByLabel("Country").selectOption(account.country);
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL("**/congratulations");
  await confirmEmailFromOutbox(page, account.email);
}

/** Opens the confirmation link mailed to `email` and confirms; ends on /signin with the confirmation toast. */
export async function confirmEmailFromOutbox(page: Page, email: string): Promise<void> {
  await page.goto(await linkFromOutbox(page, email, "Confirm your Tribe account"));
  await page.getByRole("button", { name: "Confirm my email" }).click();
  await page.waitForURL("**/signin");
  await page.getByText("Your email is confirmed. Please sign in.").waitFor();
}

/** Signs in through the form (optionally with ?redirectTo=) and waits for the page it leads to. */
export async function signInWithForm(page: Page, email: string, password: string, redirectTo?: string): Promise<void> {
  await page.goto(redirectTo ? `/signin?redirectTo=${encodeURIComponent(redirectTo)}` : "/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/signin");
}

/** The password of the seeded demo accounts (scripts/seed.ts). */
export const DEMO_PASSWORD = "demo-password-2026";

/**
 * Signs a seeded demo account in through the form (to `redirectTo` when given) and waits until the page it leads to
 * is idle (hydrated: buttons that only work with JavaScript are live).
 */
export async function signInDemo(page: Page, email: string, redirectTo?: string): Promise<void> {
  await signInWithForm(page, email, DEMO_PASSWORD, redirectTo);
  await page.waitForLoadState("networkidle");
}
