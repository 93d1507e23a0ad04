import { Hono } from "hono";
import { getDb } from "~/db/client.server";
import { getOrderDownload } from "~/db/queries/orders.server";
import { DOWNLOADABLE_ORDER_STATUSES } from "~/domain/orders";
import { verifyDownloadSignature } from "~/lib/downloads.server";
import { safeExtension } from "~/lib/uploads.server";
import { withUser, type UserApi } from "./session-user";

const DOWNLOADABLE = new Set<string>(DOWNLOADABLE_ORDER_STATUSES);

/** /api/downloads/:orderId?exp&sig — a digital product's file for its buyer, through a signed, expiring link. */
export const downloads = new Hono<UserApi>();
downloads.use("*", withUser);

downloads.get("/:orderId", async (c) => {
  const orderId = c.req.param("orderId");
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(orderId)) return c.json({ error: "Not found" }, 404);
  const user = c.get("user");
  if (!user) return c.json({ error: "Forbidden" }, 403);
  const valid = verifyDownloadSignature(c.env, {
    orderId,
    userId: user.id,
    exp: c.req.query("exp"),
    sig: c.req.query("sig"),
  });
  if (!valid) return c.json({ error: "This download link is invalid or has expired" }, 403);

  const row = await getOrderDownload(getDb(c.env), orderId);
  if (!row) return c.json({ error: "Not found" }, 404);
  // A fully refunded order's link is void.
  if (row.userId !== user.id || !DOWNLOADABLE.has(row.status) || row.refundState === "full") {
    return c.json({ error: "Forbidden" }, 403);
  }
  if (!row.fileKey || !row.fileKey.startsWith("private/digital/")) return c.json({ error: "Not found" }, 404);

  const object = await c.env.MEDIA.get(row.fileKey);
  if (!object) return c.json({ error: "Not found" }, 404);
  const base =
    row.productName
      .replace(/[^A-Za-z0-9 ._-]+/g, "")
      .trim()
      .slice(0, 80) || "download";
  const fileName = `${base}.${safeExtension(object.customMetadata?.fileName ?? row.fileKey)}`;
  const headers = new Headers();
  headers.set("Content-Type", object.httpMetadata?.contentType ?? "application/octet-stream");
  headers.set("Content-Length", String(object.size));
  headers.set("Content-Disposition", `attachment; filename="${fileName}"`);
  headers.set("Cache-Control", "private, no-store");
  headers.set("X-Content-Type-Options", "nosniff");
  return new Response(object.body, { status: 200, headers });
});
