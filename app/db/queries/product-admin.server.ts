// A host's own products: create, update, archive or delete, and the management lists.
import { and, count, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  mainImage,
  productOrder,
  productSearch,
  productSearchJoin,
  productSearchMatches,
} from "~/db/queries/products.server";
import { payableCheckoutReferences } from "~/db/queries/checkout.server";
import {
  groupBuyProducts,
  groupBuys,
  orders,
  productColors,
  productImages,
  products,
  productSizes,
  userActivity,
} from "~/db/schema";
import { stockLabel, totalAvailableUnits } from "~/domain/stock";
import { STORE_SALE_STATUSES } from "~/domain/orders";
import type { ProductFormValues, ProductInput } from "~/lib/product-form";
import { productImageKey } from "~/lib/uploads.server";
import { formatAmount } from "~/domain/money";
import { productMatchQuery } from "~/domain/search";

function children(db: Db, productId: string, input: ProductInput, currency: string) {
  const writes = [];
  if (input.sizes.length) {
    writes.push(
      db.insert(productSizes).values(
        input.sizes.map((s) => ({
          productId,
          name: s.name,
          priceCents: s.priceCents,
          currency,
          dimensions: s.dimensions,
          availableUnits: s.availableUnits,
          position: s.position,
        })),
      ),
    );
  }
  if (input.colors.length) {
    writes.push(
      db.insert(productColors).values(
        input.colors.map((c) => ({
          productId,
          name: c.name,
          hex: c.hex,
          availableUnits: c.availableUnits,
          position: c.position,
        })),
      ),
    );
  }
  writes.push(
    db.insert(productImages).values(
      input.images.map((url, position) => {
        const key = productImageKey(url);
        return { productId, url, r2Key: key, position };
      }),
    ),
  );
  return writes;
}

function productColumns(input: ProductInput) {
  return {
    name: input.name,
    description: input.description,
    category: input.category,
    shopCategory: input.shopCategory,
    basePriceCents: input.basePriceCents,
    priceMinCents: input.priceMinCents,
    priceMaxCents: input.priceMaxCents,
    voucherValueCents: input.voucherValueCents,
    voucherExpiresAt: input.voucherExpiresAt,
    digitalFileKey: input.digitalFileKey,
  };
}

/** Inserts the product, its sizes, colours and images and a 'product_created' activity in one D1 batch. */
export async function createProduct(db: Db, hostId: string, input: ProductInput): Promise<string> {
  const id = crypto.randomUUID();
  const currency = "USD";
  await db.batch([
    db.insert(products).values({ id, hostId, currency, status: "active", ...productColumns(input) }),
    ...children(db, id, input, currency),
    db.insert(userActivity).values({
      userId: hostId,
      activityType: "product_created",
      activityData: { product_id: id, name: input.name, category: input.category },
    }),
  ]);
  return id;
}

/**
 * Replaces a product's fields, sizes, colours and images in one batch, only when `hostId` owns it. Returns the R2
 * keys of images no longer used (for the caller to remove), or null when nothing was changed.
 */
export async function updateProduct(db: Db, id: string, hostId: string, input: ProductInput): Promise<string[] | null> {
  const [current] = await db
    .select({ hostId: products.hostId, currency: products.currency })
    .from(products)
    .where(eq(products.id, id))
    .limit(1);
  if (!current || current.hostId !== hostId) return null;
  const oldImages = await db
    .select({ key: productImages.r2Key })
    .from(productImages)
    .where(eq(productImages.productId, id))
    .limit(50);
  await db.batch([
    db
      .update(products)
      .set(productColumns(input))
      .where(and(eq(products.id, id), eq(products.hostId, hostId))),
    db.delete(productSizes).where(eq(productSizes.productId, id)),
    db.delete(productColors).where(eq(productColors.productId, id)),
    db.delete(productImages).where(eq(productImages.productId, id)),
    ...children(db, id, input, current.currency),
  ]);
  const kept = new Set(input.images.map(productImageKey).filter(Boolean));
  return unusedImageKeys(
    db,
    oldImages.map((r) => r.key).filter((k): k is string => !!k && k.startsWith(`products/${hostId}/`) && !kept.has(k)),
  );
}

