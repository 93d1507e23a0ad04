import { env } from "cloudflare:test";
import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { orders, productColors, productImages, products, productSizes, userActivity } from "~/db/schema";
import { db, decodedHtml, get, makeUser, postForm, signIn } from "./helpers";

// Host product tools against the built worker: /add-product, /edit-product/{id}, /view-product/{id},
// /delete-product/{id}, /shop-management and /dashboard.

const token = () => crypto.randomUUID().slice(0, 8);

function validFields(name: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    name,
    description: "A sturdy hand-thrown mug.",
    category: "physical",
    shopCategory: "Home & Lifestyle",
    "sizes.0.name": "Small",
    "sizes.0.price": "12.50",
    "sizes.0.units": "4",
    "sizes.0.dimensions": "8x8cm",
    "sizes.1.name": "Large",
    "sizes.1.price": "20",
    "sizes.1.units": "10",
    "sizes.1.dimensions": "",
    "colors.0.name": "Sand",
    "colors.0.hex": "#C2B280",
    "colors.0.units": "14",
    "images.0": "https://images.example.com/mug.jpg",
    "images.1": "https://images.example.com/mug-2.jpg",
    ...overrides,
  };
}

async function productsNamed(name: string) {
  return db().select().from(products).where(eq(products.name, name)).limit(5);
}

let host: { id: string; email: string };
let otherHost: { id: string; email: string };
let buyer: { id: string; email: string };
let hostCookie: string;
let otherCookie: string;
let buyerCookie: string;

beforeAll(async () => {
  host = await makeUser({ name: "Mug Maker" });
  otherHost = await makeUser({ name: "Rival Host" });
  buyer = await makeUser({ name: "Mug Buyer" });
  [hostCookie, otherCookie, buyerCookie] = await Promise.all([
    signIn(host.email),
    signIn(otherHost.email),
    signIn(buyer.email),
  ]);
});

async function addProduct(name: string, overrides: Record<string, string> = {}): Promise<string> {
  const res = await postForm("/add-product", validFields(name, overrides), { cookie: hostCookie });
  expect(
    res.status,
    await res
      .clone()
      .text()
      .then((t) => t.slice(0, 300)),
  ).toBe(302);
  const [row] = await productsNamed(name);
  return row!.id;
}

