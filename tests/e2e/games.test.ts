import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import {
  browser,
  DEMO_PASSWORD,
  newPage,
  signInDemo,
  signInWithForm,
  signUpAndConfirm,
  useBrowser,
} from "./browser.ts";

// The create-game form in a real browser: option rows, the correct-answer radio, the browser's duration check and
// the multipart upload of a real WebM made with ffmpeg (which `npm test` provides), and the whole game journey.

// The seeded demo host (app/lib/demo.ts).
const DEMO_HOST_EMAIL = "host@demo.tribe";

useBrowser();
let dir: string;

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "games-e2e-"));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

function makeWebm(seconds: number): string {
  const file = path.join(dir, `clip-${seconds}.webm`);
  execFileSync("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `color=c=blue:s=32x32:r=5:d=${seconds}`,
    "-c:v",
    "libvpx",
    "-b:v",
    "20k",
    file,
  ]);
  return file;
}

test("a host builds a game: options, correct answer, a too-short video refused, a 35 s video uploaded, created", async () => {
  const page = await newPage(browser);
  await signInDemo(page, DEMO_HOST_EMAIL, "/create-guess-win");
  const submit = page.locator("#game-form button[type=submit]");
  assert.equal((await submit.textContent())?.trim(), "Video Required (30+ sec)");
  assert.equal(await submit.isDisabled(), true);

  // Options: 2 rows, no Remove; Add up to 6, then no Add Option.
  assert.equal(await page.getByRole("button", { name: "Remove" }).count(), 0);
  for (let i = 0; i < 4; i++) await page.getByRole("button", { name: "Add Option" }).click();
  assert.equal(await page.getByRole("button", { name: "Add Option" }).count(), 0);
  assert.equal(await page.getByRole("button", { name: "Remove" }).count(), 6);
  for (let i = 0; i < 4; i++) await page.getByRole("button", { name: "Remove" }).last().click();
  assert.equal(await page.getByRole("button", { name: "Remove" }).count(), 0);

  // The Correct radio is disabled for an empty option; removing the correct option clears the choice.
  assert.equal(await page.getByLabel("Option 1 is correct").isDisabled(), true);
  await page.getByText("Please select which option is the correct answer").waitFor();
  await page.getByLabel("Option 1", { exact: true }).fill("Red");
  await page.getByLabel("Option 2", { exact: true }).fill("Blue");
  await page.getByRole("button", { name: "Add Option" }).click();
  await page.getByLabel("Option 3", { exact: true }).fill("Green");
  await page.getByLabel("Option 3 is correct").check();
  assert.equal(await page.getByText("Please select which option is the correct answer").count(), 0);
  await page.getByRole("button", { name: "Remove" }).nth(2).click();
  await page.getByText("Please select which option is the correct answer").waitFor();
  await page.getByLabel("Option 2 is correct").check();

  await page.getByLabel("Question", { exact: true }).fill("Which colour is the screen?");
  await page.getByLabel("Description").fill("A calm blue screen.");

  // A video URL that cannot be used says why, under the field: not a link at once; a link of ours where no video
  // loads from the video element's error event.
  const videoUrl = page.getByLabel(/^Or video URL/);
  await videoUrl.fill("my holiday video");
  await videoUrl.blur();
  await page.getByText("That video URL is not a link we can use", { exact: false }).waitFor();
  await videoUrl.fill("/media/guess-win-videos/nobody/missing.mp4");
  await videoUrl.blur();
  await page.getByText("That video URL does not load a video you uploaded here.", { exact: false }).waitFor();
  assert.equal(await submit.isDisabled(), true);
  await videoUrl.fill("");

  const short = makeWebm(12);
  const long = makeWebm(35);
  await page.getByLabel("Upload video").setInputFiles(short);
  await page.getByText("Video is only 0:12 long. Must be at least 30 seconds.", { exact: false }).waitFor();
  assert.equal(await submit.isDisabled(), true);

  await page.getByLabel("Upload video").setInputFiles(long);
  await page.getByText(/Video uploaded \(0:35\)/).waitFor({ timeout: 30_000 });
  assert.equal((await submit.textContent())?.trim(), "Create Game");
  await submit.click();
  await page.waitForURL("**/guess-win?game=*");
  await page.getByText("Game created successfully!").waitFor();
});

