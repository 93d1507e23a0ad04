import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { orders, products } from "~/db/schema";
import { signedDownloadUrl, verifyDownloadSignature } from "~/lib/downloads.server";
import { IMAGE_MAX_BYTES, sniffImageType } from "~/lib/uploads.server";
import { downloads } from "../workers/downloads";
import { uploads } from "../workers/uploads";
import { digitalProductFile } from "../scripts/seed/digital-file";
import { Uploads } from "../scripts/seed/media";
import { db, get, makeUser, ORIGIN, signIn } from "./helpers";

// The upload and download sub-apps (mounted by workers/api.ts at /api/uploads and /api/downloads), exercised
// directly with Hono's app.request against the test bindings.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
const GIF = new TextEncoder().encode("GIF89a\x01\x00\x01\x00");
const WEBP = new Uint8Array([...new TextEncoder().encode("RIFF"), 0, 0, 0, 0, ...new TextEncoder().encode("WEBPVP8 ")]);

function post(app: typeof uploads, path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return app.request(`${ORIGIN}${path}`, { method: "POST", body, headers }, env);
}

describe("sniffImageType", () => {
  it("tells PNG, JPEG, WebP and GIF from their bytes", () => {
    expect(sniffImageType(PNG)?.contentType).toBe("image/png");
    expect(sniffImageType(JPEG)?.contentType).toBe("image/jpeg");
    expect(sniffImageType(WEBP)?.contentType).toBe("image/webp");
    expect(sniffImageType(GIF)?.contentType).toBe("image/gif");
  });
  it("refuses anything else", () => {
    expect(sniffImageType(new TextEncoder().encode("hello, I am text"))).toBeNull();
    expect(sniffImageType(new Uint8Array([0x89, 0x50]))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode("RIFF\0\0\0\0AVI LIST"))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe("POST /api/uploads/image", () => {
  let user: { id: string; email: string };
  let cookie: string;
  beforeAll(async () => {
    user = await makeUser({ name: "Uploader" });
    cookie = await signIn(user.email);
  });

  it("stores PNG bytes under products/{userId}/ with the sniffed content type", async () => {
    const res = await post(uploads, "/image", PNG, { Cookie: cookie, "Content-Type": "application/octet-stream" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { url: string; key: string };
    expect(body.key).toMatch(new RegExp(`^products/${user.id}/\\d+-[a-f0-9]+\\.png$`));
    expect(body.url).toBe(`/media/${body.key}`);
    const object = await env.MEDIA.get(body.key);
    expect(object?.httpMetadata?.contentType).toBe("image/png");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(PNG);
    // and it is publicly served
    const served = await get(body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
  });

  it("accepts a multipart field `file`", async () => {
    const form = new FormData();
    form.set("file", new File([JPEG], "photo.jpg", { type: "image/jpeg" }));
    const res = await post(uploads, "/image", form, { Cookie: cookie });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { key: string }).key).toMatch(/\.jpg$/);
  });

  it("refuses a text file renamed .png (415)", async () => {
    const form = new FormData();
    form.set("file", new File(["just some text"], "picture.png", { type: "image/png" }));
    const res = await post(uploads, "/image", form, { Cookie: cookie });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: "Please select an image file" });
    const raw = await post(uploads, "/image", "just some text", {
      Cookie: cookie,
      "Content-Type": "image/png",
      "X-File-Name": "picture.png",
    });
    expect(raw.status).toBe(415);
  });

  it("refuses 5 MB + 1 byte (413) and accepts exactly 5 MB", async () => {
    const tooBig = new Uint8Array(IMAGE_MAX_BYTES + 1);
    tooBig.set(PNG);
    const res = await post(uploads, "/image", tooBig, { Cookie: cookie, "Content-Type": "image/png" });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "File size must be less than 5MB" });

    const form = new FormData();
    form.set("file", new File([tooBig], "big.png", { type: "image/png" }));
    expect((await post(uploads, "/image", form, { Cookie: cookie })).status).toBe(413);

    const exact = tooBig.slice(0, IMAGE_MAX_BYTES);
    expect((await post(uploads, "/image", exact, { Cookie: cookie, "Content-Type": "image/png" })).status).toBe(201);
  });

  it("answers 401 to a visitor", async () => {
    const res = await post(uploads, "/image", PNG, { "Content-Type": "image/png" });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBeTruthy();
    const bogus = await post(uploads, "/image", PNG, { Cookie: "__Host-session=nope", "Content-Type": "image/png" });
    expect(bogus.status).toBe(401);
  });

  it("stores digital files privately (never served by /media)", async () => {
    const res = await post(uploads, "/file", "%PDF-1.4 pretend", {
      Cookie: cookie,
      "Content-Type": "application/pdf",
      "X-File-Name": "guide.pdf",
    });
    expect(res.status).toBe(201);
    const { key } = (await res.json()) as { key: string };
    expect(key).toMatch(new RegExp(`^private/digital/${user.id}/.+\\.pdf$`));
    expect(await env.MEDIA.get(key)).not.toBeNull();
    expect((await get(`/media/${key}`)).status).toBe(404);
    expect((await post(uploads, "/file", "x", { "Content-Type": "text/plain" })).status).toBe(401);
  });
});

describe("GET /api/downloads/:orderId", () => {
  let buyer: { id: string; email: string };
  let other: { id: string; email: string };
  let buyerCookie: string;
  let otherCookie: string;
  let orderId: string;
  let unpaidOrderId: string;
  const fileKey = `private/digital/test-${crypto.randomUUID()}/file.pdf`;
  const content = "%PDF-1.4 the recipe book";

  async function addOrder(userId: string, productId: string, hostId: string, status: "paid" | "pending") {
    const id = crypto.randomUUID();
    await db()
      .insert(orders)
      .values({
        id,
        orderNumber: `ORD-${id.slice(-8).toUpperCase()}`,
        userId,
        hostId,
        productId,
        status,
        amountCents: 900,
        unitPriceCents: 900,
        productName: "Recipe Book",
        productCategory: "digital",
      });
    return id;
  }

  beforeAll(async () => {
    const host = await makeUser({ name: "Digital Host" });
    buyer = await makeUser({ name: "Buyer" });
    other = await makeUser({ name: "Other" });
    const productId = crypto.randomUUID();
    await db()
      .insert(products)
      .values({ id: productId, hostId: host.id, name: "Recipe Book", category: "digital", digitalFileKey: fileKey });
    await env.MEDIA.put(fileKey, content, {
      httpMetadata: { contentType: "application/pdf" },
      customMetadata: { fileName: "book.pdf" },
    });
    orderId = await addOrder(buyer.id, productId, host.id, "paid");
    unpaidOrderId = await addOrder(buyer.id, productId, host.id, "pending");
    buyerCookie = await signIn(buyer.email);
    otherCookie = await signIn(other.email);
  });

  function fetchLink(url: string, cookie?: string) {
    return downloads.request(
      `${ORIGIN}${url.replace(/^\/api\/downloads/, "")}`,
      { headers: cookie ? { Cookie: cookie } : {} },
      env,
    );
  }

  it("gives the buyer the file through a fresh signed link", async () => {
    const url = signedDownloadUrl(env, { orderId, userId: buyer.id });
    expect(url).toMatch(new RegExp(`^/api/downloads/${orderId}\\?exp=\\d+&sig=[\\w-]+$`));
    const res = await fetchLink(url, buyerCookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="Recipe Book\.pdf"$/);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(await res.text()).toBe(content);
  });

  it("delivers the seeded digital product's file as a real PDF (scripts/seed/digital-file.ts)", async () => {
    // The file the seed makes for a digital product, stored the way the seed stores it, bought and downloaded.
    const host = await makeUser({ name: "Seeded Host" });
    const file = digitalProductFile({
      name: "Weeknight Dinner Planner",
      description: "A 12-week printable planner with shopping lists, a pantry tracker and forty weeknight dinners.",
      hostName: "Kopitiam Kitchen",
    });
    const key = `private/digital/${host.id}/${crypto.randomUUID()}.${file.extension}`;
    const media = new Uploads();
    media.file(key, file.body, file.contentType);
    await media.write(env.MEDIA);
    const productId = crypto.randomUUID();
    await db().insert(products).values({
      id: productId,
      hostId: host.id,
      name: "Weeknight Dinner Planner",
      category: "digital",
      digitalFileKey: key,
    });
    const order = await addOrder(buyer.id, productId, host.id, "paid");
    const res = await fetchLink(signedDownloadUrl(env, { orderId: order, userId: buyer.id }), buyerCookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="Recipe Book.pdf"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get("Content-Length"))).toBe(bytes.length);
    // One character a byte, so string offsets are byte offsets.
    const pdf = Array.from(bytes, (b) => String.fromCharCode(b)).join("");
    expect(pdf.startsWith("%PDF-1.4\n")).toBe(true);
    expect(pdf).toMatch(/%%EOF\n?$/);
    // The cross-reference table: startxref names where it starts, and every in-use entry's offset is where its
    // object starts ("N 0 obj"), for as many objects as the trailer's /Size says.
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n?$/.exec(pdf)?.[1]);
    expect(pdf.slice(startxref, startxref + 5)).toBe("xref\n");
    const [, first, countText, table] = /^xref\n(\d+) (\d+)\n((?:\d{10} \d{5} [nf] ?\n)+)/.exec(pdf.slice(startxref))!;
    const entries = table!.trim().split("\n");
    expect(Number(first)).toBe(0);
    expect(entries).toHaveLength(Number(countText));
    expect(Number(/trailer\s*<<[^>]*\/Size (\d+)/.exec(pdf)?.[1])).toBe(entries.length);
    expect(entries[0]).toMatch(/^0000000000 65535 f/);
    entries.slice(1).forEach((entry, i) => {
      const offset = Number(entry.slice(0, 10));
      expect(pdf.slice(offset).startsWith(`${i + 1} 0 obj`), `object ${i + 1} at ${offset}`).toBe(true);
    });
    // A catalog, one page, and a content stream (whose /Length is right) that shows the product's name.
    const root = Number(/\/Root (\d+) 0 R/.exec(pdf)?.[1]);
    expect(pdf).toMatch(new RegExp(`(^|\\n)${root} 0 obj\\s*<<[^]*?/Type /Catalog`));
    expect(pdf).toMatch(/\/Type \/Page\b/);
    const stream = /<<\s*\/Length (\d+)\s*>>\nstream\n([^]*?)\nendstream/.exec(pdf);
    expect(stream).not.toBeNull();
    expect(stream![2]!.length).toBe(Number(stream![1]));
    expect(stream![2]).toContain("(Weeknight Dinner Planner) Tj");
  });

  it("refuses an expired link", async () => {
    const url = signedDownloadUrl(env, { orderId, userId: buyer.id }, 300, Date.now() - 301_000);
    expect((await fetchLink(url, buyerCookie)).status).toBe(403);
  });

  it("refuses a tampered signature or expiry", async () => {
    const url = signedDownloadUrl(env, { orderId, userId: buyer.id });
    const tampered = url.replace(/sig=(.)/, (_, c: string) => `sig=${c === "A" ? "B" : "A"}`);
    expect((await fetchLink(tampered, buyerCookie)).status).toBe(403);
    const longer = url.replace(/exp=(\d+)/, (_, e: string) => `exp=${Number(e) + 3600}`);
    expect((await fetchLink(longer, buyerCookie)).status).toBe(403);
    expect(verifyDownloadSignature(env, { orderId, userId: buyer.id, exp: "123", sig: "x" })).toBe(false);
  });

  it("refuses another user, a visitor and a link made for someone else", async () => {
    const url = signedDownloadUrl(env, { orderId, userId: buyer.id });
    expect((await fetchLink(url, otherCookie)).status).toBe(403);
    expect((await fetchLink(url)).status).toBe(403);
    // a correctly signed link for the other user still is not their order
    const theirs = signedDownloadUrl(env, { orderId, userId: other.id });
    expect((await fetchLink(theirs, otherCookie)).status).toBe(403);
  });

  it("refuses an unpaid order and answers 404 for an unknown one", async () => {
    expect(
      (await fetchLink(signedDownloadUrl(env, { orderId: unpaidOrderId, userId: buyer.id }), buyerCookie)).status,
    ).toBe(403);
    const unknown = crypto.randomUUID();
    expect((await fetchLink(signedDownloadUrl(env, { orderId: unknown, userId: buyer.id }), buyerCookie)).status).toBe(
      404,
    );
  });
});
