// Uploads to R2 through the Worker (DESIGN decision 7): product images are typed from their bytes and limited to
// 5 MB; digital product files are any type up to 50 MB and live under private/, which /media never serves.
import {
  DIGITAL_FILE_MAX_BYTES,
  IMAGE_MAX_BYTES,
  isVideoLongEnough,
  VIDEO_MAX_BYTES,
  VIDEO_PART_MAX_BYTES,
  videoTooShortMessage,
} from "~/domain/catalog";
import { getDb } from "~/db/client.server";
import {
  deleteUploadRows,
  markUploadsAttached,
  reserveUpload,
  setUploadBytes,
  unattachedUploadsBefore,
  uploadKeysInUse,
  uploadUsage,
} from "~/db/queries/uploads.server";
import {
  UPLOAD_GRACE_MS,
  UPLOAD_QUOTA_MESSAGES,
  UPLOAD_QUOTA_WINDOW_MS,
  uploadQuotaProblem,
} from "~/domain/upload-quotas";
import { BodyTooLargeError, MULTIPART_OVERHEAD_BYTES, readBodyWithin } from "~/lib/body-limit";
import { z } from "zod";
import { mp4Duration, sniffVideoType, videoDuration } from "~/lib/video-duration";

export { DIGITAL_FILE_MAX_BYTES, IMAGE_MAX_BYTES, VIDEO_MAX_BYTES, VIDEO_PART_MAX_BYTES };

export const IMAGE_TYPE_MESSAGE = "Please select an image file";
export const IMAGE_SIZE_MESSAGE = "File size must be less than 5MB";
export const DIGITAL_FILE_SIZE_MESSAGE = "File size must be less than 50MB";

export type ImageType = { ext: "png" | "jpg" | "webp" | "gif"; contentType: string };

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type told by a file's first bytes (PNG, JPEG, WebP, GIF), or null for anything else. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { ext: "png", contentType: "image/png" };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { ext: "jpg", contentType: "image/jpeg" };
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8))
    return { ext: "webp", contentType: "image/webp" };
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a")))
    return { ext: "gif", contentType: "image/gif" };
  return null;
}

/** `{prefix}/{timestamp}-{random}.{ext}` */
export function uploadKey(prefix: string, ext: string, now = Date.now()): string {
  const random = crypto.randomUUID().replace(/-/g, "").slice(0, 12);
  return `${prefix}/${now}-${random}.${ext}`;
}

/** The R2 key behind one of our product image URLs (`/media/products/...`), or null. */
export function productImageKey(url: string): string | null {
  const match = /^\/media\/(products\/[A-Za-z0-9._\-/]+)$/.exec(url);
  if (!match || match[1]!.includes("..")) return null;
  return match[1]!;
}

/** A file extension kept from an uploaded file's name (letters and digits, at most 10), else "bin". */
export function safeExtension(fileName: string | null | undefined): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(fileName ?? "");
  return match ? match[1]!.toLowerCase() : "bin";
}

export type UploadBody = { bytes: Uint8Array; fileName: string | null; contentType: string | null };

export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403 | 413 | 415 | 429,
  ) {
    super(message);
  }
}

/**
 * Reads one uploaded file from a request: a multipart form field `file`, or the raw body with its Content-Type
 * (the name may come in an `X-File-Name` header). Refuses more than `maxBytes` with 413 before storing anything.
 */
