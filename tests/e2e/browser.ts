// Helpers for the browser tests (run by scripts/e2e.mjs with Node's test runner against `vite preview` on seeded
// throw-away state). Chromium comes from the system (scripts/e2e.mjs finds or installs it and sets CHROME_PATH);
// playwright-core drives it.
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

/** A page in a new, isolated context (own cookies and storage) whose relative URLs resolve against the app. */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ baseURL: baseUrl(), ...options });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  return context.newPage();
}