describe("/add-product", () => {
  it("sends a visitor to sign in and refuses a visitor's post", async () => {
    const res = await get("/add-product");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/signin\?redirectTo=/);
    const name = `Visitor ${token()}`;
    const post = await postForm("/add-product", validFields(name));
    expect(post.status).toBe(302);
    expect(await productsNamed(name)).toHaveLength(0);
  });

  it("shows the form with the image guidance", async () => {
    const res = await get("/add-product", { cookie: hostCookie });
    expect(res.status).toBe(200);
    const page = await decodedHtml(res);
    expect(page).toContain('name="sizes.0.name"');
    expect(page).toContain('name="colors.0.units"');
    expect(page).toContain('name="images.0"');
    expect(page).toContain("800×800");
  });

  const cases: [string, (name: string) => Record<string, string>, string][] = [
    ["blank name", () => validFields("   "), "Please enter a product name"],
    ["blank description", (n) => validFields(n, { description: "  " }), "Please enter a product description"],
    [
      "voucher without value",
      (n) => validFields(n, { category: "voucher", voucherValue: "", voucherExpiry: "2099-01-01" }),
      "Please enter a voucher value",
    ],
    [
      "voucher value 0",
      (n) => validFields(n, { category: "voucher", voucherValue: "0", voucherExpiry: "2099-01-01" }),
      "Please enter a voucher value",
    ],
    [
      "voucher without expiry",
      (n) => validFields(n, { category: "voucher", voucherValue: "50", voucherExpiry: "" }),
      "Please enter a voucher expiry date",
    ],
    [
      "voucher expiry in the past",
      (n) => validFields(n, { category: "voucher", voucherValue: "50", voucherExpiry: "2020-01-01" }),
      "Expiry date must be in the future",
    ],
    [
      "no size",
      (n) =>
        validFields(n, {
          "sizes.0.name": "",
          "sizes.0.price": "",
          "sizes.0.units": "",
          "sizes.0.dimensions": "",
          "sizes.1.name": "",
          "sizes.1.price": "",
          "sizes.1.units": "",
        }),
      "Please add at least one size with name, price, and available units",
    ],
    [
      "size price with 3 decimals",
      (n) => validFields(n, { "sizes.0.price": "1.234" }),
      "Please add at least one size with name, price, and available units",
    ],
    [
      "size with negative units",
      (n) => validFields(n, { "sizes.0.units": "-1" }),
      "Please add at least one size with name, price, and available units",
    ],
    [
      "size without units",
      (n) => validFields(n, { "sizes.1.units": "" }),
      "Please add at least one size with name, price, and available units",
    ],
    [
      "no colour",
      (n) => validFields(n, { "colors.0.name": "", "colors.0.units": "" }),
      "Please add at least one color with name and available units",
    ],
    [
      "colour without units",
      (n) => validFields(n, { "colors.0.units": "" }),
      "Please add at least one color with name and available units",
    ],
    ["no image", (n) => validFields(n, { "images.0": "", "images.1": " " }), "Please add at least one product image"],
    [
      "plain http image",
      (n) => validFields(n, { "images.0": "http://insecure.example.com/a.png" }),
      "Please use an uploaded image or an https:// image URL",
    ],
    [
      "javascript image",
      (n) => validFields(n, { "images.0": "javascript:alert(1)" }),
      "Please use an uploaded image or an https:// image URL",
    ],
  ];
  for (const [label, fields, message] of cases) {
    it(`refuses ${label} with '${message}' and inserts nothing`, async () => {
      const name = `Refused ${token()}`;
      const body = fields(name);
      const res = await postForm("/add-product", body, { cookie: hostCookie });
      expect(res.status).toBe(400);
      expect(await decodedHtml(res)).toContain(message);
      expect(await productsNamed(body.name!)).toHaveLength(0);
    });
  }

  it("refuses a name over 200 characters posted past the browser, instead of cutting it to 200", async () => {
    const name = `Long ${token()} `.padEnd(201, "x");
    expect(name).toHaveLength(201);
    const res = await postForm("/add-product", validFields(name), { cookie: hostCookie });
    expect(res.status).toBe(400);
    expect(await decodedHtml(res)).toContain("Product name must be at most 200 characters");
    expect(await productsNamed(name.slice(0, 200))).toHaveLength(0);
  });

  it("refuses a size or colour name over 100 characters instead of cutting it", async () => {
    for (const [field, message] of [
      ["sizes.0.name", "Size names and dimensions must be at most 100 characters"],
      ["colors.0.name", "Colour names must be at most 100 characters"],
    ] as const) {
      const name = `Long option ${token()}`;
      const res = await postForm("/add-product", validFields(name, { [field]: "y".repeat(101) }), {
        cookie: hostCookie,
      });
      expect(res.status).toBe(400);
      expect(await decodedHtml(res)).toContain(message);
      expect(await productsNamed(name)).toHaveLength(0);
    }
  });

  it("refuses a voucher expiry on a day that does not exist (2027-02-31), instead of rolling it into March", async () => {
    const name = `Voucher ${token()}`;
    const res = await postForm(
      "/add-product",
      validFields(name, { category: "voucher", voucherValue: "50", voucherExpiry: "2027-02-31" }),
      { cookie: hostCookie },
    );
    expect(res.status).toBe(400);
    expect(await decodedHtml(res)).toContain("That expiry date does not exist; please choose a real day");
    expect(await productsNamed(name)).toHaveLength(0);
  });

  it("refuses a digital file key of someone else", async () => {
    const name = `Digital ${token()}`;
    const res = await postForm(
      "/add-product",
      validFields(name, { category: "digital", digitalFileKey: `private/digital/${otherHost.id}/1-abc.pdf` }),
      { cookie: hostCookie },
    );
    expect(res.status).toBe(400);
    expect(await productsNamed(name)).toHaveLength(0);
  });

  it("creates the product with sizes, colours, images, derived prices and an activity", async () => {
    const name = `Mug ${token()}`;
    const res = await postForm("/add-product", validFields(name), { cookie: hostCookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/shop");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-toast="))).toBe(true);
    const [product] = await productsNamed(name);
    expect(product).toMatchObject({
      hostId: host.id,
      description: "A sturdy hand-thrown mug.",
      category: "physical",
      shopCategory: "Home & Lifestyle",
      status: "active",
      priceMinCents: 1250,
      priceMaxCents: 2000,
      basePriceCents: 1250,
      voucherValueCents: null,
    });
    const sizes = await db()
      .select()
      .from(productSizes)
      .where(eq(productSizes.productId, product!.id))
      .orderBy(asc(productSizes.position));
    expect(sizes.map((s) => [s.name, s.priceCents, s.availableUnits, s.dimensions])).toEqual([
      ["Small", 1250, 4, "8x8cm"],
      ["Large", 2000, 10, null],
    ]);
    const colors = await db().select().from(productColors).where(eq(productColors.productId, product!.id));
    expect(colors.map((c) => [c.name, c.hex, c.availableUnits])).toEqual([["Sand", "#c2b280", 14]]);
    const images = await db()
      .select()
      .from(productImages)
      .where(eq(productImages.productId, product!.id))
      .orderBy(asc(productImages.position));
    expect(images.map((i) => i.url)).toEqual([
      "https://images.example.com/mug.jpg",
      "https://images.example.com/mug-2.jpg",
    ]);
    const activity = await db()
      .select()
      .from(userActivity)
      .where(and(eq(userActivity.userId, host.id), eq(userActivity.activityType, "product_created")))
      .limit(50);
    expect(activity.some((a) => a.activityData?.product_id === product!.id)).toBe(true);
  });

  /** A USD 50 voucher with one size row as given (blank fields leave it out), no colours. */
  const voucherFields = (name: string, size: { name: string; price: string; units: string }) =>
    validFields(name, {
      category: "voucher",
      voucherValue: "50",
      voucherExpiry: "2099-06-30",
      "sizes.0.name": size.name,
      "sizes.0.price": size.price,
      "sizes.0.units": size.units,
      "sizes.0.dimensions": "",
      "sizes.1.name": "",
      "sizes.1.price": "",
      "sizes.1.units": "",
      "colors.0.name": "",
      "colors.0.units": "",
    });

  it("creates a voucher product with its price row and no colours", async () => {
    const name = `Voucher ${token()}`;
    const res = await postForm(
      "/add-product",
      voucherFields(name, { name: "Single entry", price: "45", units: "30" }),
      { cookie: hostCookie },
    );
    expect(res.status).toBe(302);
    const [product] = await productsNamed(name);
    expect(product).toMatchObject({
      category: "voucher",
      voucherValueCents: 5000,
      priceMinCents: 4500,
      basePriceCents: 4500,
    });
    expect(product!.voucherExpiresAt?.toISOString()).toBe("2099-06-30T00:00:00.000Z");
  });

  it("refuses a voucher without a size row (checkout prices and stocks by size, so it could never be bought)", async () => {
    const name = `Sizeless voucher ${token()}`;
    const res = await postForm("/add-product", voucherFields(name, { name: "", price: "", units: "" }), {
      cookie: hostCookie,
    });
    expect(res.status).toBe(400);
    expect(await decodedHtml(res)).toContain("Please add at least one size with name, price, and available units");
    expect(await productsNamed(name)).toHaveLength(0);
  });
});

