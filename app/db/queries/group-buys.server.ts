import { and, asc, desc, eq, sql } from "drizzle-orm";
import { hostNotSuspended } from "~/db/queries/admin.server";
import type { Db } from "~/db/client.server";
import { groupBuyProducts, groupBuys, groupBuyTiers, productImages, products, userProfiles } from "~/db/schema";

/** One group buy with its host's name, or undefined. */
export async function getGroupBuy(db: Db, id: string) {
  const [row] = await db
    .select({
      id: groupBuys.id,
      hostId: groupBuys.hostId,
      hostName: userProfiles.creatorName,
      name: groupBuys.name,
      description: groupBuys.description,
      status: groupBuys.status,
      targetCents: groupBuys.targetCents,
      currentSalesCents: groupBuys.currentSalesCents,
      currentParticipants: groupBuys.currentParticipants,
      currency: groupBuys.currency,
      endAt: groupBuys.endAt,
    })
    .from(groupBuys)
    .leftJoin(userProfiles, eq(userProfiles.userId, groupBuys.hostId))
    .where(and(eq(groupBuys.id, id), hostNotSuspended(groupBuys.hostId)))
    .limit(1);
  return row;
}

/** A group buy's discount tiers, lowest threshold first (2 to 6 of them). */
export function listGroupBuyTiers(db: Db, groupBuyId: string) {
  return db
    .select({
      salesThresholdCents: groupBuyTiers.salesThresholdCents,
      discountPercent: groupBuyTiers.discountPercent,
    })
    .from(groupBuyTiers)
    .where(eq(groupBuyTiers.groupBuyId, groupBuyId))
    .orderBy(asc(groupBuyTiers.position), asc(groupBuyTiers.salesThresholdCents))
    .limit(6);
}

/** The products offered in a group buy. */
export function listGroupBuyProducts(db: Db, groupBuyId: string, limit = 50) {
  return db
    .select({
      id: products.id,
      name: products.name,
      category: products.category,
      basePriceCents: products.basePriceCents,
      priceMinCents: products.priceMinCents,
      currency: products.currency,
      image: sql<
        string | null
      >`(select ${productImages.url} from ${productImages} where ${productImages.productId} = ${products.id} order by ${productImages.position} limit 1)`,
    })
    .from(groupBuyProducts)
    .innerJoin(products, eq(products.id, groupBuyProducts.productId))
    .where(eq(groupBuyProducts.groupBuyId, groupBuyId))
    .orderBy(asc(products.name))
    .limit(limit);
}

/** A host's group buys, newest first. */
export function listHostGroupBuys(db: Db, hostId: string, limit: number) {
  return db
    .select({
      id: groupBuys.id,
      name: groupBuys.name,
      status: groupBuys.status,
      targetCents: groupBuys.targetCents,
      currentSalesCents: groupBuys.currentSalesCents,
      currentParticipants: groupBuys.currentParticipants,
      currency: groupBuys.currency,
      endAt: groupBuys.endAt,
    })
    .from(groupBuys)
    .where(eq(groupBuys.hostId, hostId))
    .orderBy(desc(groupBuys.createdAt), desc(groupBuys.id))
    .limit(limit);
}