/** The keys no product image row uses any more (a host may show one uploaded image on several products). */
async function unusedImageKeys(db: Db, keys: string[]): Promise<string[]> {
  if (!keys.length) return [];
  const used = await db
    .selectDistinct({ key: productImages.r2Key })
    .from(productImages)
    .where(inArray(productImages.r2Key, keys))
    .limit(keys.length);
  const inUse = new Set(used.map((r) => r.key));
  return keys.filter((k) => !inUse.has(k));
}

export async function countProductOrders(db: Db, productId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(orders).where(eq(orders.productId, productId));
  return row?.n ?? 0;
}

/** The host's active group buys that offer this product, with their participants (what removing it affects). */
export function activeGroupBuysOfProduct(db: Db, productId: string, hostId: string) {
  return db
    .select({
      id: groupBuys.id,
      name: groupBuys.name,
      participants: groupBuys.currentParticipants,
      salesCents: groupBuys.currentSalesCents,
      targetCents: groupBuys.targetCents,
      currency: groupBuys.currency,
    })
    .from(groupBuyProducts)
    .innerJoin(groupBuys, eq(groupBuys.id, groupBuyProducts.groupBuyId))
    .where(and(eq(groupBuyProducts.productId, productId), eq(groupBuys.hostId, hostId), eq(groupBuys.status, "active")))
    .limit(5);
}

/**
 * Removes a product from the shop. With orders, or a checkout for it that may still be paid, it is archived (orders
 * keep pointing at it; the payment can still be fulfilled); without, it is deleted with its sizes, colours, images
 * and likes, and the R2 keys to remove are returned.
 */
export async function deleteOrArchiveProduct(
  db: Db,
  id: string,
  hostId: string,
): Promise<{ outcome: "archived" | "deleted"; r2Keys: string[] } | null> {
  const [product] = await db
    .select({ hostId: products.hostId, digitalFileKey: products.digitalFileKey })
    .from(products)
    .where(eq(products.id, id))
    .limit(1);
  if (!product || product.hostId !== hostId) return null;
  const [payable] = await db
    .select({ yes: sql<number>`${payableCheckoutReferences({ productId: id })}` })
    .from(products)
    .where(eq(products.id, id));
  if ((await countProductOrders(db, id)) > 0 || payable?.yes) {
    await db
      .update(products)
      .set({ status: "archived" })
      .where(and(eq(products.id, id), eq(products.hostId, hostId)));
    return { outcome: "archived", r2Keys: [] };
  }
  const images = await db
    .select({ key: productImages.r2Key })
    .from(productImages)
    .where(eq(productImages.productId, id))
    .limit(50);
  // Only delete when still no order exists (an order placed meanwhile would otherwise block with a FK error).
  await db
    .delete(products)
    .where(
      and(
        eq(products.id, id),
        eq(products.hostId, hostId),
        sql`not exists (select 1 from ${orders} where ${orders.productId} = ${id})`,
        sql`not ${payableCheckoutReferences({ productId: id })}`,
      ),
    );
  const [still] = await db.select({ id: products.id }).from(products).where(eq(products.id, id)).limit(1);
  if (still) {
    await db.update(products).set({ status: "archived" }).where(eq(products.id, id));
    return { outcome: "archived", r2Keys: [] };
  }
  const keys = await unusedImageKeys(
    db,
    images.map((r) => r.key).filter((k): k is string => !!k && k.startsWith(`products/${hostId}/`)),
  );
  if (product.digitalFileKey?.startsWith(`private/digital/${hostId}/`)) keys.push(product.digitalFileKey);
  return { outcome: "deleted", r2Keys: keys };
}

/**
 * A page of the host's own products (/shop-management), archived last, newest first; with a search (`q`), only the
 * products the shop's search index matches, best match first (the same engine as /shop, decision 590).
 */
