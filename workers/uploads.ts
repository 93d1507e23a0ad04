import { type Context, Hono } from "hono";
import { withUser, type UserApi } from "./session-user";
import { BodyTooLargeError, readBodyWithin } from "~/lib/body-limit";
import {
  DIGITAL_FILE_MAX_BYTES,
  DIGITAL_FILE_SIZE_MESSAGE,
  IMAGE_MAX_BYTES,
  IMAGE_SIZE_MESSAGE,
  readUpload,
  storeDigitalFile,
  storeProductImage,
  UploadError,
  abortVideoUpload,
  completeVideoUpload,
  putVideoPart,
  startVideoUpload,
  VIDEO_PART_MAX_BYTES,
  VIDEO_SIZE_MESSAGE,
  VideoUploadError,
  uploaderProblem,
} from "~/lib/uploads.server";

/**
 * /api/uploads: product images (public under /media) and digital product files (private). Signed-in accounts with a
 * confirmed e-mail only (403 otherwise), within their upload quotas (429 over them; decision 430).
 */
export const uploads = new Hono<UserApi>();
uploads.use("*", withUser);

uploads.post("/image", async (c) => {
  const user = c.get("user");
  if (!user) return c.json({ error: "Please sign in to upload files" }, 401);
  const problem = uploaderProblem(user);
  if (problem) return c.json({ error: problem }, 403);
  try {
    const body = await readUpload(c.req.raw, IMAGE_MAX_BYTES, IMAGE_SIZE_MESSAGE);
    return c.json(await storeProductImage(c.env, user.id, body), 201);
  } catch (err) {
    if (err instanceof UploadError) return c.json({ error: err.message }, err.status);
    throw err;
  }
});

uploads.post("/file", async (c) => {
  const user = c.get("user");
  if (!user) return c.json({ error: "Please sign in to upload files" }, 401);
  const problem = uploaderProblem(user);
  if (problem) return c.json({ error: problem }, 403);
  try {
    const body = await readUpload(c.req.raw, DIGITAL_FILE_MAX_BYTES, DIGITAL_FILE_SIZE_MESSAGE);
    return c.json(await storeDigitalFile(c.env, user.id, body), 201);
  } catch (err) {
    if (err instanceof UploadError) return c.json({ error: err.message }, err.status);
    throw err;
  }
});

// Guess & Win videos (up to 500 MB) in R2 multipart uploads: start, send parts, complete (duration checked), abort.
async function videoRoute(c: Context<UserApi>, run: (userId: string) => Promise<Response>) {
  const user = c.get("user");
  if (!user) return c.json({ error: "Please sign in to upload files" }, 401);
  const problem = uploaderProblem(user);
  if (problem) return c.json({ error: problem }, 403);
  try {
    return await run(user.id);
  } catch (err) {
    if (err instanceof VideoUploadError) return c.json({ error: err.message }, err.status);
    throw err;
  }
}

async function jsonBody(c: Context<UserApi>): Promise<Record<string, unknown>> {
  try {
    const body = await c.req.json();
    return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

uploads.post("/video", (c) =>
  videoRoute(c, async (userId) => c.json(await startVideoUpload(c.env, userId, await jsonBody(c)), 201)),
);

uploads.put("/video/:uploadId/parts/:n", (c) =>
  videoRoute(c, async (userId) => {
    let bytes: Uint8Array;
    try {
      bytes = await readBodyWithin(c.req.raw, VIDEO_PART_MAX_BYTES);
    } catch (err) {
      if (err instanceof BodyTooLargeError) return c.json({ error: VIDEO_SIZE_MESSAGE }, 413);
      throw err;
    }
    const part = await putVideoPart(
      c.env,
      userId,
      c.req.query("key") ?? null,
      c.req.param("uploadId"),
      Number(c.req.param("n")),
      bytes,
    );
    return c.json(part);
  }),
);

uploads.post("/video/:uploadId/complete", (c) =>
  videoRoute(c, async (userId) => {
    const body = await jsonBody(c);
    const key = c.req.query("key") ?? (typeof body.key === "string" ? body.key : null);
    return c.json(await completeVideoUpload(c.env, userId, key, c.req.param("uploadId"), body.parts));
  }),
);

uploads.delete("/video/:uploadId", (c) =>
  videoRoute(c, async (userId) => {
    await abortVideoUpload(c.env, userId, c.req.query("key") ?? null, c.req.param("uploadId"));
    return c.body(null, 204);
  }),
);
