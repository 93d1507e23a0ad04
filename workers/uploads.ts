import { Hono } from "hono";
import { getDb } from "~/db/client.server";
import { getSessionUser } from "~/lib/session.server";
import {
  DIGITAL_FILE_MAX_BYTES,
  DIGITAL_FILE_SIZE_MESSAGE,
  IMAGE_MAX_BYTES,
  IMAGE_SIZE_MESSAGE,
  readUpload,
  storeDigitalFile,
  storeProductImage,
  UploadError,
} from "~/lib/uploads.server";

/** /api/uploads: product images (public under /media) and digital product files (private). Signed-in users only. */
export const uploads = new Hono<{ Bindings: Env }>();

uploads.post("/image", async (c) => {
  const user = await getSessionUser(getDb(c.env), c.req.raw);
  if (!user) return c.json({ error: "Please sign in to upload files" }, 401);
  try {
    const body = await readUpload(c.req.raw, IMAGE_MAX_BYTES, IMAGE_SIZE_MESSAGE);
    return c.json(await storeProductImage(c.env, user.id, body), 201);
  } catch (err) {
    if (err instanceof UploadError) return c.json({ error: err.message }, err.status);
    throw err;
  }
});

uploads.post("/file", async (c) => {
  const user = await getSessionUser(getDb(c.env), c.req.raw);
  if (!user) return c.json({ error: "Please sign in to upload files" }, 401);
  try {
    const body = await readUpload(c.req.raw, DIGITAL_FILE_MAX_BYTES, DIGITAL_FILE_SIZE_MESSAGE);
    return c.json(await storeDigitalFile(c.env, user.id, body), 201);
  } catch (err) {
    if (err instanceof UploadError) return c.json({ error: err.message }, err.status);
    throw err;
  }
});
