import assert from "node:assert/strict";
import { test } from "node:test";
import { browser, newPage, useBrowser } from "./browser.ts";

useBrowser();

test("the manifest, icons and /sw.js are served; the service worker registers and shows the offline page when the network is cut", async () => {
  const page = await newPage(browser);
  const manifest = await page.request.get("/manifest.webmanifest");
  assert.equal(manifest.status(), 200);
  const body = (await manifest.json()) as {
    name: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string }[];
  };
  assert.equal(body.name, "Tribe");
  assert.equal(body.display, "standalone");
  for (const icon of body.icons) {
    const res = await page.request.get(icon.src);
    assert.equal(res.status(), 200, icon.src);
    assert.equal(res.headers()["content-type"], "image/png");
    const png = await res.body();
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const [w, h] = icon.sizes.split("x").map(Number);
    assert.equal(png.readUInt32BE(16), w);
    assert.equal(png.readUInt32BE(20), h);
  }
  const sw = await page.request.get("/sw.js");
  assert.equal(sw.status(), 200);
  assert.match(sw.headers()["content-type"] ?? "", /javascript/);

  await page.goto("/");
  assert.equal(await page.locator('link[rel="manifest"]').getAttribute("href"), "/manifest.webmanifest");
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  assert.equal(new URL(scope).pathname, "/");
  // The worker controls the page after a reload, and precached the offline page.
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  assert.ok(await page.evaluate(async () => Boolean(await caches.match("/offline.html"))));

  await page.context().setOffline(true);
  await page.goto("/shop");
  await page.getByRole("heading", { name: "You're offline" }).waitFor();
  await page.context().setOffline(false);
  await page.getByRole("button", { name: "Try again" }).click();
  await page.waitForURL("**/shop");
  await page.getByRole("heading", { name: "You're offline" }).waitFor({ state: "detached" });
  // Pages are never stored by the worker, only the static shell.
  const cachedPages = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const key of await caches.keys())
      for (const request of await (await caches.open(key)).keys()) urls.push(new URL(request.url).pathname);
    return urls.filter(
      (path) =>
        !path.startsWith("/assets/") &&
        !path.startsWith("/icons/") &&
        path !== "/manifest.webmanifest" &&
        path !== "/offline.html",
    );
  });
  assert.deepEqual(cachedPages, []);
});

test("the install banner appears when the browser offers installation; 'Not now' is remembered and 'Install' prompts", async () => {
  const offerInstall = () =>
    window.dispatchEvent(
      Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
        prompt: async () => {
          (window as unknown as { prompted: boolean }).prompted = true;
        },
        userChoice: Promise.resolve({ outcome: "accepted" }),
      }),
    );
  const page = await newPage(browser);
  await page.goto("/");
  const banner = page.getByRole("region", { name: "Install app" });
  await page.waitForFunction(() => document.readyState === "complete");
  await page.evaluate(offerInstall);
  await banner.waitFor({ state: "visible" });
  await banner.getByRole("button", { name: "Not now" }).click();
  await banner.waitFor({ state: "hidden" });
  await page.reload();
  await page.evaluate(offerInstall);
  // The offer is handled while it is dispatched: the banner stays hidden.
  assert.equal(await banner.isVisible(), false);

  const other = await newPage(browser);
  await other.goto("/");
  await other.evaluate(offerInstall);
  const otherBanner = other.getByRole("region", { name: "Install app" });
  await otherBanner.getByRole("button", { name: "Install" }).click();
  await otherBanner.waitFor({ state: "hidden" });
  assert.equal(await other.evaluate(() => (window as unknown as { prompted?: boolean }).prompted), true);
});
