// Uploads to R2 through the Worker (DESIGN decision 7): product images are typed from their bytes and limited to
// 5 MB; digital product files are any type up to 50 MB and live under private/, which /media never serves.
import { IMAGE_MAX_BYTES } from "~/domain/catalog";

export { IMAGE_MAX_BYTES };

/** 50 MB: the largest downloadable file of a digital product. */
export const DIGITAL_FILE_MAX_BYTES = 52_428_800;

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
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ext: "png", contentType: "image/png" };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { ext: "jpg", contentType: "image/jpeg" };
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return { ext: "webp", contentType: "image/webp" };
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return { ext: "gif", contentType: "image/gif" };
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
    readonly status: 400 | 413 | 415,
  ) {
    super(message);
  }
}

/**
 * Reads one uploaded file from a request: a multipart form field `file`, or the raw body with its Content-Type
 * (the name may come in an `X-File-Name` header). Refuses more than `maxBytes` with 413 before storing anything.
 */
export async function readUpload(request: Request, maxBytes: number, sizeMessage: string): Promise<UploadBody> {
  const declared = Number(request.headers.get("Content-Length"));
  const type = request.headers.get("Content-Type") ?? "";
  if (type.toLowerCase().startsWith("multipart/form-data")) {
    // A multipart body carries a little framing beyond the file itself.
    if (Number.isFinite(declared) && declared > maxBytes + 64 * 1024) throw new UploadError(sizeMessage, 413);
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new UploadError("Please choose a file to upload", 400);
    }
    const file = form.get("file");
    if (!file || typeof file === "string") throw new UploadError("Please choose a file to upload", 400);
    if (file.size > maxBytes) throw new UploadError(sizeMessage, 413);
    if (file.size === 0) throw new UploadError("Please choose a file to upload", 400);
    return { bytes: new Uint8Array(await file.arrayBuffer()), fileName: file.name || null, contentType: file.type || null };
  }
  if (Number.isFinite(declared) && declared > maxBytes) throw new UploadError(sizeMessage, 413);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length > maxBytes) throw new UploadError(sizeMessage, 413);
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

/** Stores a product image of a user; the type comes from the bytes, never from the name or header. */
export async function storeProductImage(env: Pick<Env, "MEDIA">, userId: string, body: UploadBody) {
  if (body.bytes.length > IMAGE_MAX_BYTES) throw new UploadError(IMAGE_SIZE_MESSAGE, 413);
  const type = sniffImageType(body.bytes);
  if (!type) throw new UploadError(IMAGE_TYPE_MESSAGE, 415);
  const key = uploadKey(`products/${userId}`, type.ext);
  await env.MEDIA.put(key, body.bytes, {
    httpMetadata: { contentType: type.contentType, cacheControl: "public, max-age=31536000, immutable" },
  });
  return { url: `/media/${key}`, key };
}

/** Stores a digital product's file under private/ (never served by /media; downloads go through signed links). */
export async function storeDigitalFile(env: Pick<Env, "MEDIA">, userId: string, body: UploadBody) {
  if (body.bytes.length > DIGITAL_FILE_MAX_BYTES) throw new UploadError(DIGITAL_FILE_SIZE_MESSAGE, 413);
  const key = uploadKey(`private/digital/${userId}`, safeExtension(body.fileName));
  const contentType = body.contentType && /^[\w.+-]+\/[\w.+-]+$/.test(body.contentType) ? body.contentType : "application/octet-stream";
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