test("a host pauses and resumes a game from the management page", async () => {
  const page = await newPage(browser);
  await signInDemo(page, DEMO_HOST_EMAIL, "/guess-win-management");
  const row = page.locator("tbody tr", { has: page.getByRole("button", { name: "Pause" }) }).first();
  const question = (await row.locator("td").first().textContent())?.trim() ?? "";
  await row.getByRole("button", { name: "Pause" }).click();
  await page.getByText("Game paused successfully").first().waitFor();
  const same = page.locator("tbody tr", { hasText: question }).first();
  await same.getByRole("button", { name: "Resume" }).click();
  await page.getByText("Game resumed successfully").first().waitFor();
  await same.getByRole("button", { name: "Pause" }).waitFor();
});

test("a fan must choose an answer before Guess Now, then goes to payment with it", async () => {
  const page = await newPage(browser);
  await page.goto(`/signin?redirectTo=${encodeURIComponent("/guess-win")}`);
  await page.getByLabel("Email").fill("fan@demo.tribe");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL("**/guess-win");
  // An active game of the demo host, found from the host's management page.
  const host = await newPage(browser);
  await signInDemo(host, DEMO_HOST_EMAIL, "/guess-win-management");
  const activeRow = host.locator("tbody tr", { has: host.getByRole("button", { name: "Pause" }) }).first();
  const href = await activeRow.getByRole("link", { name: "View" }).getAttribute("href");
  assert.ok(href, "the demo host has an active game");
  await page.goto(href);
  await page.waitForLoadState("networkidle");
  assert.equal(await page.getByText("Correct", { exact: true }).count(), 0);
  await page.getByRole("button", { name: "Guess Now" }).click();
  await page.getByText("Please select an answer first.").waitFor();
  const option = page.locator('input[type=radio][name="answer"]').first();
  const answer = await option.getAttribute("value");
  await option.check();
  await page.getByRole("button", { name: "Guess Now" }).click();
  await page.waitForURL(
    (url) => url.pathname === "/payment" && url.searchParams.get("answer") === answer && !!url.searchParams.get("game"),
  );
});

test("a host creates a game that a new fan joins, shares, guesses free and then pays to guess", async () => {
  const question = `How many cushions did we sew in week ${Date.now() % 100000}?`;
  const host = await newPage(browser);
  await signInDemo(host, DEMO_HOST_EMAIL, "/create-guess-win");
  await host.getByLabel("Question", { exact: true }).fill(question);
  await host.getByLabel("Description").fill("Count the stack behind me in the video.");
  await host.getByLabel("Option 1", { exact: true }).fill("12");
  await host.getByLabel("Option 2", { exact: true }).fill("24");
  await host.getByRole("button", { name: "Add Option" }).click();
  await host.getByLabel("Option 3", { exact: true }).fill("36");
  await host.getByLabel("Option 2 is correct").check();
  await host.getByLabel("Upload video").setInputFiles(makeWebm(31));
  await host.getByText(/Video uploaded \(0:31\)/).waitFor({ timeout: 30_000 });
  await host.locator("#game-form button[type=submit]").click();
  await host.waitForURL("**/guess-win?game=*");
  await host.getByRole("heading", { name: question }).waitFor();
  await host.context().close();

  // A brand-new fan: not in the host's tribe, has shared nothing.
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const fan = await context.newPage();
  const email = `guesser-${Date.now()}@example.com`;
  await signUpAndConfirm(fan, { name: "Guess Fan", email, password: "a-good-password" });
  // Entries are for adults: the fan gives a date of birth before a first guess (decision 510).
  await signInWithForm(fan, email, "a-good-password", "/settings/responsible-play");
  await fan.getByLabel("Date of birth").fill("1996-08-20");
  await fan.getByRole("button", { name: "Save date of birth" }).click();
  await fan.getByText("Your date of birth is saved.").first().waitFor();
  await fan.goto("/guess-win");
  await fan.waitForURL("**/guess-win");
  await fan.waitForLoadState("networkidle");

  const card = () => fan.locator("article", { has: fan.getByRole("heading", { name: question }) });
  await card().waitFor();
  await card().getByText("Share = 1 free guess").waitFor();
  await card().getByRole("button", { name: "Join Tribe" }).click();
  await fan.getByText("Successfully joined the tribe!").waitFor();
  await card()
    .getByRole("button", { name: /shares/ })
    .click();
  await fan.getByText("Link copied to clipboard!").waitFor();
  await card().getByRole("button", { name: "Free Guess" }).waitFor();

  await card().locator("label", { hasText: /^24$/ }).click();
  await card().getByRole("button", { name: "Free Guess" }).click();
  await fan.getByText('Free guess submitted with answer: "24". Good luck!').waitFor();
  await card().getByText("Free guess used").waitFor();

  // A paid guess goes through the payment page and the checkout, and comes back to the feed.
  await card().locator("label", { hasText: /^36$/ }).click();
  await card().getByRole("button", { name: "Paid Guess" }).click();
  await fan.waitForURL("**/payment?game=*");
  await fan.getByText(question).first().waitFor();
  await fan.getByRole("button", { name: "Pay entry fee" }).click();
  await fan.getByRole("heading", { name: /Test checkout/ }).waitFor();
  await fan.getByRole("button", { name: "Pay with card (test)" }).click();
  await fan.getByRole("heading", { name: "Payment successful!" }).waitFor();
  // A first payment with no spending limit set stays on the page with the prompt to set one (decision 520).
  await fan.getByTestId("spend-limit-prompt").waitFor();
  await fan.getByRole("link", { name: "Back to Guess & Win" }).click();
  await fan.waitForURL("**/guess-win?paid=*", { timeout: 15_000 });
  await fan
    .getByText(`Payment successful! You've entered the game "${question}" with answer "36". Good luck!`)
    .waitFor();
  // Sealed: nothing on the page says whether 36 (or the free 24) was right while the game runs.
  await fan.getByText(/Your guess is sealed/).waitFor();
  await card().getByText("Free guess used · sealed until the game ends").waitFor();
  await context.close();
});

