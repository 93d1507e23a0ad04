import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { guessWinGames, guessWinParticipants, userActivity, userAnalytics } from "~/db/schema";
import { buildMp4 } from "./support/mp4";
import { uploads } from "../workers/uploads";
import { db, get, makeUser, ORIGIN, randomIp, signIn } from "./helpers";

// The host side of Guess & Win: video uploads (multipart, typed and timed on the server), create with the product's
// rules (docs/product.md#guess-and-win), pause/resume, delete or end, and who may see the correct answer.

type Json = Record<string, unknown>;

// What the form says about a video URL that cannot be used (GAME_MESSAGES in app/lib/game-form.ts).
const VIDEO_URL_FORMAT =
  "That video URL is not a link we can use: paste the full address of a video uploaded here, starting with https://";
const VIDEO_URL_ELSEWHERE =
  "Only videos you uploaded here can be used: upload the video, or paste the link of a video you uploaded here before.";
const VIDEO_URL_NOT_LOADING =
  "That video URL does not load a video you uploaded here. Please check the link, or upload the video instead.";

function api(method: string, path: string, cookie: string, body?: BodyInit, headers: Record<string, string> = {}) {
  return uploads.request(`${ORIGIN}${path}`, { method, body, headers: { Cookie: cookie, ...headers } }, env);
}

async function startUpload(cookie: string, size: number, fileName = "clip.mp4") {
  return api("POST", "/video", cookie, JSON.stringify({ fileName, size, contentType: "video/mp4" }), {
    "Content-Type": "application/json",
  });
}

/** Uploads bytes through the multipart API in one part; answers the complete response. */
async function uploadVideo(cookie: string, bytes: Uint8Array<ArrayBuffer>, fileName = "clip.mp4") {
  const start = await startUpload(cookie, bytes.length, fileName);
  expect(start.status).toBe(201);
  const { uploadId, key } = (await start.json()) as { uploadId: string; key: string };
  const q = `key=${encodeURIComponent(key)}`;
  const part = await api("PUT", `/video/${uploadId}/parts/1?${q}`, cookie, bytes);
  if (part.status !== 200) return { key, res: part };
  const etag = ((await part.json()) as { etag: string }).etag;
  const res = await api(
    "POST",
    `/video/${uploadId}/complete?${q}`,
    cookie,
    JSON.stringify({ key, parts: [{ partNumber: 1, etag }] }),
    {
      "Content-Type": "application/json",
    },
  );
  return { key, uploadId, res };
}