export async function listManagedProducts(
  db: Db,
  hostId: string,
  { limit, offset, q }: { limit: number; offset: number; q?: string },
) {
  const match = q ? productMatchQuery(q) : null;
  if (q && !match) return [];
  let query = db
    .select({
      id: products.id,
      name: products.name,
      category: products.category,
      status: products.status,
      basePriceCents: products.basePriceCents,
      priceMinCents: products.priceMinCents,
      priceMaxCents: products.priceMaxCents,
      currency: products.currency,
      salesCount: products.salesCount,
      image: mainImage,
    })
    .from(products)
    .$dynamic();
  if (match) query = query.innerJoin(productSearch, productSearchJoin);
  const rows = await query
    .where(and(eq(products.hostId, hostId), match ? productSearchMatches(match) : undefined))
    .orderBy(sql`${products.status} = 'archived'`, ...productOrder(match ? "relevance" : "newest", !!match))
    .limit(limit)
    .offset(offset);
  const ids = rows.map((r) => r.id);
  const sizes = ids.length
    ? await db
        .select({ productId: productSizes.productId, availableUnits: productSizes.availableUnits })
        .from(productSizes)
        .where(inArray(productSizes.productId, ids))
        .limit(ids.length * 20)
    : [];
  return rows.map((r) => ({
    ...r,
    stock: stockLabel(r.category, totalAvailableUnits(sizes.filter((s) => s.productId === r.id))),
  }));
}

/** Products a host has in the shop (not archived). */
export async function countLiveHostProducts(db: Db, hostId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(products)
    .where(and(eq(products.hostId, hostId), ne(products.status, "archived")));
  return row?.n ?? 0;
}

/** Store sales and revenue of a product, from its orders. */
export async function productSales(db: Db, productId: string) {
  const [row] = await db
    .select({
      sales: sql<number>`coalesce(sum(${orders.quantity}), 0)`,
      orders: count(),
      revenueCents: sql<number>`coalesce(sum(${orders.amountCents} - ${orders.refundedCents}), 0)`,
    })
    .from(orders)
    .where(and(eq(orders.productId, productId), inArray(orders.status, [...STORE_SALE_STATUSES])));
  return { sales: Number(row?.sales ?? 0), orders: row?.orders ?? 0, revenueCents: Number(row?.revenueCents ?? 0) };
}

/** A product's full editable state, as the form's typed values. */
export async function productFormValuesFor(db: Db, id: string) {
  const [product] = await db.select().from(products).where(eq(products.id, id)).limit(1);
  if (!product) return null;
  const [sizes, colors, images] = await Promise.all([
    db.select().from(productSizes).where(eq(productSizes.productId, id)).orderBy(productSizes.position).limit(MAX_ROWS),
    db
      .select()
      .from(productColors)
      .where(eq(productColors.productId, id))
      .orderBy(productColors.position)
      .limit(MAX_ROWS),
    db
      .select()
      .from(productImages)
      .where(eq(productImages.productId, id))
      .orderBy(productImages.position)
      .limit(MAX_ROWS),
  ]);
  const values: ProductFormValues = {
    name: product.name,
    description: product.description,
    category: product.category,
    shopCategory: product.shopCategory ?? "",
    voucherValue: product.voucherValueCents != null ? String(Math.floor(product.voucherValueCents / 100)) : "",
    voucherExpiry: product.voucherExpiresAt ? product.voucherExpiresAt.toISOString().slice(0, 10) : "",
    digitalFileKey: product.digitalFileKey ?? "",
    sizes: sizes.map((s) => ({
      name: s.name,
      price: formatAmount(s.priceCents, "USD").replace(/,/g, ""),
      units: String(s.availableUnits),
      dimensions: s.dimensions ?? "",
    })),
    colors: colors.map((c) => ({ name: c.name, hex: c.hex ?? "#000000", units: String(c.availableUnits) })),
    images: images.map((i) => i.url),
  };
  return { product, sizes, colors, images, values };
}

const MAX_ROWS = 20;