describe("/edit-product/{id}", () => {
  it("prefills the form and saves the host's changes", async () => {
    const name = `Editable ${token()}`;
    const id = await addProduct(name);
    const page = await decodedHtml(await get(`/edit-product/${id}`, { cookie: hostCookie }));
    expect(page).toContain(`value="${name}"`);
    expect(page).toContain('value="12.50"');

    const renamed = `${name} v2`;
    const res = await postForm(
      `/edit-product/${id}`,
      validFields(renamed, { "sizes.1.name": "", "sizes.1.price": "", "sizes.1.units": "", "sizes.0.price": "15" }),
      { cookie: hostCookie },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/shop-management");
    const [row] = await db().select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({ name: renamed, priceMinCents: 1500, priceMaxCents: 1500 });
    expect(await db().select().from(productSizes).where(eq(productSizes.productId, id))).toHaveLength(1);
  });

  it("applies the same validation on save", async () => {
    const name = `Strict ${token()}`;
    const id = await addProduct(name);
    const res = await postForm(`/edit-product/${id}`, validFields(name, { description: "" }), { cookie: hostCookie });
    expect(res.status).toBe(400);
    expect(await decodedHtml(res)).toContain("Please enter a product description");
    const [row] = await db().select().from(products).where(eq(products.id, id));
    expect(row!.description).toBe("A sturdy hand-thrown mug.");
  });

  it("refuses another host (403) and changes nothing", async () => {
    const name = `Guarded ${token()}`;
    const id = await addProduct(name);
    expect((await get(`/edit-product/${id}`, { cookie: otherCookie })).status).toBe(403);
    const res = await postForm(`/edit-product/${id}`, validFields("Hijacked"), { cookie: otherCookie });
    expect(res.status).toBe(403);
    const [row] = await db().select().from(products).where(eq(products.id, id));
    expect(row!.name).toBe(name);
    expect((await get(`/view-product/${id}`, { cookie: otherCookie })).status).toBe(403);
  });

  it("answers 404 for an unknown product", async () => {
    expect((await get(`/edit-product/${crypto.randomUUID()}`, { cookie: hostCookie })).status).toBe(404);
  });

  it("shows each colour as a visible swatch of its hex, with a size, a border and the colour's name", async () => {
    const name = `Swatched ${token()}`;
    const id = await addProduct(name, {
      "colors.1.name": "Teal",
      "colors.1.hex": "#008080",
      "colors.1.units": "3",
    });
    const html = await decodedHtml(await get(`/edit-product/${id}`, { cookie: hostCookie }));
    for (const [colour, hex] of [
      ["Sand", "#c2b280"],
      ["Teal", "#008080"],
    ]) {
      // The element painted with the colour (not the native colour input, which draws a thin grey line).
      const swatch = [...html.matchAll(/<(?!input)[a-z]+\b[^>]*>/g)]
        .map((m) => m[0])
        .find((tag) => new RegExp(`style="[^"]*background-color:\\s*${hex}`, "i").test(tag));
      expect(swatch, colour).toBeDefined();
      expect(swatch).toMatch(/class="[^"]*\bh-\d+\b[^"]*"/);
      expect(swatch).toMatch(/class="[^"]*\bw-\d+\b[^"]*"/);
      expect(swatch).toMatch(/class="[^"]*\bborder\b[^"]*"/);
      expect(swatch).toMatch(new RegExp(`aria-label="${colour} \\(${hex}\\)"`, "i"));
    }
    // A new product's blank colour row has its swatch too.
    const blank = await decodedHtml(await get("/add-product", { cookie: hostCookie }));
    expect(blank).toMatch(/<span[^>]*style="background-color:#000000"[^>]*aria-label="New colour \(#000000\)"/);
  });
});

describe("/view-product/{id} and /shop-management", () => {
  it("shows the stock label, sales and links", async () => {
    const name = `Viewed ${token()}`;
    const id = await addProduct(name, { "sizes.0.units": "2", "sizes.1.units": "3" });
    const page = await decodedHtml(await get(`/view-product/${id}`, { cookie: hostCookie }));
    expect(page).toContain("Low Stock");
    expect(page).toContain(`/edit-product/${id}`);
    expect(page).toContain(`/delete-product/${id}`);
    expect(page).toContain(`/product/${id}`);

    const list = await decodedHtml(await get("/shop-management", { cookie: hostCookie }));
    expect(list).toContain(name);
    expect(list).toContain(`/view-product/${id}`);
    expect(list).toContain("Low Stock");
  });

  it("shows each product's first image in the list", async () => {
    const id = await addProduct(`Pictured ${token()}`);
    const url = `/media/products/list-${id}.webp`;
    // Before the form's own image (position 0), so it is the first.
    await db()
      .insert(productImages)
      .values({ productId: id, url, r2Key: url.slice("/media/".length), position: -1 });
    const list = await decodedHtml(await get("/shop-management", { cookie: hostCookie }));
    expect(list).toContain(`src="${url}"`);
  });

  it("shows a voucher's value and expiry", async () => {
    const id = await addProduct(`Gift card ${token()}`, {
      category: "voucher",
      voucherValue: "50",
      voucherExpiry: "2099-06-30",
      "colors.0.name": "",
      "colors.0.hex": "",
      "colors.0.units": "",
    });
    const page = await decodedHtml(await get(`/view-product/${id}`, { cookie: hostCookie }));
    expect(page).toContain("Voucher value");
    expect(page).toContain("USD 50.00");
    expect(page).toContain('dateTime="2099-06-30T00:00:00.000Z"');
  });

  it("lists only the host's own products", async () => {
    const list = await decodedHtml(await get("/shop-management", { cookie: otherCookie }));
    expect(list).not.toContain("Mug Maker");
    expect(list).not.toContain("Viewed ");
  });
});

describe("/delete-product/{id}", () => {
  it("requires the typed confirmation", async () => {
    const name = `Keep ${token()}`;
    const id = await addProduct(name);
    for (const confirm of ["", "delete", "DELETE please"]) {
      const res = await postForm(`/delete-product/${id}`, { confirm }, { cookie: hostCookie });
      expect(res.status).toBe(400);
      expect(await decodedHtml(res)).toContain('Please type "DELETE" to confirm');
    }
    expect(await productsNamed(name)).toHaveLength(1);
  });

  it("refuses another host (403) and keeps the product", async () => {
    const name = `Mine ${token()}`;
    const id = await addProduct(name);
    expect((await get(`/delete-product/${id}`, { cookie: otherCookie })).status).toBe(403);
    const res = await postForm(`/delete-product/${id}`, { confirm: "DELETE" }, { cookie: otherCookie });
    expect(res.status).toBe(403);
    const [row] = await productsNamed(name);
    expect(row!.status).toBe("active");
  });

  it("says 'Failed to delete product' when the database refuses the delete, and keeps the product", async () => {
    const name = `Stuck ${token()}`;
    const id = await addProduct(name);
    // The database fails the delete (and an archive) of this one product.
    const guard = (op: string) =>
      `create trigger fail_${op}_${id.replaceAll("-", "_")} before ${op} on products when old.id = '${id}' begin select raise(abort, 'injected failure'); end`;
    await env.DB.batch([env.DB.prepare(guard("delete")), env.DB.prepare(guard("update"))]);
    try {
      const res = await postForm(`/delete-product/${id}`, { confirm: "DELETE" }, { cookie: hostCookie });
      expect(res.status).toBe(500);
      expect(await decodedHtml(res)).toContain("Failed to delete product");
    } finally {
      await env.DB.batch(
        ["delete", "update"].map((op) => env.DB.prepare(`drop trigger fail_${op}_${id.replaceAll("-", "_")}`)),
      );
    }
    const [row] = await productsNamed(name);
    expect(row!.status).toBe("active");
    expect(await db().select().from(productSizes).where(eq(productSizes.productId, id))).not.toHaveLength(0);
  });

  it("deletes a product without orders and removes its uploaded images", async () => {
    const name = `Gone ${token()}`;
    const key = `products/${host.id}/${Date.now()}-test.png`;
    await env.MEDIA.put(key, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), {
      httpMetadata: { contentType: "image/png" },
    });
    const id = await addProduct(name, { "images.0": `/media/${key}` });
    const [image] = await db().select().from(productImages).where(eq(productImages.productId, id)).limit(1);
    expect(image!.r2Key).toBe(key);

    const res = await postForm(`/delete-product/${id}`, { confirm: "DELETE" }, { cookie: hostCookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/shop-management");
    expect(await productsNamed(name)).toHaveLength(0);
    expect(await db().select().from(productSizes).where(eq(productSizes.productId, id))).toHaveLength(0);
    expect(await env.MEDIA.get(key)).toBeNull();
  });

  it("archives a product with orders; the order stays readable", async () => {
    const name = `Sold ${token()}`;
    const id = await addProduct(name);
    const orderId = crypto.randomUUID();
    const orderNumber = `ORD-${orderId.slice(-8).toUpperCase()}`;
    await db().insert(orders).values({
      id: orderId,
      orderNumber,
      userId: buyer.id,
      hostId: host.id,
      productId: id,
      status: "paid",
      amountCents: 1250,
      unitPriceCents: 1250,
      productName: name,
      productCategory: "physical",
    });
    const view = await decodedHtml(await get(`/view-product/${id}`, { cookie: hostCookie }));
    expect(view).toContain("USD 12.50");
    // The delete screen shows what is being removed: its image, units sold and revenue.
    const confirmPage = await decodedHtml(await get(`/delete-product/${id}`, { cookie: hostCookie }));
    expect(confirmPage).toContain('src="https://images.example.com/mug.jpg"');
    expect(confirmPage).toMatch(/Sales<\/dt><dd[^>]*>1<\/dd>/);
    expect(confirmPage).toMatch(/Revenue<\/dt><dd[^>]*>USD 12.50<\/dd>/);

    const res = await postForm(`/delete-product/${id}`, { confirm: "DELETE" }, { cookie: hostCookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/shop-management");
    const [row] = await productsNamed(name);
    expect(row!.status).toBe("archived");

    const shop = await decodedHtml(await get(`/shop?q=${encodeURIComponent(name)}`));
    expect(shop).not.toContain(`data-product-card="${id}"`);
    const orderPage = await get(`/order/${orderNumber}`, { cookie: buyerCookie });
    expect(orderPage.status).toBe(200);
    expect(await decodedHtml(orderPage)).toContain(name);
    // an archived product can no longer be edited or deleted again
    expect((await postForm(`/edit-product/${id}`, validFields("Back again"), { cookie: hostCookie })).status).toBe(404);
  });
});

describe("/dashboard", () => {
  it("shows the host's tiles with counts", async () => {
    const res = await get("/dashboard", { cookie: otherCookie });
    expect(res.status).toBe(200);
    const page = await decodedHtml(res);
    expect(page).toContain("Shop Management");
    expect(page).toContain("USD 0.00");
  });
});