function postFields(path: string, fields: [string, string][], cookie: string) {
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      Cookie: cookie,
      Origin: ORIGIN,
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": randomIp(),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

function gameFields(
  over: Partial<Record<"question" | "description" | "videoKey" | "videoUrl" | "correctAnswer" | "entryFee", string>> & {
    options?: string[];
  } = {},
) {
  const base = {
    question: "Which colour is the car?",
    description: "Watch closely.",
    videoKey: "",
    videoUrl: "",
    correctAnswer: "Red",
    entryFee: "3",
    ...over,
  };
  const options = over.options ?? ["Red", "Blue", "Green"];
  const fields: [string, string][] = Object.entries(base).filter(([k]) => k !== "options") as [string, string][];
  for (const o of options) fields.push(["option", o]);
  return fields;
}

describe("video uploads", () => {
  let user: { id: string; email: string };
  let cookie: string;
  beforeAll(async () => {
    user = await makeUser({ name: "Video Host" });
    cookie = await signIn(user.email);
  });

  it("stores a 45-second MP4 under guess-win-videos/{userId}/ and records its duration", async () => {
    const { key, res } = await uploadVideo(cookie, buildMp4(45));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { key: string; url: string; durationSeconds: number };
    expect(body.key).toBe(key);
    expect(key).toMatch(new RegExp(`^guess-win-videos/${user.id}/\\d+-[a-f0-9]+\\.mp4$`));
    expect(body.durationSeconds).toBe(45);
    const head = await env.MEDIA.head(key);
    expect(head?.httpMetadata?.contentType).toBe("video/mp4");
    const served = await get(body.url, { headers: { Range: "bytes=0-7" } });
    expect(served.status).toBe(206);
  });

  it("reads the duration from the tail when moov sits after a large mdat", async () => {
    const { res } = await uploadVideo(cookie, buildMp4(75, { mdatBytes: 2 * 1_048_576, moovLast: true }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).durationSeconds).toBe(75);
  });

  it("assembles several parts (5 MiB first, smaller last) and times the result", async () => {
    const bytes = buildMp4(95, { mdatBytes: 6 * 1_048_576, moovLast: true });
    const start = await startUpload(cookie, bytes.length);
    const { uploadId, key, partSize } = (await start.json()) as { uploadId: string; key: string; partSize: number };
    expect(partSize).toBeGreaterThanOrEqual(5 * 1_048_576);
    const q = `key=${encodeURIComponent(key)}`;
    const chunks = [bytes.slice(0, 5 * 1_048_576), bytes.slice(5 * 1_048_576)];
    const parts = [];
    for (const [i, chunk] of chunks.entries()) {
      const res = await api("PUT", `/video/${uploadId}/parts/${i + 1}?${q}`, cookie, chunk);
      expect(res.status).toBe(200);
      parts.push(await res.json());
    }
    const done = await api("POST", `/video/${uploadId}/complete?${q}`, cookie, JSON.stringify({ parts }), {
      "Content-Type": "application/json",
    });
    expect(done.status).toBe(200);
    expect(((await done.json()) as Json).durationSeconds).toBe(95);
    expect((await env.MEDIA.head(key))?.size).toBe(bytes.length);
  });

  it("refuses a 20-second video after upload (422) and deletes it", async () => {
    const { key, res } = await uploadVideo(cookie, buildMp4(20));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: "Video is only 0:20 long. Must be at least 30 seconds." });
    expect(await env.MEDIA.head(key)).toBeNull();
  });

  it("refuses a text file renamed .mp4 (415) and aborts the upload", async () => {
    const { res } = await uploadVideo(
      cookie,
      new TextEncoder().encode("this is only some text, honestly"),
      "movie.mp4",
    );
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: "Please select a valid video file" });
  });

  it("refuses an unreadable MP4 (422)", async () => {
    const bytes = buildMp4(45);
    const broken = bytes.slice(0, 40); // ftyp and a cut moov
    const { res } = await uploadVideo(cookie, broken);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: "Unable to process video file. Please try a different format." });
  });

  it("refuses a declared 501 MB upload (413)", async () => {
    const res = await startUpload(cookie, 501 * 1_048_576);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Video file size must be less than 500MB" });
  });

  it("lets only the uploader touch an upload, and visitors nothing", async () => {
    const start = await startUpload(cookie, 1000);
    const { uploadId, key } = (await start.json()) as { uploadId: string; key: string };
    const other = await makeUser({ name: "Other Uploader" });
    const otherCookie = await signIn(other.email);
    const put = await api(
      "PUT",
      `/video/${uploadId}/parts/1?key=${encodeURIComponent(key)}`,
      otherCookie,
      buildMp4(45),
    );
    expect(put.status).toBe(403);
    expect((await api("DELETE", `/video/${uploadId}?key=${encodeURIComponent(key)}`, otherCookie)).status).toBe(403);
    expect((await api("DELETE", `/video/${uploadId}?key=${encodeURIComponent(key)}`, cookie)).status).toBe(204);
    expect((await uploads.request(`${ORIGIN}/video`, { method: "POST", body: "{}" }, env)).status).toBe(401);
  });
});

