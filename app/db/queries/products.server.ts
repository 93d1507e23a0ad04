import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { productImages, products, productSizes, userProfiles } from "~/db/schema";

/** The product's main image (position 0 first), as a correlated subquery. */
const mainImage = sql<string | null>`(select ${productImages.url} from ${productImages} where ${productImages.productId} = ${products.id} order by ${productImages.position} limit 1)`;

const productCard = {
  id: products.id,
  hostId: products.hostId,
  hostName: userProfiles.creatorName,
  name: products.name,
  category: products.category,
  status: products.status,
  basePriceCents: products.basePriceCents,
  priceMinCents: products.priceMinCents,
  priceMaxCents: products.priceMaxCents,
  currency: products.currency,
  likeCount: products.likeCount,
  image: mainImage,
};

export type ProductCard = Awaited<ReturnType<typeof listShopProducts>>[number];

/** Active products for the shop, newest first, one page at a time. */
export function listShopProducts(db: Db, { limit, offset = 0 }: { limit: number; offset?: number }) {
  return db
    .select(productCard)
    .from(products)
    .leftJoin(userProfiles, eq(userProfiles.userId, products.hostId))
    .where(eq(products.status, "active"))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(limit)
    .offset(offset);
}

/** One product with its host's name, or undefined. */
export async function getProduct(db: Db, id: string) {
  const [row] = await db
    .select({
      id: products.id,
      hostId: products.hostId,
      hostName: userProfiles.creatorName,
      hostSlug: userProfiles.slug,
      name: products.name,
      description: products.description,
      category: products.category,
      status: products.status,
      basePriceCents: products.basePriceCents,
      priceMinCents: products.priceMinCents,
      priceMaxCents: products.priceMaxCents,
      currency: products.currency,
      likeCount: products.likeCount,
      viewCount: products.viewCount,
      salesCount: products.salesCount,
      revenueCents: products.revenueCents,
      createdAt: products.createdAt,
      updatedAt: products.updatedAt,
    })
    .from(products)
    .leftJoin(userProfiles, eq(userProfiles.userId, products.hostId))
    .where(eq(products.id, id))
    .limit(1);
  return row;
}

/** A product's sizes in their display order (a product has a handful). */
export function listProductSizes(db: Db, productId: string, limit = 20) {
  return db
    .select({
      id: productSizes.id,
      name: productSizes.name,
      priceCents: productSizes.priceCents,
      currency: productSizes.currency,
      availableUnits: productSizes.availableUnits,
    })
    .from(productSizes)
    .where(eq(productSizes.productId, productId))
    .orderBy(asc(productSizes.position))
    .limit(limit);
}

/** A product's images, main image first. */
export function listProductImages(db: Db, productId: string, limit = 8) {
  return db
    .select({ id: productImages.id, url: productImages.url })
    .from(productImages)
    .where(eq(productImages.productId, productId))
    .orderBy(asc(productImages.position))
    .limit(limit);
}

/** A host's products, newest first; `activeOnly` for what the public sees. */
export function listHostProducts(db: Db, hostId: string, { limit, activeOnly = false }: { limit: number; activeOnly?: boolean }) {
  return db
    .select(productCard)
    .from(products)
    .leftJoin(userProfiles, eq(userProfiles.userId, products.hostId))
    .where(activeOnly ? and(eq(products.hostId, hostId), eq(products.status, "active")) : eq(products.hostId, hostId))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(limit);
}

export async function countHostProducts(db: Db, hostId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products).where(eq(products.hostId, hostId));
  return row?.n ?? 0;
}
