import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { browser, newPage, signInDemo, useBrowser } from "./browser.ts";

useBrowser();

/** Waits until the thread's WebSocket is open (the hint stops saying it is connecting). */
async function waitLive(page: Page) {
  await page.waitForFunction(() => {
    const hint = document.getElementById("chat-hint");
    return hint !== null && hint.textContent?.includes("Enter sends") && !hint.textContent.includes("Connecting");
  });
}

function thread(page: Page) {
  return page.getByRole("list", { name: "Messages" });
}

test("a fan and the host exchange chat messages live, in two browsers, without reloading", async () => {
  const fan = await newPage(browser);
  const host = await newPage(browser);
  await signInDemo(fan, "fan@demo.tribe");
  await signInDemo(host, "host@demo.tribe");

  // The fan opens the seeded conversation with Nadia from the Messages list.
  await fan.goto("/chat");
  await fan.getByRole("link", { name: /Nadia Rahman/ }).click();
  await fan.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  const conversationUrl = new URL(fan.url()).pathname;

  await host.goto(conversationUrl);
  await thread(host).getByText("Perfect, ordering two for the Raya group buy then.").waitFor();
  await Promise.all([waitLive(fan), waitLive(host)]);
  // Marks both documents: a reload would lose the mark.
  await Promise.all([fan, host].map((p) => p.evaluate(() => Object.assign(window, { __noReload: true }))));

  // A blank message is refused in the browser.
  const fanBox = fan.getByLabel("Message to Nadia Rahman");
  await fanBox.press("Enter");
  await fan.getByRole("alert").getByText("Please type a message before sending.").waitFor();

  // Shift+Enter adds a line; Enter sends.
  const stamp = Date.now().toString().slice(-6);
  await fanBox.fill(`Is the cushion back in stock? ${stamp}`);
  await fanBox.press("Shift+Enter");
  await fanBox.pressSequentially("Second line");
  assert.equal(await fanBox.inputValue(), `Is the cushion back in stock? ${stamp}\nSecond line`);
  await fanBox.press("Enter");

  // It appears in the host's open thread without a reload, with its line break.
  const arrived = thread(host).locator("li", { hasText: `Is the cushion back in stock? ${stamp}` });
  await arrived.waitFor();
  assert.equal(
    (await arrived.locator("p").first().innerText()).trim(),
    `Is the cushion back in stock? ${stamp}\nSecond line`,
  );
  assert.equal(await fanBox.inputValue(), "", "the composer is cleared after sending");

  // The host answers; the fan sees it live.
  const hostBox = host.getByLabel("Message to Sofia Tan");
  await hostBox.fill(`Yes, restocked this morning! ${stamp}`);
  await hostBox.press("Enter");
  await thread(fan).getByText(`Yes, restocked this morning! ${stamp}`).waitFor();

  for (const page of [fan, host]) {
    assert.equal(
      await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload),
      true,
      "no reload happened",
    );
  }

  // Both messages were stored: a fresh load shows them.
  await fan.reload();
  await thread(fan).getByText(`Yes, restocked this morning! ${stamp}`).waitFor();
  await thread(fan).getByText(`Is the cushion back in stock? ${stamp}`).waitFor();

  await fan.context().close();
  await host.context().close();
});