describe("creating a game", () => {
  let host: { id: string; email: string };
  let cookie: string;
  let videoKey: string;
  beforeAll(async () => {
    host = await makeUser({ name: "Game Host" });
    cookie = await signIn(host.email);
    const { key, res } = await uploadVideo(cookie, buildMp4(40));
    expect(res.status).toBe(200);
    videoKey = key;
  });

  async function refused(fields: [string, string][], message: string) {
    const res = await postFields("/create-guess-win", fields, cookie);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
  }

  it("labels the fee as a minimum, in USD", async () => {
    const res = await get("/create-guess-win", { cookie });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<label[^>]*for="entryFee"[^>]*>Minimum Entry Fee \(USD\)<\/label>/);
  });

  it("refuses each rule with its message", async () => {
    await refused(gameFields({ videoKey, question: "  " }), "Please enter a question");
    await refused(gameFields({ videoKey, description: "" }), "Please enter a description");
    await refused(gameFields({}), "Please upload a video or provide a video URL");
    await refused(gameFields({ videoKey, options: ["Red", "  "] }), "Please provide at least 2 answer options");
    await refused(gameFields({ videoKey, options: ["Red", "Blue", " red "] }), "Each answer option must be different");
    await refused(gameFields({ videoKey, correctAnswer: "" }), "Please select which option is the correct answer");
    await refused(
      gameFields({ videoKey, correctAnswer: "Purple" }),
      "Please select a correct answer from the available options",
    );
    await refused(gameFields({ videoKey, entryFee: "0.5" }), "Entry fee must be at least USD 1");
    await refused(gameFields({ videoKey, entryFee: "" }), "Please enter an entry fee");
    // Each failure of the fee names what is wrong, not the minimum (2.555 is above it: it has fractions of a cent).
    await refused(
      gameFields({ videoKey, entryFee: "2.555" }),
      "Entry fee must be in whole cents (at most 2 decimal places)",
    );
    await refused(
      gameFields({ videoKey, entryFee: "abc" }),
      "Entry fee must be a plain amount in USD, such as 3 or 2.50",
    );
    await refused(gameFields({ videoKey, entryFee: "100.01" }), "Entry fee must be at most USD 100");
    await refused(
      gameFields({ videoKey, options: ["a", "b", "c", "d", "e", "f", "g"], correctAnswer: "a" }),
      "Please provide at most 6 answer options",
    );
  });

  it("refuses a 20-second video on the server even when the browser check is bypassed", async () => {
    // Through the API: refused at complete, so its key never becomes usable.
    const { key, res } = await uploadVideo(cookie, buildMp4(20));
    expect(res.status).toBe(422);
    await refused(gameFields({ videoKey: key }), "Please upload a video or provide a video URL");
    // Put straight into R2 under the host's prefix (no verified duration): refused too.
    const sneaky = `guess-win-videos/${host.id}/sneaky-${crypto.randomUUID()}.mp4`;
    await env.MEDIA.put(sneaky, buildMp4(20));
    await refused(gameFields({ videoKey: sneaky }), "Please upload a video or provide a video URL");
    await refused(gameFields({ videoUrl: `${ORIGIN}/media/${sneaky}` }), VIDEO_URL_NOT_LOADING);
  });

  it("refuses someone else's video and outside URLs", async () => {
    const other = await makeUser({ name: "Video Owner" });
    const otherCookie = await signIn(other.email);
    const { key } = await uploadVideo(otherCookie, buildMp4(40));
    await refused(gameFields({ videoKey: key }), "Please upload a video or provide a video URL");
    await refused(gameFields({ videoUrl: `${ORIGIN}/media/${key}` }), VIDEO_URL_ELSEWHERE);
    await refused(gameFields({ videoUrl: "https://example.com/video.mp4" }), VIDEO_URL_ELSEWHERE);
    await refused(gameFields({ videoUrl: `http://tribe.test/media/${videoKey}` }), VIDEO_URL_FORMAT);
  });

  it("says why a video URL does not load: not a link, not a video uploaded here, nothing stored there", async () => {
    for (const url of ["my video", "ftp://tribe.test/media/x.mp4", "javascript:alert(1)"]) {
      await refused(gameFields({ videoUrl: url }), VIDEO_URL_FORMAT);
    }
    for (const url of ["https://youtu.be/dQw4w9WgXcQ", `${ORIGIN}/media/product-images/a.jpg`, `${ORIGIN}/game`]) {
      await refused(gameFields({ videoUrl: url }), VIDEO_URL_ELSEWHERE);
    }
    // The host's own media path, but nothing was uploaded there (a typo, or a deleted video).
    const missing = `/media/guess-win-videos/${host.id}/gone-${crypto.randomUUID()}.mp4`;
    await refused(gameFields({ videoUrl: missing }), VIDEO_URL_NOT_LOADING);
    await refused(gameFields({ videoUrl: `${ORIGIN}${missing}` }), VIDEO_URL_NOT_LOADING);
  });

  it("creates an active game with its activity and analytics row, in one go", async () => {
    const res = await postFields("/create-guess-win", gameFields({ videoKey, entryFee: "4.5" }), cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/guess-win\?game=/);
    const [game] = await db().select().from(guessWinGames).where(eq(guessWinGames.hostId, host.id));
    expect(game).toMatchObject({
      question: "Which colour is the car?",
      description: "Watch closely.",
      options: ["Red", "Blue", "Green"],
      correctAnswer: "Red",
      entryFeeCents: 450,
      status: "active",
      videoKey,
      videoUrl: `/media/${videoKey}`,
      videoDurationSeconds: 40,
    });
    expect(game!.publishedAt).toBeInstanceOf(Date);
    const activity = await db()
      .select()
      .from(userActivity)
      .where(and(eq(userActivity.userId, host.id), eq(userActivity.activityType, "game_created")));
    expect(activity).toHaveLength(1);
    expect(activity[0]!.activityData).toEqual({
      game_id: game!.id,
      question: "Which colour is the car?",
      entry_fee: 4.5,
      options_count: 3,
    });
    const today = new Date().toISOString().slice(0, 10);
    const [analytics] = await db()
      .select()
      .from(userAnalytics)
      .where(and(eq(userAnalytics.userId, host.id), eq(userAnalytics.date, today)));
    expect(analytics?.gamesCreated).toBe(1);

    // A video URL pointing at the host's own verified upload also works; analytics add up.
    const again = await postFields(
      "/create-guess-win",
      gameFields({ videoUrl: `${ORIGIN}/media/${videoKey}` }),
      cookie,
    );
    expect(again.status).toBe(302);
    const [after] = await db()
      .select()
      .from(userAnalytics)
      .where(and(eq(userAnalytics.userId, host.id), eq(userAnalytics.date, today)));
    expect(after?.gamesCreated).toBe(2);
  });

  it("sends a visitor to sign in", async () => {
    const res = await get("/create-guess-win");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/signin/);
  });
});

