import assert from "node:assert/strict";
import { test } from "node:test";
import { browser, newPage, signInWithForm, signUpAndConfirm, useBrowser } from "./browser.ts";

useBrowser();

// Settings > Responsible play in the browser (docs/product.md#eligibility, #self-exclusion): a new fan is asked for
// their date of birth, gives it and their state, then excludes themselves and cannot shorten it.
test("a new fan gives their date of birth and state, then excludes themselves for a year", async () => {
  const page = await newPage(browser);
  const email = `responsible-${Date.now()}@example.com`;
  await signUpAndConfirm(page, { name: "Maya Lopez", email, password: "a-good-password", country: "US" });
  await signInWithForm(page, email, "a-good-password", "/settings/responsible-play");

  await page
    .getByRole("navigation", { name: "Settings sections" })
    .getByRole("link", { name: "Responsible play" })
    .waitFor();
  await page
    .getByText("Please add your date of birth in Settings > Responsible play before your first entry.")
    .waitFor();
  // Self-exclusion waits for the date of birth.
  await page.getByText("Please add your date of birth above first").waitFor();

  // The browser refuses a date in the future (the input's max), the server a day that does not exist.
  const dob = page.getByLabel("Date of birth");
  assert.equal(await dob.getAttribute("max"), new Date().toISOString().slice(0, 10));
  await dob.fill("1994-04-12");
  await page.getByRole("button", { name: "Save date of birth" }).click();
  await page.getByText("Your date of birth is saved.").first().waitFor();
  await page.getByText("Your date of birth: 1994-04-12.").waitFor();
  await page.getByText("You can enter prize draws.").waitFor();

  await page.getByLabel("State").selectOption("US-WA");
  await page.getByRole("button", { name: "Save region" }).click();
  await page.getByText("Your region is saved.").first().waitFor();

  await page.getByLabel("1 year").check();
  assert.equal(await page.getByLabel("Your full name").inputValue(), "Maya Lopez");
  await page.getByLabel("I understand that I cannot undo this early.").check();
  await page.getByRole("button", { name: "Exclude me from prize draws" }).click();
  await page
    .getByText(/You are excluded from prize draws until [A-Z][a-z]{2} \d{1,2}, \d{4}\./)
    .first()
    .waitFor();
  await page
    .getByText("You have excluded yourself from prize draws. You cannot enter until your self-exclusion ends.")
    .waitFor();

  // A shorter period is refused; the end stays.
  await page.getByLabel("6 months").check();
  await page.getByLabel("I understand that I cannot undo this early.").check();
  await page.getByRole("button", { name: "Exclude me from prize draws" }).click();
  await page.getByText("A self-exclusion can be extended but never shortened.").first().waitFor();
});
