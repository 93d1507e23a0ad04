import { and, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { containsText } from "~/db/text-match.server";
import {
  mainImage,
  productOrder,
  productSearch,
  productSearchJoin,
  productSearchMatches,
} from "~/db/queries/products.server";
import { guessWinGames, products, userProfiles } from "~/db/schema";
import { productMatchQuery } from "~/domain/search";

// /explore: the latest products and active games of public hosts. Creators come from listPublicProfiles.

type ExploreQuery = { limit: number; q?: string | null; category?: string | null };

const publicHost = and(eq(userProfiles.profilePublic, true), eq(userProfiles.status, "active"));

/**
 * The active products of public hosts, newest first; `category` matches the product's shop category or the host's
 * category. A search goes through the shop's search index (products.server.ts) and orders by relevance.
 */
export async function listExploreProducts(db: Db, { limit, q, category }: ExploreQuery) {
  const conditions: (SQL | undefined)[] = [eq(products.status, "active"), publicHost];
  if (category) conditions.push(or(sql`${products.shopCategory} = ${category}`, eq(userProfiles.category, category)));
  const text = q?.trim();
  const match = text ? productMatchQuery(text) : null;
  if (text && !match) return [];
  if (match) conditions.push(productSearchMatches(match));
  let query = db
    .select({
      id: products.id,
      name: products.name,
      hostId: products.hostId,
      hostSlug: userProfiles.slug,
      hostName: userProfiles.creatorName,
      basePriceCents: products.basePriceCents,
      priceMinCents: products.priceMinCents,
      priceMaxCents: products.priceMaxCents,
      currency: products.currency,
      likeCount: products.likeCount,
      viewCount: products.viewCount,
      image: mainImage,
    })
    .from(products)
    .$dynamic();
  if (match) query = query.innerJoin(productSearch, productSearchJoin);
  return query
    .innerJoin(userProfiles, eq(userProfiles.userId, products.hostId))
    .where(and(...conditions))
    .orderBy(...productOrder(match ? "relevance" : "newest", !!match))
    .limit(limit);
}

/** The latest active games of public hosts (never the correct answer); `category` is the host's category. */
export function listExploreGames(db: Db, { limit, q, category }: ExploreQuery) {
  const conditions: (SQL | undefined)[] = [eq(guessWinGames.status, "active"), publicHost];
  if (category) conditions.push(eq(userProfiles.category, category));
  const text = q?.trim();
  if (text) {
    conditions.push(or(containsText(guessWinGames.question, text), containsText(userProfiles.creatorName, text)));
  }
  return db
    .select({
      id: guessWinGames.id,
      hostId: guessWinGames.hostId,
      hostSlug: userProfiles.slug,
      hostName: userProfiles.creatorName,
      question: guessWinGames.question,
      imageUrl: guessWinGames.imageUrl,
      options: guessWinGames.options,
      entryFeeCents: guessWinGames.entryFeeCents,
      currency: guessWinGames.currency,
      likesCount: guessWinGames.likesCount,
      participantsCount: guessWinGames.participantsCount,
    })
    .from(guessWinGames)
    .innerJoin(userProfiles, eq(userProfiles.userId, guessWinGames.hostId))
    .where(and(...conditions))
    .orderBy(desc(guessWinGames.createdAt), desc(guessWinGames.id))
    .limit(limit);
}