export async function readUpload(request: Request, maxBytes: number, sizeMessage: string): Promise<UploadBody> {
  const type = request.headers.get("Content-Type") ?? "";
  const multipart = type.toLowerCase().startsWith("multipart/form-data");
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    // Read against the cap as it streams in (with or without a Content-Length): nothing past it is held.
    bytes = await readBodyWithin(request, multipart ? maxBytes + MULTIPART_OVERHEAD_BYTES : maxBytes);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new UploadError(sizeMessage, 413);
    throw err;
  }
  if (multipart) {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { "Content-Type": type } }).formData();
    } catch {
      throw new UploadError("Please choose a file to upload", 400);
    }
    const file = form.get("file");
    if (!file || typeof file === "string") throw new UploadError("Please choose a file to upload", 400);
    if (file.size > maxBytes) throw new UploadError(sizeMessage, 413);
    if (file.size === 0) throw new UploadError("Please choose a file to upload", 400);
    return {
      bytes: new Uint8Array(await file.arrayBuffer()),
      fileName: file.name || null,
      contentType: file.type || null,
    };
  }
  if (bytes.length === 0) throw new UploadError("Please choose a file to upload", 400);
  const rawName = request.headers.get("X-File-Name");
  let fileName: string | null = null;
  if (rawName) {
    try {
      fileName = decodeURIComponent(rawName);
    } catch {
      fileName = rawName;
    }
  }
  return { bytes, fileName, contentType: type || null };
}

// --- quotas (decision 430) ---------------------------------------------------------------------------------------

/** The account behind an upload: only a confirmed one may upload. */
export type Uploader = { id: string; emailConfirmed: boolean };

/** Null when the account may upload at all, else why not (403). */
export function uploaderProblem(uploader: Uploader): string | null {
  return uploader.emailConfirmed ? null : UPLOAD_QUOTA_MESSAGES.unconfirmed;
}

/** Records an upload of `bytes` under `key` for the account, or names the quota it would break. */
async function reserveWithinQuota(
  env: Pick<Env, "DB">,
  userId: string,
  key: string,
  bytes: number,
): Promise<string | null> {
  const db = getDb(env);
  const now = new Date();
  const since = new Date(now.getTime() - UPLOAD_QUOTA_WINDOW_MS);
  if (await reserveUpload(db, { key, userId, bytes, now, since })) return null;
  return UPLOAD_QUOTA_MESSAGES[uploadQuotaProblem(await uploadUsage(db, userId, since), bytes) ?? "daily"];
}

/** Stores a product image of a user; the type comes from the bytes, never from the name or header. */
export function storeProductImage(env: Pick<Env, "MEDIA" | "DB">, userId: string, body: UploadBody) {
  return storeImage(env, `products/${userId}`, body, userId);
}

/** The folders for profile pictures and cover photos. */
export const PROFILE_IMAGE_FOLDERS = { avatar: "profile-pic", cover: "cover-photo" } as const;

/** Stores a user's avatar or cover under profile-pic/{userId}/ or cover-photo/{userId}/ (typed from the bytes). */
export function storeProfileImage(env: Pick<Env, "MEDIA">, userId: string, kind: "avatar" | "cover", body: UploadBody) {
  return storeImage(env, `${PROFILE_IMAGE_FOLDERS[kind]}/${userId}`, body);
}

/** The R2 key behind one of this user's avatar or cover URLs, or null (so only our own files are ever removed). */
export function profileImageKey(url: string, userId: string): string | null {
  const match = /^\/media\/((?:profile-pic|cover-photo)\/[A-Za-z0-9._\-/]+)$/.exec(url);
  const key = match?.[1];
  if (!key || key.includes("..") || key.split("/")[1] !== userId) return null;
  return key;
}

/**
 * Stores an image at 5 MB at most; the type comes from the bytes, never from the name or header. With a quota
 * account, the upload counts against its quotas first (429 over them).
 */
async function storeImage(
  env: Pick<Env, "MEDIA"> & Partial<Pick<Env, "DB">>,
  prefix: string,
  body: UploadBody,
  quotaUserId?: string,
) {
  if (body.bytes.length > IMAGE_MAX_BYTES) throw new UploadError(IMAGE_SIZE_MESSAGE, 413);
  const type = sniffImageType(body.bytes);
  if (!type) throw new UploadError(IMAGE_TYPE_MESSAGE, 415);
  const key = uploadKey(prefix, type.ext);
  if (quotaUserId && env.DB) {
    const over = await reserveWithinQuota({ DB: env.DB }, quotaUserId, key, body.bytes.length);
    if (over) throw new UploadError(over, 429);
  }
  await env.MEDIA.put(key, body.bytes, {
    httpMetadata: { contentType: type.contentType, cacheControl: "public, max-age=31536000, immutable" },
  });
  return { url: `/media/${key}`, key };
}

