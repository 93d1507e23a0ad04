import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { getDb } from "~/db/client.server";
import { orders, products } from "~/db/schema";
import { verifyDownloadSignature } from "~/lib/downloads.server";
import { getSessionUser } from "~/lib/session.server";
import { safeExtension } from "~/lib/uploads.server";

/** Order statuses after payment (the file may be downloaded). */
const PAID_STATUSES = new Set(["paid", "processing", "pending_shipping", "shipped", "delivered", "completed"]);

/** /api/downloads/:orderId?exp&sig — a digital product's file for its buyer, through a signed, expiring link. */
export const downloads = new Hono<{ Bindings: Env }>();

downloads.get("/:orderId", async (c) => {
  const orderId = c.req.param("orderId");
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(orderId)) return c.json({ error: "Not found" }, 404);
  const db = getDb(c.env);
  const user = await getSessionUser(db, c.req.raw);
  if (!user) return c.json({ error: "Forbidden" }, 403);
  const valid = verifyDownloadSignature(c.env, {
    orderId,
    userId: user.id,
    exp: c.req.query("exp"),
    sig: c.req.query("sig"),
  });
  if (!valid) return c.json({ error: "This download link is invalid or has expired" }, 403);

  const [row] = await db
    .select({
      userId: orders.userId,
      status: orders.status,
      productName: orders.productName,
      fileKey: products.digitalFileKey,
    })
    .from(orders)
    .innerJoin(products, eq(products.id, orders.productId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row) return c.json({ error: "Not found" }, 404);
  if (row.userId !== user.id || !PAID_STATUSES.has(row.status)) return c.json({ error: "Forbidden" }, 403);
  if (!row.fileKey || !row.fileKey.startsWith("private/digital/")) return c.json({ error: "Not found" }, 404);

  const object = await c.env.MEDIA.get(row.fileKey);
  if (!object) return c.json({ error: "Not found" }, 404);
  const base = row.productName.replace(/[^A-Za-z0-9 ._-]+/g, "").trim().slice(0, 80) || "download";
  const fileName = `${base}.${safeExtension(object.customMetadata?.fileName ?? row.fileKey)}`;
  const headers = new Headers();
  headers.set("Content-Type", object.httpMetadata?.contentType ?? "application/octet-stream");
  headers.set("Content-Length", String(object.size));
  headers.set("Content-Disposition", `attachment; filename="${fileName}"`);
  headers.set("Cache-Control", "private, no-store");
  headers.set("X-Content-Type-Options", "nosniff");
  return new Response(object.body, { status: 200, headers });
});
