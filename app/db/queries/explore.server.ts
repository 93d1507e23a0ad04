import { and, asc, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { containsText } from "~/db/text-match.server";
import { columnPlaceholder, preparedRead } from "~/db/prepared.server";
import {
  mainImage,
  productOrder,
  productSearch,
  productSearchJoin,
  relevancePage,
  type TierFields,
} from "~/db/queries/products.server";
import { guessWinGames, products, userProfiles } from "~/db/schema";
import { nameMatchQuery, productMatchQuery } from "~/domain/search";

// /explore: the latest products and active games of public hosts. Creators come from listPublicProfiles.

type ExploreQuery = { limit: number; q?: string | null; category?: string | null };

const publicHost = and(eq(userProfiles.profilePublic, true), eq(userProfiles.status, "active"));

/**
 * The active products of public hosts, newest first; `category` matches the product's shop category or the host's
 * category. A search goes through the shop's search index (products.server.ts) and orders by relevance as /shop
 * does (decision 660 for a search found in many products): the matches are ranked on their keys alone and only the
 * page's rows get a card (their image). Prepared once per shape.
 */
export async function listExploreProducts(db: Db, { limit, q, category }: ExploreQuery) {
  const text = q?.trim();
  const match = text ? productMatchQuery(text) : null;
  if (text && !match) return [];
  return exploreProductsRead(db, { search: !!match, category: !!category }).all({
    limit,
    offset: 0,
    window: limit,
    match: match ?? undefined,
    nameMatch: match ? nameMatchQuery(match) : undefined,
    category: category ?? undefined,
  });
}

function exploreConditions(category: boolean, match: SQL | null): SQL[] {
  const conditions: SQL[] = [eq(products.status, "active"), publicHost!];
  if (category) {
    conditions.push(
      or(
        eq(products.shopCategory, columnPlaceholder(products.shopCategory, "category")),
        eq(userProfiles.category, sql.placeholder("category")),
      )!,
    );
  }
  if (match) conditions.push(match);
  return conditions;
}

const exploreProductsRead = preparedRead(
  (db, shape: { search: boolean; category: boolean }) => {
    const query = db
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
    if (!shape.search) {
      return query
        .innerJoin(userProfiles, eq(userProfiles.userId, products.hostId))
        .where(and(...exploreConditions(shape.category, null)))
        .orderBy(...productOrder("newest", false))
        .limit(sql.placeholder("limit"))
        .prepare();
    }
    const matched = (fields: TierFields, match: SQL) =>
      db
        .select(fields)
        .from(products)
        .innerJoin(productSearch, productSearchJoin)
        .innerJoin(userProfiles, eq(userProfiles.userId, products.hostId))
        .where(and(...exploreConditions(shape.category, match)))
        .$dynamic();
    const page = relevancePage(db, matched);
    return query
      .innerJoin(page, eq(page.rowid, sql`"products"."rowid"`))
      .innerJoin(userProfiles, eq(userProfiles.userId, products.hostId))
      .orderBy(asc(page.tier), asc(page.rank), ...productOrder("newest", false))
      .prepare();
  },
  (shape) => `${Number(shape.search)}:${Number(shape.category)}`,
);

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