/** Stores a digital product's file under private/ (never served by /media; downloads go through signed links). */
export async function storeDigitalFile(env: Pick<Env, "MEDIA" | "DB">, userId: string, body: UploadBody) {
  if (body.bytes.length > DIGITAL_FILE_MAX_BYTES) throw new UploadError(DIGITAL_FILE_SIZE_MESSAGE, 413);
  const key = uploadKey(`private/digital/${userId}`, safeExtension(body.fileName));
  const over = await reserveWithinQuota(env, userId, key, body.bytes.length);
  if (over) throw new UploadError(over, 429);
  const contentType =
    body.contentType && /^[\w.+-]+\/[\w.+-]+$/.test(body.contentType) ? body.contentType : "application/octet-stream";
  await env.MEDIA.put(key, body.bytes, {
    httpMetadata: { contentType },
    customMetadata: body.fileName ? { fileName: body.fileName.slice(0, 200) } : undefined,
  });
  return { key };
}

/** True when a digital file key belongs to this user (so a form cannot point at someone else's file). */
export function isOwnDigitalFileKey(key: string, userId: string): boolean {
  return key.startsWith(`private/digital/${userId}/`) && /^[A-Za-z0-9._\-/]+$/.test(key) && !key.includes("..");
}

// --- Guess & Win videos: multipart uploads to R2 through the Worker ---------------------------------------------

export const VIDEO_TYPE_MESSAGE = "Please select a valid video file";
export const VIDEO_SIZE_MESSAGE = "Video file size must be less than 500MB";
export const VIDEO_UNREADABLE_MESSAGE = "Unable to process video file. Please try a different format.";
/** The browser sends 10 MiB parts (R2 needs every part but the last to be at least 5 MiB). */
export const VIDEO_PART_BYTES = 10 * 1_048_576;
/** How much of a file's start and (for an MP4 with `moov` at the end) its tail are read for the duration. */
const VIDEO_HEAD_BYTES = 1_048_576;
const VIDEO_TAIL_BYTES = 4 * 1_048_576;

/**
 * Where the verified duration of an uploaded video is kept: R2 cannot change an object's customMetadata after a
 * multipart upload completes (no copy in the Workers API), so a tiny private sidecar object carries it as
 * customMetadata, read with MEDIA.head. private/ is never served by /media.
 */
export function videoMetaKey(videoKey: string): string {
  return `private/video-meta/${videoKey}`;
}

export class VideoUploadError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 413 | 415 | 422 | 429,
  ) {
    super(message);
  }
}

/** True when an R2 key is one of this user's Guess & Win videos. */
export function isOwnVideoKey(key: string, userId: string): boolean {
  return key.startsWith(`guess-win-videos/${userId}/`) && /^[A-Za-z0-9._\-/]+$/.test(key) && !key.includes("..");
}

const VideoStartSchema = z.object({
  fileName: z.string().max(500).optional(),
  size: z.number().int().positive(),
  contentType: z.string().max(200).optional(),
});

const VideoPartsSchema = z
  .array(z.object({ partNumber: z.number().int().min(1).max(10_000), etag: z.string().min(1).max(200) }))
  .min(1)
  .max(10_000);

