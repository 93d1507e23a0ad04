import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import jsQR from "jsqr";
import { chromium, type Page } from "playwright-core";
import QRCode from "qrcode";
import { browser, CHROME_PATH, CHROMIUM_ARGS, newPage, signInDemo, useBrowser } from "./browser.ts";
import { decodePng } from "./png-decode.ts";

// A seeded voucher product of the demo host (scripts/seed.ts).
const PRODUCT = "Nyonya Kuih Workshop";

useBrowser();

function definition(page: Page, term: string) {
  return page
    .locator("dt", { hasText: new RegExp(`^\\s*${term}\\s*$`) })
    .first()
    .locator("xpath=following-sibling::dd[1]");
}

test("a fan buys a voucher, shows its QR code, and the host redeems it exactly once at the scanner", async () => {
  const fan = await newPage(browser);
  await signInDemo(fan, "fan@demo.tribe", "/shop");
  await fan.getByRole("searchbox").first().fill("Kuih Workshop");
  await fan.keyboard.press("Enter");
  await fan.getByText(PRODUCT).first().waitFor();
  // Add to Cart puts the item in the cart; the product page's BUY NOW leads to the purchase page.
  // The product's own card (not the first card of the list the search replaces, which may still be showing).
  await fan.locator('li[data-product-card] a[href^="/product/"]', { hasText: PRODUCT }).first().click();
  await fan.getByRole("link", { name: "BUY NOW" }).click();
  await fan.waitForURL("**/buy-now/**");
  await fan.getByRole("heading", { name: PRODUCT }).waitFor();
  await fan.locator("label", { hasText: "Single seat" }).first().click();
  await fan.getByRole("button", { name: "Buy Now" }).click();
  await fan.getByRole("heading", { name: /Test checkout/ }).waitFor();
  await fan.getByRole("button", { name: "Pay with card (test)" }).click();
  await fan.waitForURL("**/payment/success**");
  await fan.getByRole("heading", { name: "Payment successful!" }).waitFor();
  const orderNumber = (await definition(fan, "Order").textContent())?.trim() ?? "";
  assert.match(orderNumber, /^ORD-[A-Z0-9]{8}$/);

  // My Orders → Use Voucher on the new order (newest first).
  await fan.goto(`/my-orders?type=voucher&q=${encodeURIComponent("Kuih Workshop")}`);
  await fan.getByRole("link", { name: "Use Voucher" }).first().click();
  await fan.waitForURL("**/voucher/VCH-*");
  await fan.getByRole("heading", { name: "Voucher Details" }).waitFor();
  const code = decodeURIComponent(new URL(fan.url()).pathname.split("/").pop() ?? "");
  assert.match(code, /^VCH-[A-Z0-9]{8}$/);
  assert.equal((await definition(fan, "Order number").textContent())?.trim(), orderNumber);

  // The QR code on screen is real: a screenshot of it decodes back to the code.
  const qr = fan.getByRole("img", { name: `QR code for voucher ${code}` });
  await qr.waitFor();
  const image = decodePng(await qr.screenshot());
  const decoded = jsQR(image.data, image.width, image.height);
  assert.equal(decoded?.data, code, "the QR screenshot decodes to the voucher code");

  // Download renders the QR to a PNG in the browser, named after the code, and it scans too.
  const [download] = await Promise.all([
    fan.waitForEvent("download"),
    fan.getByRole("button", { name: "Download" }).click(),
  ]);
  assert.equal(download.suggestedFilename(), `${code}.png`);
  const png = decodePng(await readFile(await download.path()));
  assert.equal(jsQR(png.data, png.width, png.height)?.data, code, "the downloaded PNG decodes to the voucher code");

  // Copy Code confirms for a moment.
  await fan.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await fan.getByRole("button", { name: "Copy Code" }).click();
  await fan.getByRole("button", { name: "Copied!" }).waitFor();
  await fan.context().close();

  // The host looks the code up by hand (typed lowercase) and redeems it.
  const host = await newPage(browser);
  await signInDemo(host, "host@demo.tribe", "/voucher-scanner");
  await host.getByRole("button", { name: "Manual Entry" }).click();
  const input = host.getByLabel("Voucher code");
  await input.fill(code.toLowerCase());
  await host.getByRole("button", { name: "Lookup" }).click();
  await host.getByText("Valid Voucher", { exact: true }).waitFor();
  await host.getByText(orderNumber).first().waitFor();
  await host.waitForLoadState("networkidle");
  await host.getByRole("button", { name: "Redeem Voucher" }).click();
  await host.getByText("Voucher redeemed successfully!").waitFor();
  // The scanner resets after a second, ready for the next buyer.
  await host.waitForURL((url) => !url.search.includes("code="), { timeout: 5_000 });
  await host.getByText("Valid Voucher", { exact: true }).waitFor({ state: "detached" });

  // A second lookup of the same code shows it already redeemed.
  await host.getByLabel("Voucher code").fill(code.toLowerCase());
  await host.getByRole("button", { name: "Lookup" }).click();
  await host.getByText("Already Redeemed", { exact: true }).waitFor();
  await host.getByText("Each code can only be redeemed once").first().waitFor();
  assert.equal(await host.getByRole("button", { name: "Redeem Voucher" }).count(), 0);
  await host.context().close();
});