describe("managing games", () => {
  let host: { id: string; email: string };
  let hostCookie: string;
  let otherCookie: string;
  let fan: { id: string; email: string };
  let fanCookie: string;

  async function addGame(status: "active" | "paused" | "completed" = "active") {
    const id = crypto.randomUUID();
    await db()
      .insert(guessWinGames)
      .values({
        id,
        hostId: host.id,
        question: `Secret question ${id.slice(0, 6)}`,
        description: "Guess it",
        options: ["Alpha", "Bravo"],
        correctAnswer: "Bravo",
        entryFeeCents: 300,
        status,
        videoUrl: "/media/guess-win-videos/x/y.mp4",
      });
    return id;
  }
  const statusOf = async (id: string) => (await db().select().from(guessWinGames).where(eq(guessWinGames.id, id)))[0];

  beforeAll(async () => {
    host = await makeUser({ name: "Manager Host" });
    const other = await makeUser({ name: "Intruder" });
    fan = await makeUser({ name: "Fan" });
    [hostCookie, otherCookie, fanCookie] = await Promise.all([
      signIn(host.email),
      signIn(other.email),
      signIn(fan.email),
    ]);
  });

  it("pauses and resumes with the messages", async () => {
    const id = await addGame();
    const paused = await postFields(
      "/guess-win-management",
      [
        ["intent", "toggle-pause"],
        ["gameId", id],
      ],
      hostCookie,
    );
    expect(paused.status).toBe(200);
    expect(await paused.text()).toContain("Game paused successfully");
    expect((await statusOf(id))?.status).toBe("paused");
    const resumed = await postFields(
      "/guess-win-management",
      [
        ["intent", "toggle-pause"],
        ["gameId", id],
      ],
      hostCookie,
    );
    expect(await resumed.text()).toContain("Game resumed successfully");
    expect((await statusOf(id))?.status).toBe("active");
  });

  it("says why a pause or delete failed when the database refuses it (500), and keeps the game as it was", async () => {
    const id = await addGame();
    const before = await statusOf(id);
    const name = (op: string) => `fail_game_${op}_${id.replaceAll("-", "_")}`;
    const guard = (op: string) =>
      `create trigger ${name(op)} before ${op} on guess_win_games when old.id = '${id}' begin select raise(abort, 'injected failure'); end`;
    await env.DB.batch([env.DB.prepare(guard("delete")), env.DB.prepare(guard("update"))]);
    try {
      const paused = await postFields(
        "/guess-win-management",
        [
          ["intent", "toggle-pause"],
          ["gameId", id],
        ],
        hostCookie,
      );
      expect(paused.status).toBe(500);
      expect(await paused.text()).toContain("Failed to update game status: Please try again.");
      const deleted = await postFields(
        "/guess-win-management",
        [
          ["intent", "delete"],
          ["gameId", id],
        ],
        hostCookie,
      );
      expect(deleted.status).toBe(500);
      expect(await deleted.text()).toContain("Failed to delete game: Please try again.");
    } finally {
      await env.DB.batch(["delete", "update"].map((op) => env.DB.prepare(`drop trigger ${name(op)}`)));
    }
    expect(await statusOf(id)).toEqual(before);
  });

  it("lets no one but the host edit, pause or delete (403, unchanged)", async () => {
    const id = await addGame();
    const before = await statusOf(id);
    expect(
      (
        await postFields(
          "/guess-win-management",
          [
            ["intent", "toggle-pause"],
            ["gameId", id],
          ],
          otherCookie,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await postFields(
          "/guess-win-management",
          [
            ["intent", "delete"],
            ["gameId", id],
          ],
          otherCookie,
        )
      ).status,
    ).toBe(403);
    expect((await get(`/edit-game/${id}`, { cookie: otherCookie })).status).toBe(403);
    expect(
      (await postFields(`/edit-game/${id}`, gameFields({ question: "Hijacked", correctAnswer: "Red" }), otherCookie))
        .status,
    ).toBe(403);
    expect(await statusOf(id)).toEqual(before);
  });

  it("lets the host edit with the same rules, keeping the current video", async () => {
    const id = await addGame();
    const bad = await postFields(`/edit-game/${id}`, gameFields({ question: "" }), hostCookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a question");
    const res = await postFields(
      `/edit-game/${id}`,
      gameFields({ question: "New question?", options: ["Yes", "No"], correctAnswer: "No", entryFee: "5" }),
      hostCookie,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard");
    expect(await statusOf(id)).toMatchObject({
      question: "New question?",
      options: ["Yes", "No"],
      correctAnswer: "No",
      entryFeeCents: 500,
      videoUrl: "/media/guess-win-videos/x/y.mp4",
    });
  });

  it("refuses any edit of a completed game (409, unchanged), says so on the edit screen and offers no Edit link", async () => {
    const id = await addGame("completed");
    const before = await statusOf(id);
    const res = await postFields(
      `/edit-game/${id}`,
      gameFields({
        question: "Rewritten?",
        description: "New text",
        options: ["Alpha", "Bravo"],
        correctAnswer: "Bravo",
      }),
      hostCookie,
    );
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("This game has ended, so it can no longer be edited.");
    expect(await statusOf(id)).toEqual(before);

    const screen = await get(`/edit-game/${id}`, { cookie: hostCookie });
    expect(screen.status).toBe(200);
    const html = await screen.text();
    expect(html).toContain("This game has ended, so it can no longer be edited.");
    expect(html).not.toContain('name="question"');
    for (const page of ["/guess-win-management", `/view-game/${id}`]) {
      expect(await (await get(page, { cookie: hostCookie })).text()).not.toContain(`href="/edit-game/${id}"`);
    }
  });

  it("refuses to change the answer or options once someone has guessed (409, unchanged); other fields still save", async () => {
    const id = await addGame();
    const before = await statusOf(id);
    await db()
      .insert(guessWinParticipants)
      .values({ gameId: id, userId: fan.id, answer: before!.options[0]!, kind: "free", paymentStatus: "paid" });
    for (const change of [
      { correctAnswer: before!.options.find((o) => o !== before!.correctAnswer)! },
      { options: [...before!.options, "Zulu"] },
    ]) {
      const res = await postFields(
        `/edit-game/${id}`,
        gameFields({ options: before!.options, correctAnswer: before!.correctAnswer, ...change }),
        hostCookie,
      );
      expect(res.status).toBe(409);
      expect(await res.text()).toContain("The answer and options can&#x27;t be changed once someone has guessed.");
      expect(await statusOf(id)).toEqual(before);
    }
    const same = await postFields(
      `/edit-game/${id}`,
      gameFields({ question: "A clearer question?", options: before!.options, correctAnswer: before!.correctAnswer }),
      hostCookie,
    );
    expect(same.status).toBe(302);
    expect(await statusOf(id)).toMatchObject({
      question: "A clearer question?",
      options: before!.options,
      correctAnswer: before!.correctAnswer,
    });
  });

  it("ends (not deletes) a game with paid participants, keeping them", async () => {
    const id = await addGame();
    await db().insert(guessWinParticipants).values({
      gameId: id,
      userId: fan.id,
      answer: "Bravo",
      isCorrect: true,
      kind: "paid",
      entryFeeCents: 300,
      paymentStatus: "paid",
    });
    const res = await postFields(
      "/guess-win-management",
      [
        ["intent", "delete"],
        ["gameId", id],
      ],
      hostCookie,
    );
    expect(res.status).toBe(200);
    const game = await statusOf(id);
    expect(game?.status).toBe("completed");
    expect(game?.endedAt).toBeInstanceOf(Date);
    expect(await db().select().from(guessWinParticipants).where(eq(guessWinParticipants.gameId, id))).toHaveLength(1);
  });

  it("deletes a game without paid participants, and its video", async () => {
    const id = await addGame();
    const key = `guess-win-videos/${host.id}/del-${crypto.randomUUID()}.mp4`;
    await env.MEDIA.put(key, buildMp4(40));
    await db()
      .update(guessWinGames)
      .set({ videoKey: key, videoUrl: `/media/${key}` })
      .where(eq(guessWinGames.id, id));
    const res = await postFields(
      "/guess-win-management",
      [
        ["intent", "delete"],
        ["gameId", id],
      ],
      hostCookie,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Game deleted successfully");
    expect(await statusOf(id)).toBeUndefined();
    await vi_waitFor(async () => (await env.MEDIA.head(key)) === null);
  });

  it("keeps a video another game still plays", async () => {
    const [a, b] = [await addGame(), await addGame()];
    const key = `guess-win-videos/${host.id}/shared-${crypto.randomUUID()}.mp4`;
    await env.MEDIA.put(key, buildMp4(40));
    for (const id of [a, b])
      await db()
        .update(guessWinGames)
        .set({ videoKey: key, videoUrl: `/media/${key}` })
        .where(eq(guessWinGames.id, id));
    expect(
      (
        await postFields(
          "/guess-win-management",
          [
            ["intent", "delete"],
            ["gameId", a],
          ],
          hostCookie,
        )
      ).status,
    ).toBe(200);
    expect(await statusOf(a)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 100));
    expect(await env.MEDIA.head(key)).not.toBeNull();
  });

  it("never shows the correct answer to a non-host; the host sees it and the host-only tabs", async () => {
    const id = await addGame();
    const fanPage = await (await get(`/view-game/${id}`, { cookie: fanCookie })).text();
    expect(fanPage).toContain("Alpha");
    expect(fanPage).toContain("Guess Now");
    expect(fanPage).not.toContain("Correct");
    const visitorPage = await (await get(`/view-game/${id}?tab=participants`)).text();
    expect(visitorPage).not.toContain("Correct");
    expect(visitorPage).not.toContain(">Participant<");
    const hostPage = await (await get(`/view-game/${id}`, { cookie: hostCookie })).text();
    expect(hostPage).toContain("Correct");
    await db()
      .insert(guessWinParticipants)
      .values({ gameId: id, userId: fan.id, answer: "Alpha", kind: "free", paymentStatus: "paid" });
    const participants = await (await get(`/view-game/${id}?tab=participants`, { cookie: hostCookie })).text();
    expect(participants).toContain("Free");
    const analytics = await (await get(`/view-game/${id}?tab=analytics`, { cookie: hostCookie })).text();
    expect(analytics).toContain("Daily participation");
  });

  it("counts views of non-hosts", async () => {
    const id = await addGame();
    await get(`/view-game/${id}`, { cookie: fanCookie });
    await vi_waitFor(async () => (await statusOf(id))?.viewsCount === 1);
  });
});

async function vi_waitFor(check: () => Promise<boolean>, ms = 2000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(await check()).toBe(true);
}