/** Starts a multipart video upload of `size` bytes; refuses more than 500 MB (413). */
export async function startVideoUpload(
  env: Pick<Env, "MEDIA" | "DB">,
  userId: string,
  input: { fileName?: unknown; size?: unknown; contentType?: unknown },
) {
  const parsed = VideoStartSchema.safeParse(input);
  if (!parsed.success) throw new VideoUploadError(VIDEO_TYPE_MESSAGE, 400);
  if (parsed.data.size > VIDEO_MAX_BYTES) throw new VideoUploadError(VIDEO_SIZE_MESSAGE, 413);
  if (parsed.data.contentType && !/^video\//i.test(parsed.data.contentType))
    throw new VideoUploadError(VIDEO_TYPE_MESSAGE, 415);
  const named = safeExtension(parsed.data.fileName ?? null);
  const ext = named === "webm" ? "webm" : "mp4";
  const key = uploadKey(`guess-win-videos/${userId}`, ext);
  // The declared size counts against the quotas now; the real size replaces it when the upload completes.
  const over = await reserveWithinQuota(env, userId, key, parsed.data.size);
  if (over) throw new VideoUploadError(over, 429);
  const upload = await env.MEDIA.createMultipartUpload(key, {
    httpMetadata: {
      contentType: ext === "webm" ? "video/webm" : "video/mp4",
      cacheControl: "public, max-age=31536000, immutable",
    },
  });
  return { uploadId: upload.uploadId, key, partSize: VIDEO_PART_BYTES };
}

function ownKeyOrThrow(key: string | null | undefined, userId: string): string {
  if (!key || !isOwnVideoKey(key, userId)) throw new VideoUploadError("Forbidden", 403);
  return key;
}

/** Stores one part; the first part's bytes must be an MP4 or WebM, else the upload is aborted (415). */
export async function putVideoPart(
  env: Pick<Env, "MEDIA" | "DB">,
  userId: string,
  key: string | null,
  uploadId: string,
  partNumber: number,
  bytes: Uint8Array,
) {
  const own = ownKeyOrThrow(key, userId);
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000)
    throw new VideoUploadError("Invalid part number", 400);
  if (bytes.length === 0) throw new VideoUploadError(VIDEO_TYPE_MESSAGE, 400);
  if (bytes.length > VIDEO_PART_MAX_BYTES) throw new VideoUploadError(VIDEO_SIZE_MESSAGE, 413);
  const upload = env.MEDIA.resumeMultipartUpload(own, uploadId);
  if (partNumber === 1 && !sniffVideoType(bytes)) {
    await upload.abort().catch(() => undefined);
    await deleteUploadRows(getDb(env), [own]);
    throw new VideoUploadError(VIDEO_TYPE_MESSAGE, 415);
  }
  try {
    const part = await upload.uploadPart(partNumber, bytes);
    return { partNumber: part.partNumber, etag: part.etag };
  } catch {
    throw new VideoUploadError("Failed to upload video. Please try again.", 400);
  }
}

/** Reads the duration of a stored video: its start, then (MP4 with `moov` at the end) its tail. */
export async function readStoredVideoDuration(
  env: Pick<Env, "MEDIA">,
  key: string,
  size: number,
): Promise<number | null> {
  const head = await env.MEDIA.get(key, { range: { offset: 0, length: Math.min(size, VIDEO_HEAD_BYTES) } });
  if (!head) return null;
  const headBytes = new Uint8Array(await head.arrayBuffer());
  const kind = sniffVideoType(headBytes);
  if (!kind) return null;
  const fromHead = videoDuration(headBytes);
  if (fromHead !== null || kind.ext !== "mp4" || size <= VIDEO_HEAD_BYTES) return fromHead;
  const tail = await env.MEDIA.get(key, { range: { suffix: Math.min(size, VIDEO_TAIL_BYTES) } });
  if (!tail) return null;
  return mp4Duration(new Uint8Array(await tail.arrayBuffer()));
}

/**
 * Completes an upload, then checks the stored video: unreadable or under 30 seconds deletes it (422); otherwise
 * records its verified duration and answers its public URL.
 */
