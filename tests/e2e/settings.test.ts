import assert from "node:assert/strict";
import { test } from "node:test";
import { browser, newPage, signInWithForm, signUpAndConfirm, useBrowser } from "./browser.ts";
import { solidPng } from "./make-png.ts";

useBrowser();

test("a new host uploads an avatar and a cover, sets a bio and shipping countries, and sees them on the public profile", async () => {
  const page = await newPage(browser);
  const email = `settings-${Date.now()}@example.com`;
  await signUpAndConfirm(page, {
    name: "Rosa Weaver",
    email,
    password: "a-good-password",
    category: "Art & Creativity",
    country: "MY",
  });
  await signInWithForm(page, email, "a-good-password", "/settings");
  await page.getByRole("heading", { name: "Settings" }).waitFor();

  // Avatar and cover: each shows 'Uploaded!' and its new preview.
  await page
    .getByLabel("Upload avatar")
    .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: solidPng(96, 96, [200, 40, 40]) });
  await page.getByText("Uploaded!").first().waitFor();
  await page
    .getByLabel("Upload cover image")
    .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: solidPng(300, 100, [40, 40, 200]) });
  await page.locator('[data-testid="cover-preview"][src^="/media/cover-photo/"]').waitFor();
  assert.match((await page.getByTestId("avatar-preview").getAttribute("src")) ?? "", /^\/media\/profile-pic\//);

  // A file that is not an image is refused in the browser with the upload message.
  await page
    .getByLabel("Upload avatar")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await page.getByText("Failed to upload image: Please select an image file").first().waitFor();

  // Name and bio: saved, and the nav bar shows the new name at once.
  await page.getByLabel("Creator name").fill("Rosa Looms");
  await page.getByLabel("Bio").fill("Handwoven throws from Penang.");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await page.getByText("Settings saved successfully!").waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByText("Rosa Looms").first().waitFor();

  // Shipping countries.
  await page.getByRole("link", { name: "Shipping" }).click();
  await page.getByLabel("Find a country").fill("Singa");
  await page.getByLabel("Singapore").check();
  await page.getByLabel("Find a country").fill("Malay");
  await page.getByLabel("Malaysia").check();
  await page.getByRole("button", { name: "Save Shipping Countries" }).click();
  await page.getByText("Shipping countries saved successfully!").waitFor();

  // The public profile, as a visitor sees it.
  await page.getByRole("link", { name: "Profile" }).first().waitFor({ state: "attached" });
  const profileHref = await page.locator('a[href^="/profile/"]').first().getAttribute("href");
  assert.ok(profileHref);
  const visitor = await newPage(browser);
  await visitor.goto(profileHref!);
  await visitor.getByRole("heading", { name: "Rosa Looms" }).waitFor();
  await visitor.getByText("Handwoven throws from Penang.").waitFor();
  await visitor.getByText("Ships to: Malaysia, Singapore").waitFor();
  assert.equal((await visitor.locator('img[src^="/media/profile-pic/"]').count()) > 0, true);
  assert.equal((await visitor.locator('img[src^="/media/cover-photo/"]').count()) > 0, true);
  const avatar = await visitor.request.get(
    (await visitor.locator('img[src^="/media/profile-pic/"]').first().getAttribute("src"))!,
  );
  assert.equal(avatar.status(), 200);
  assert.equal(avatar.headers()["content-type"], "image/png");
});