test("without a usable camera the scanner explains why and falls back to manual entry", async () => {
  const host = await newPage(browser);
  await signInDemo(host, "host@demo.tribe", "/voucher-scanner");
  // A browser where getUserMedia is refused, whatever devices the machine has.
  await host.evaluate(() => {
    Object.defineProperty(navigator, "mediaDevices", {
      configurable: true,
      value: { getUserMedia: () => Promise.reject(new DOMException("denied", "NotAllowedError")) },
    });
  });
  await host.getByRole("button", { name: "Camera Scan" }).click();
  await host.getByText("Position QR code within the frame").waitFor();
  await host.getByRole("button", { name: "Start Camera" }).click();
  await host.getByText("Camera Access Issue").first().waitFor();
  await host
    .getByText("Camera access was denied. Please allow camera access in your browser settings or use manual entry.")
    .first()
    .waitFor();
  // After 3 s it switches to manual entry by itself.
  await host.getByRole("button", { name: "Lookup" }).waitFor({ timeout: 6_000 });
  await host.getByRole("button", { name: "Lookup" }).click();
  await host.getByText("Please enter a voucher code").waitFor();
  await host.context().close();
});

/** A one-frame 4:2:0 Y4M video of a QR code of `text` (Chromium's fake camera replays it). */
function qrVideo(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const side = 480;
  const scale = Math.floor(360 / modules.size);
  const start = Math.floor((side - modules.size * scale) / 2);
  const luma = Buffer.alloc(side * side, 235);
  for (let y = 0; y < modules.size * scale; y++) {
    for (let x = 0; x < modules.size * scale; x++) {
      if (modules.get(Math.floor(y / scale), Math.floor(x / scale))) luma[(start + y) * side + start + x] = 16;
    }
  }
  const chroma = Buffer.alloc((side / 2) * (side / 2), 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma, chroma]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${side} H${side} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]);
}

test("the host scans a voucher's QR code with the camera", async () => {
  // One of the host's own active codes, offered as a shortcut on the scanner.
  const lookup = await newPage(browser);
  await signInDemo(lookup, "host@demo.tribe", "/voucher-scanner");
  const code = (await lookup.getByRole("link", { name: /^VCH-/ }).first().textContent())?.trim() ?? "";
  assert.match(code, /^VCH-[A-Z0-9]{8}$/);
  await lookup.context().close();

  const dir = await mkdtemp(path.join(tmpdir(), "tribe-camera-"));
  const video = path.join(dir, "qr.y4m");
  await writeFile(video, qrVideo(code));
  const cameraBrowser = await chromium.launch({
    executablePath: CHROME_PATH,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const host = await newPage(cameraBrowser, { permissions: ["camera"] });
    await signInDemo(host, "host@demo.tribe", "/voucher-scanner");
    await host.getByRole("button", { name: "Camera Scan" }).click();
    await host.getByRole("button", { name: "Start Camera" }).click();
    await host.getByRole("button", { name: "Stop Camera" }).waitFor();
    await host.waitForURL((url) => url.searchParams.get("code") === code, { timeout: 15_000 });
    await host.getByText("Valid Voucher", { exact: true }).waitFor();
    // The camera is released once a code is read.
    await host.getByRole("button", { name: "Start Camera" }).waitFor();
  } finally {
    await cameraBrowser.close();
    await rm(dir, { recursive: true, force: true });
  }
});