test("Join Tribe on a profile: a visitor's plain form post comes back with the sign-in message, a fan joins in place", async () => {
  // A visitor gets the profile without JavaScript: the form posts to /tribe/join and is sent back with the outcome.
  const visitor = await newPage(browser);
  await visitor.goto("/profile/marcus-builds");
  await visitor.getByRole("button", { name: "Join Tribe" }).click();
  await visitor.waitForURL("**/profile/marcus-builds?tribe=sign-in");
  await visitor.getByRole("status").filter({ hasText: "Please sign in to join tribe" }).waitFor();
  await visitor.context().close();

  // A signed-in fan gets the hydrated page: the join answers as data, a toast, and the button turns into "Tribe Member".
  const fan = await newPage(browser);
  const email = `joiner-${Date.now()}@example.com`;
  await signUpAndConfirm(fan, { name: "Joining Fan", email, password: "a-good-password" });
  await signInWithForm(fan, email, "a-good-password", "/profile/marcus-builds");
  await fan.waitForURL("**/profile/marcus-builds");
  await fan.waitForLoadState("networkidle");
  await fan.getByRole("button", { name: "Join Tribe" }).click();
  await fan.getByText("Successfully joined the tribe!").waitFor();
  await fan.getByRole("button", { name: "Tribe Member" }).waitFor();
  assert.equal(new URL(fan.url()).pathname, "/profile/marcus-builds");
  assert.equal(new URL(fan.url()).search, "");
  await fan.reload();
  assert.equal(await fan.getByRole("button", { name: "Tribe Member" }).isDisabled(), true);
  await fan.context().close();
});

test("a host pauses, resumes and deletes a game from its details screen, ending on the management list", async () => {
  const page = await newPage(browser);
  await signInDemo(page, DEMO_HOST_EMAIL, "/guess-win-management");
  // The game the first test created: no guesses, so Delete removes it.
  const question = "Which colour is the screen?";
  const href = await page
    .locator("tbody tr", { hasText: question })
    .first()
    .getByRole("link", { name: "View" })
    .getAttribute("href");
  assert.ok(href);
  await page.goto(href);
  await page.waitForLoadState("networkidle");
  await page.getByRole("link", { name: "Dashboard" }).waitFor();
  await page.getByRole("button", { name: "Pause" }).click();
  await page.getByText("Game paused successfully").first().waitFor();
  await page.getByRole("button", { name: "Resume" }).click();
  await page.getByText("Game resumed successfully").first().waitFor();
  await page.getByRole("button", { name: "Pause" }).waitFor();
  assert.equal(new URL(page.url()).pathname, href);

  page.once("dialog", (dialog) => {
    assert.equal(dialog.message(), "Are you sure you want to delete this game? This action cannot be undone.");
    void dialog.accept();
  });
  await page.getByRole("button", { name: "Delete" }).click();
  await page.waitForURL("**/guess-win-management");
  await page.getByText("Game deleted successfully").first().waitFor();
  assert.equal(await page.locator("tbody tr", { hasText: question }).count(), 0);
});