export async function completeVideoUpload(
  env: Pick<Env, "MEDIA" | "DB">,
  userId: string,
  key: string | null,
  uploadId: string,
  parts: unknown,
) {
  const own = ownKeyOrThrow(key, userId);
  const parsed = VideoPartsSchema.safeParse(parts);
  if (!parsed.success) throw new VideoUploadError("Failed to upload video. Please try again.", 400);
  const list = parsed.data;
  let object: R2Object;
  try {
    object = await env.MEDIA.resumeMultipartUpload(own, uploadId).complete(list);
  } catch {
    throw new VideoUploadError("Failed to upload video. Please try again.", 400);
  }
  const refuse = async (error: VideoUploadError) => {
    await env.MEDIA.delete(own);
    await deleteUploadRows(getDb(env), [own]);
    return error;
  };
  if (object.size > VIDEO_MAX_BYTES) throw await refuse(new VideoUploadError(VIDEO_SIZE_MESSAGE, 413));
  const seconds = await readStoredVideoDuration(env, own, object.size);
  if (seconds === null) throw await refuse(new VideoUploadError(VIDEO_UNREADABLE_MESSAGE, 422));
  if (!isVideoLongEnough(seconds)) throw await refuse(new VideoUploadError(videoTooShortMessage(seconds), 422));
  await setUploadBytes(getDb(env), own, object.size);
  await env.MEDIA.put(videoMetaKey(own), "", {
    customMetadata: { durationSeconds: String(seconds), etag: object.etag, userId },
  });
  return { key: own, url: `/media/${own}`, durationSeconds: seconds, size: object.size };
}

/** Aborts an unfinished upload of this user. */
export async function abortVideoUpload(
  env: Pick<Env, "MEDIA" | "DB">,
  userId: string,
  key: string | null,
  uploadId: string,
) {
  const own = ownKeyOrThrow(key, userId);
  await env.MEDIA.resumeMultipartUpload(own, uploadId)
    .abort()
    .catch(() => undefined);
  await deleteUploadRows(getDb(env), [own]);
}

/** The verified duration of one of this user's uploaded videos, or null when it is not theirs, missing or unverified. */
export async function verifiedVideoDuration(
  env: Pick<Env, "MEDIA">,
  userId: string,
  key: string,
): Promise<number | null> {
  if (!isOwnVideoKey(key, userId)) return null;
  const [object, meta] = await Promise.all([env.MEDIA.head(key), env.MEDIA.head(videoMetaKey(key))]);
  if (!object || !meta) return null;
  if (meta.customMetadata?.etag && meta.customMetadata.etag !== object.etag) return null;
  const seconds = Number(meta.customMetadata?.durationSeconds);
  return Number.isFinite(seconds) ? seconds : null;
}

/** Removes an uploaded video and its duration record. */
export async function deleteVideo(env: Pick<Env, "MEDIA" | "DB">, key: string) {
  await env.MEDIA.delete([key, videoMetaKey(key)]);
  await deleteUploadRows(getDb(env), [key]);
}

/** Uploads the cron looks at per run. */
const UNATTACHED_SWEEP_BATCH = 50;

/**
 * The cron's sweep (decision 430): uploads older than the grace period that no product, game or profile uses are
 * removed from R2 and forgotten; those in use are marked and kept. Returns how many were removed.
 */
export async function removeUnattachedUploads(
  env: Pick<Env, "MEDIA" | "DB">,
  now: Date,
): Promise<{ removed: number; attached: number }> {
  const db = getDb(env);
  const stale = (
    await unattachedUploadsBefore(db, new Date(now.getTime() - UPLOAD_GRACE_MS), UNATTACHED_SWEEP_BATCH)
  ).map((row) => row.key);
  if (stale.length === 0) return { removed: 0, attached: 0 };
  const inUse = await uploadKeysInUse(db, stale);
  const unused = stale.filter((key) => !inUse.has(key));
  const objects = unused.flatMap((key) => (key.startsWith("guess-win-videos/") ? [key, videoMetaKey(key)] : [key]));
  if (objects.length > 0) await env.MEDIA.delete(objects);
  await deleteUploadRows(db, unused);
  await markUploadsAttached(db, [...inUse], now);
  return { removed: unused.length, attached: inUse.size };
}
