import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { uploads as uploadRows, userProfiles } from "~/db/schema";
import { UPLOAD_GRACE_MS, UPLOAD_QUOTA_MESSAGES, UPLOAD_TOTAL_BYTES } from "~/domain/upload-quotas";
import { removeUnattachedUploads, VIDEO_MAX_BYTES } from "~/lib/uploads.server";
import { uploads } from "../workers/uploads";
import { runScheduled } from "../workers/scheduled";
import { db, makeUser, ORIGIN, signIn, withoutNetwork } from "./helpers";

// Issue 27 item 6 (decision 430): uploads only from confirmed accounts, within a daily and a total quota; files
// nothing uses are removed by the cron after the grace period.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

function post(path: string, cookie: string, body: BodyInit, contentType = "application/octet-stream") {
  return uploads.request(
    `${ORIGIN}${path}`,
    { method: "POST", body, headers: { Cookie: cookie, "Content-Type": contentType } },
    env,
  );
}

async function uploader(name: string, emailConfirmed = true) {
  const user = await makeUser({ name, emailConfirmed });
  return { ...user, cookie: await signIn(user.email) };
}

const rowsOf = (userId: string) => db().select().from(uploadRows).where(eq(uploadRows.userId, userId));

async function storedKeys(prefix: string): Promise<string[]> {
  return (await env.MEDIA.list({ prefix })).objects.map((object) => object.key);
}

describe("upload quotas", () => {
  it("refuses every upload from an account whose e-mail is not confirmed, storing nothing", async () => {
    const user = await uploader("Unconfirmed Uploader", false);
    const image = await post("/image", user.cookie, PNG);
    expect(image.status).toBe(403);
    expect(await image.json()).toEqual({ error: UPLOAD_QUOTA_MESSAGES.unconfirmed });
    expect((await post("/file", user.cookie, "hello")).status).toBe(403);
    const video = await post(
      "/video",
      user.cookie,
      JSON.stringify({ size: 1_000_000, fileName: "a.mp4" }),
      "application/json",
    );
    expect(video.status).toBe(403);
    expect(await storedKeys(`products/${user.id}/`)).toEqual([]);
    expect(await storedKeys(`private/digital/${user.id}/`)).toEqual([]);
    expect(await rowsOf(user.id)).toEqual([]);
  });

  it("counts each upload and refuses past the daily quota with a clear message", async () => {
    const user = await uploader("Daily Uploader");
    expect((await post("/image", user.cookie, PNG)).status).toBe(201);
    // Two 500 MB videos fit in a day; the third does not.
    const start = () =>
      post("/video", user.cookie, JSON.stringify({ size: VIDEO_MAX_BYTES, fileName: "game.mp4" }), "application/json");
    expect((await start()).status).toBe(201);
    expect((await start()).status).toBe(201);
    const third = await start();
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({ error: UPLOAD_QUOTA_MESSAGES.daily });
    const image = await post("/image", user.cookie, PNG);
    expect(image.status).toBe(201); // a small image still fits today
    expect((await rowsOf(user.id)).map((row) => row.bytes).sort((a, b) => a - b)).toEqual([
      PNG.length,
      PNG.length,
      VIDEO_MAX_BYTES,
      VIDEO_MAX_BYTES,
    ]);
  });

  it("refuses past the total quota, even on a new day", async () => {
    const user = await uploader("Hoarding Uploader");
    const longAgo = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
    await db()
      .insert(uploadRows)
      .values({
        key: `products/${user.id}/old.png`,
        userId: user.id,
        bytes: UPLOAD_TOTAL_BYTES - 10,
        createdAt: longAgo,
        attachedAt: longAgo,
      });
    const res = await post("/image", user.cookie, PNG);
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: UPLOAD_QUOTA_MESSAGES.total });
    expect(await storedKeys(`products/${user.id}/`)).toEqual([]);
  });
});

describe("unattached uploads", () => {
  withoutNetwork();

  it("are removed by the cron after the grace period; files in use are kept", async () => {
    const user = await uploader("Sweeping Uploader");
    const used = (await (await post("/image", user.cookie, PNG)).json()) as { url: string; key: string };
    const unused = (await (await post("/image", user.cookie, PNG)).json()) as { url: string; key: string };
    const file = (await (await post("/file", user.cookie, "a digital file")).json()) as { key: string };
    await db().update(userProfiles).set({ avatarUrl: used.url }).where(eq(userProfiles.userId, user.id));

    // Inside the grace period nothing is removed.
    await removeUnattachedUploads(env, new Date(Date.now() + UPLOAD_GRACE_MS - 60_000));
    expect(await env.MEDIA.head(unused.key)).not.toBeNull();

    // After it, the cron removes what nothing uses and keeps (and marks) the avatar.
    await runScheduled(env, new Date(Date.now() + UPLOAD_GRACE_MS + 60_000));
    expect(await env.MEDIA.head(unused.key)).toBeNull();
    expect(await env.MEDIA.head(file.key)).toBeNull();
    expect(await env.MEDIA.head(used.key)).not.toBeNull();
    const rows = await rowsOf(user.id);
    expect(rows.map((row) => row.key)).toEqual([used.key]);
    expect(rows[0]!.attachedAt).not.toBeNull();
  });
});
