import { and, asc, desc, eq, ne, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias, integer, sqliteTable, type SQLiteSelect } from "drizzle-orm/sqlite-core";
import { hostNotSuspended } from "~/db/queries/admin.server";
import {
  hostOfProduct,
  hostParam,
  hostShape,
  hostValue,
  type HostShape,
  type ProfileAddress,
} from "~/db/queries/host-refs.server";
import type { Db } from "~/db/client.server";
import { columnPlaceholder, preparedRead } from "~/db/prepared.server";
import { viewerParam, viewerShape, viewerValues, type ViewerKey, type ViewerShape } from "~/db/queries/sessions.server";
import {
  productColors,
  productImages,
  productLikes,
  products,
  productSizes,
  prizePools,
  userProfiles,
  userShippingCountries,
} from "~/db/schema";
import type { ProductShopCategory } from "~/domain/catalog";
import { nameMatchQuery, productMatchQuery, SEARCH_RANK_ALL_MAX, type ProductSort } from "~/domain/search";

/**
 * A product's main image (position 0 first), as a correlated subquery for a select list. The product's column is
 * named with its table: drizzle writes a one-table select's columns bare (/buy-now's More from strip,
 * /shop-management), which inside this subquery would name product_images' own id.
 */
export const mainImage = sql<
  string | null
>`(select ${productImages.url} from ${productImages} where ${productImages.productId} = "products"."id" order by ${productImages.position} limit 1)`;

/**
 * Whether a product can be bought at all, as a select-list expression: some size has units left and, when it has
 * colours, some colour has too (what Add to Cart's default choice and checkout's stock check need). Correlated on
 * the product like mainImage, through the sizes' and colours' product indexes.
 */
export const inStock =
  sql<boolean>`(exists (select 1 from ${productSizes} where ${productSizes.productId} = "products"."id" and ${productSizes.availableUnits} > 0)
  and (not exists (select 1 from ${productColors} where ${productColors.productId} = "products"."id")
    or exists (select 1 from ${productColors} where ${productColors.productId} = "products"."id" and ${productColors.availableUnits} > 0)))`.mapWith(
    Boolean,
  );

/**
 * How many sizes and colours a product has, as select-list expressions correlated on the product like inStock:
 * whether a card's Add to Cart must ask for a choice (needsVariantChoice, decision 600).
 */
const sizeCount =
  sql<number>`(select count(*) from ${productSizes} where ${productSizes.productId} = "products"."id")`.mapWith(Number);
const colourCount =
  sql<number>`(select count(*) from ${productColors} where ${productColors.productId} = "products"."id")`.mapWith(
    Number,
  );

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
  inStock,
  sizeCount,
  colourCount,
};

/**
 * A /shop card's columns (ShopGrid's cards): the product, its host's name and address, and the host's open pool
 * (joined as prizePools), with the host's profile joined as userProfiles. /shop and /wishlist select the same.
 */
const shopCard = {
  ...productCard,
  hostSlug: userProfiles.slug,
  viewCount: products.viewCount,
  hostTargetCents: userProfiles.prizePoolTargetCents,
  hostCurrency: userProfiles.currency,
  poolId: prizePools.id,
  poolAmountCents: prizePools.amountCents,
  poolTargetCents: prizePools.targetCents,
  poolCurrency: prizePools.currency,
  poolEndAt: prizePools.endAt,
};

export type ShopQuery = {
  limit: number;
  offset?: number;
  /** A typed search: each word a required prefix of a word of the product's name, description or host's name. */
  q?: string | null;
  /** The order; newest first when not given (relevance needs a search: without one it is newest too). */
  sort?: ProductSort;
  /** One of the shop categories; null or undefined for All. */
  category?: ProductShopCategory | null;
  /** An ISO country code; null or undefined for All Countries. */
  shipTo?: string | null;
  /** Only this host's products: by id (their shop page) or as their profile's address names them (the profile). */
  hostId?: string | ProfileAddress;
  /** The signed-in viewer: each row then says whether they like the product (in the same query). */
  viewer?: ViewerKey | null;
};

/**
 * The product search index of migration 0034: an external-content FTS5 table over each product's name,
 * description and host's name (when the host's profile is public), rowid = the product's rowid, kept in step by
 * triggers. Not in app/db/schema: drizzle-kit cannot describe a virtual table (decision 590).
 */
export const productSearch = sqliteTable("product_search", { rowid: integer("rowid").notNull() });

/** Joins a product to its row of the search index (inner join: only products the search matches). */
export const productSearchJoin = eq(productSearch.rowid, sql`"products"."rowid"`);

/** The search condition for an FTS5 MATCH expression (productMatchQuery's), a placeholder for one or SQL giving one. */
export function productSearchMatches(match: string | Placeholder | SQL): SQL {
  return sql`${productSearch} match ${match}`;
}

/** bm25 relevance (lower is better): a word in the name counts ten times one in the description, the host's name three. */
const searchRank = sql`bm25(${productSearch}, 10.0, 1.0, 3.0)`;

/** The ORDER BY of a product list for each sort; every one ends newest first, then by id, so pages never overlap. */
export function productOrder(sort: ProductSort, searching: boolean): SQL[] {
  const newest = [desc(products.createdAt), desc(products.id)];
  switch (sort) {
    case "relevance":
      return searching ? [asc(searchRank), ...newest] : newest;
    case "price_asc":
      return [asc(sql`coalesce(${products.priceMinCents}, ${products.basePriceCents})`), ...newest];
    case "price_desc":
      return [desc(sql`coalesce(${products.priceMinCents}, ${products.basePriceCents})`), ...newest];
    case "popular":
      return [desc(products.likeCount), desc(products.viewCount), ...newest];
    case "newest":
      return newest;
  }
}

/**
 * A host ships to a country when it is in their user_shipping_countries; a host who has not chosen any ships to
 * their own profile country only (the rule checkout applies too).
 */
function shipsTo(country: string | Placeholder | SQL): SQL {
  return sql`(${products.hostId} in (select ${userShippingCountries.hostId} from ${userShippingCountries} where ${userShippingCountries.countryCode} = ${country})
    or (${userProfiles.country} = ${country} and not exists (select 1 from ${userShippingCountries} where ${userShippingCountries.hostId} = ${products.hostId})))`;
}

const viewerProfiles = alias(userProfiles, "viewer_profiles");

/**
 * Whether a product's host ships to a country, by the shop filter's rule (shipsTo), for "Does not ship to …" before
 * checkout (decision 600): the country given (the Ship-to choice), else the viewer's profile country, read by their
 * session in the page's batch. `country` is null when the viewer has none; undefined when there is no such product.
 */
export async function getProductShipping(
  db: Db,
  productId: string,
  to: { country: string } | { viewer: ViewerKey },
): Promise<{ country: string | null; ships: boolean; category: string } | undefined> {
  if ("country" in to) return productShippingRead(db, "country").get({ id: productId, country: to.country });
  return productShippingRead(db, viewerShape(to.viewer)).get({ id: productId, ...viewerValues(to.viewer) });
}

const productShippingRead = preparedRead(
  (db, shape: "country" | ViewerShape) => {
    const country =
      shape === "country"
        ? sql<string | null>`${sql.placeholder("country")}`
        : sql<string | null>`(${db
            .select({ country: viewerProfiles.country })
            .from(viewerProfiles)
            .where(eq(viewerProfiles.userId, viewerParam(shape, viewerProfiles.userId)))
            .limit(1)})`;
    return db
      .select({ country, ships: shipsTo(country).mapWith(Boolean), category: products.category })
      .from(products)
      .leftJoin(userProfiles, eq(userProfiles.userId, products.hostId))
      .where(eq(products.id, columnPlaceholder(products.id, "id")))
      .limit(1)
      .prepare();
  },
  (shape) => shape,
);

/** The request's search, parsed: none (the unfiltered list), a MATCH expression, or nothing searchable (no rows). */
function shopSearch(q: string | null | undefined): { text: boolean; match?: string; nothing: boolean } {
  const typed = q?.trim();
  if (!typed) return { text: false, nothing: false };
  const match = productMatchQuery(typed);
  return match ? { text: true, match, nothing: false } : { text: true, nothing: true };
}

/**
 * Whether the search `match` (a placeholder) is found in more than SEARCH_RANK_ALL_MAX products, as a one-row select
 * of `broad` (0 or 1): the index alone (any status), which stops counting there, so Best match ranks such a search
 * in two tiers instead of by bm25 over every match (decision 660). relevancePage reads it inside its own statement.
 */
function broadSearch(db: Db) {
  const found = db
    .select({ one: sql<number>`1`.as("one") })
    .from(productSearch)
    .where(productSearchMatches(sql.placeholder("match")))
    .limit(SEARCH_RANK_ALL_MAX + 1)
    .as("found");
  return db.select({ broad: sql<number>`count(*) > ${sql.raw(String(SEARCH_RANK_ALL_MAX))}`.as("broad") }).from(found);
}

/**
 * One page of active products for /shop (or one host's shop) in the chosen order, with the host's name and open
 * pool joined in, and whether the viewer likes each: one query, whatever the filters (a search joins the FTS5
 * index). Ask for `limit + 1` rows to learn whether a next page exists.
 */
export async function listShopProducts(
  db: Db,
  { limit, offset = 0, q, sort = "newest", category, shipTo, hostId, viewer }: ShopQuery,
) {
  const search = shopSearch(q);
  if (search.nothing) return [];
  const ordered = search.text || sort !== "relevance" ? sort : "newest";
  const shape = {
    host: hostId ? hostShape(hostId) : null,
    category: !!category,
    shipTo: !!shipTo,
    text: search.text,
    sort: ordered,
    viewer: viewer ? viewerShape(viewer) : null,
  };
  return shopProductsRead(db, shape).all({
    limit,
    offset,
    window: limit + offset,
    nameMatch: search.match ? nameMatchQuery(search.match) : undefined,
    host: hostId ? hostValue(hostId) : undefined,
    category,
    shipTo,
    match: search.match,
    ...(viewer ? viewerValues(viewer) : {}),
  });
}

type ShopFilterShape = { host: HostShape | null; category: boolean; shipTo: boolean; text: boolean };
type ShopShape = ShopFilterShape & { sort: ProductSort; viewer: ViewerShape | null };

/**
 * Which products the shop lists for the filters present (the query joins the host's profile as userProfiles and,
 * with a search, the search index). A host with a private profile is not found by name: the index holds a host's
 * name only while their profile is public (their products are still found by their own words).
 */
function shopConditions(
  shape: ShopFilterShape,
  match: SQL | null = shape.text ? productSearchMatches(sql.placeholder("match")) : null,
): SQL[] {
  const conditions: SQL[] = [eq(products.status, "active"), hostNotSuspended(products.hostId)];
  if (shape.host) conditions.push(eq(products.hostId, hostParam(shape.host, products.hostId)));
  if (shape.category) conditions.push(eq(products.shopCategory, columnPlaceholder(products.shopCategory, "category")));
  if (shape.shipTo) conditions.push(shipsTo(sql.placeholder("shipTo")));
  if (match) conditions.push(match);
  return conditions;
}

const filterKey = (shape: ShopFilterShape) =>
  `${shape.host}:${Number(shape.category)}${Number(shape.shipTo)}${Number(shape.text)}`;

/**
 * The rowids of one page of the shop's products in a sorted order (a search's relevance, a price, popularity), as a
 * subquery: the products matched are sorted on their own columns and only the page's rows go on to the card's
 * joins and subqueries (image, stock, the viewer's like). Sorting the whole cards instead would compute those for
 * every match (SQLite keeps each row's result columns in its sorter): 5,000 of them for a search that matches the
 * whole catalogue. (Newest first needs no sort: an index walks the products in that order and stops at the page.)
 */
function sortedPage(db: Db, shape: ShopShape) {
  // Best match over the whole shop: bm25, or two tiers for a broad search (decision 660). One host's list is short:
  // every match is ranked.
  if (shape.text && shape.sort === "relevance" && !shape.host) return shopRelevancePage(db, shape);
  let page = db
    .select({
      rowid: sql<number>`"products"."rowid"`.as("page_rowid"),
      tier: sql<number>`0`.as("page_tier"),
      rank: (shape.text ? searchRank : sql<number>`0`).as("page_rank"),
    })
    .from(products)
    .$dynamic();
  if (shape.text) page = page.innerJoin(productSearch, productSearchJoin);
  // The host's profile only for Ship to (their country): one lookup less for every product matched.
  if (shape.shipTo) page = page.leftJoin(userProfiles, eq(userProfiles.userId, products.hostId));
  return page
    .where(and(...shopConditions(shape)))
    .orderBy(...productOrder(shape.sort, shape.text))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .as("page");
}

/** The columns each arm of relevancePage selects. */
function tierFields(tier: 0 | 1) {
  return {
    rowid: sql<number>`"products"."rowid"`.as("tier_rowid"),
    tier: sql<number>`${sql.raw(String(tier))}`.as("tier_tier"),
    rank: (tier === 0 ? searchRank : sql<number>`-"products"."rowid"`).as("tier_rank"),
    createdAt: sql`${products.createdAt}`.as("tier_created_at"),
    id: sql`${products.id}`.as("tier_id"),
  };
}
export type TierFields = ReturnType<typeof tierFields>;

/**
 * A list's products that one arm reads: `fields` from products joined to the search index (productSearchJoin) and
 * whatever the list's own conditions need, filtered by the list's conditions and `match`.
 */
type TierRead = (fields: TierFields, match: SQL) => SQLiteSelect;

/**
 * Best match for any list of products (`read`: its joins and conditions), as a page subquery with sortedPage's
 * columns plus `page_tier`, in one statement (decision 660). It reads first whether the search is broad (broadSearch,
 * as the CTE `broad`), then runs the arms that apply; an arm that does not apply matches `""`, which finds nothing
 * before any row is read (a condition on `broad` elsewhere would be tested row by row, after FTS5 had opened the
 * MATCH).
 * - Not broad: every match, by bm25 (`match`), ties newest first: decision 590.
 * - Broad: first the products whose name or host's name holds every word (`nameMatch`), by the same bm25, ties newest
 *   first; then every other match, the most recently listed (highest rowid) first, its rank the negated rowid.
 * Each arm reads the index only as far as the page needs (offset + limit rows, `window`); a broad search computes
 * no bm25 for the matches found only in descriptions, which is what bounds its cost.
 */
export function relevancePage(db: Db, read: TierRead) {
  // drizzle writes an embedded select in parentheses: the CTE's "as (…)" and each "from (…)" come from it.
  const broad = sql`(select "broad" from "broad")`;
  const when = (applies: SQL, placeholder: string) =>
    productSearchMatches(sql`(case when ${applies} then ${sql.placeholder(placeholder)} else '""' end)`);
  const isBroad = sql`${broad} = 1`;
  const notBroad = sql`${broad} = 0`;
  const byRank = productOrder("relevance", true);
  const all = read(tierFields(0), when(notBroad, "match"))
    .orderBy(...byRank)
    .limit(sql.placeholder("window"));
  const named = read(tierFields(0), when(isBroad, "nameMatch"))
    .orderBy(...byRank)
    .limit(sql.placeholder("window"));
  const others = read(
    tierFields(1),
    sql`${when(isBroad, "match")} and ${productSearch.rowid} not in (select ${productSearch.rowid} from ${productSearch} where ${when(isBroad, "nameMatch")})`,
  )
    .orderBy(desc(productSearch.rowid))
    .limit(sql.placeholder("window"));
  return db
    .select({
      rowid: sql<number>`"tier_rowid"`.as("page_rowid"),
      tier: sql<number>`"tier_tier"`.as("page_tier"),
      rank: sql<number>`"tier_rank"`.as("page_rank"),
    })
    .from(
      sql`(with "broad" as ${broadSearch(db)} select * from ${all} union all select * from ${named} union all select * from ${others})`,
    )
    .orderBy(sql`"tier_tier"`, sql`"tier_rank"`, sql`"tier_created_at" desc`, sql`"tier_id" desc`)
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .as("page");
}

/** The shop's Best match: relevancePage over the shop's filters. */
function shopRelevancePage(db: Db, shape: ShopShape) {
  return relevancePage(db, (fields, match) => {
    let tier = db.select(fields).from(products).innerJoin(productSearch, productSearchJoin).$dynamic();
    if (shape.shipTo) tier = tier.leftJoin(userProfiles, eq(userProfiles.userId, products.hostId));
    return tier.where(and(...shopConditions(shape, match)));
  });
}

/** The shop's page of cards, prepared once per combination of filters present and sort. */
const shopProductsRead = preparedRead(
  (db, shape: ShopShape) => {
    const query = db
      .select({
        ...shopCard,
        liked: shape.viewer
          ? sql<boolean>`exists (select 1 from ${productLikes} where ${productLikes.productId} = ${products.id} and ${productLikes.userId} = ${viewerParam(shape.viewer, productLikes.userId)})`.mapWith(
              Boolean,
            )
          : sql<boolean>`0`.mapWith(Boolean),
      })
      .from(products)
      .$dynamic();
    if (shape.text || shape.sort !== "newest") {
      const page = sortedPage(db, shape);
      const order =
        shape.text && shape.sort === "relevance"
          ? [asc(page.tier), asc(page.rank), ...productOrder("newest", false)]
          : productOrder(shape.sort, false);
      return query
        .innerJoin(page, eq(page.rowid, sql`"products"."rowid"`))
        .leftJoin(userProfiles, eq(userProfiles.userId, products.hostId))
        .leftJoin(prizePools, and(eq(prizePools.hostId, products.hostId), eq(prizePools.status, "open")))
        .orderBy(...order)
        .prepare();
    }
    return query
      .leftJoin(userProfiles, eq(userProfiles.userId, products.hostId))
      .leftJoin(prizePools, and(eq(prizePools.hostId, products.hostId), eq(prizePools.status, "open")))
      .where(and(...shopConditions(shape)))
      .orderBy(...productOrder(shape.sort, shape.text))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare();
  },
  (shape) => `${filterKey(shape)}:${shape.sort}:${shape.viewer}`,
);

/** How many products the shop lists for these filters (one count in SQL), so a page past the end can find the last. */
export async function countShopProducts(
  db: Db,
  { q, category, shipTo, hostId }: Omit<ShopQuery, "limit" | "offset" | "viewer" | "sort">,
): Promise<number> {
  const search = shopSearch(q);
  if (search.nothing) return 0;
  const shape = { host: hostId ? hostShape(hostId) : null, category: !!category, shipTo: !!shipTo, text: search.text };
  const row = await shopProductCountRead(db, shape).get({
    host: hostId ? hostValue(hostId) : undefined,
    category,
    shipTo,
    match: search.match,
  });
  return row?.count ?? 0;
}

const shopProductCountRead = preparedRead((db, shape: ShopFilterShape) => {
  let query = db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(products)
    .$dynamic();
  if (shape.text) query = query.innerJoin(productSearch, productSearchJoin);
  return query
    .leftJoin(userProfiles, eq(userProfiles.userId, products.hostId))
    .where(and(...shopConditions(shape)))
    .prepare();
}, filterKey);

export async function isProductLiked(db: Db, viewer: ViewerKey, productId: string): Promise<boolean> {
  const row = await productLikedRead(db, viewerShape(viewer)).get({ ...viewerValues(viewer), productId });
  return row !== undefined;
}

const productLikedRead = preparedRead(
  (db, shape: ViewerShape) =>
    db
      .select({ productId: productLikes.productId })
      .from(productLikes)
      .where(
        and(
          eq(productLikes.userId, viewerParam(shape, productLikes.userId)),
          eq(productLikes.productId, columnPlaceholder(productLikes.productId, "productId")),
        ),
      )
      .limit(1)
      .prepare(),
  (shape) => shape,
);

/**
 * One page of the viewer's wishlist (docs/decisions/610-wishlist-and-saved-games.md): the products they like, newest
 * like first, as /shop's cards (`liked` true). Only products the shop lists (active, host not suspended): a like of
 * a product withdrawn since stays stored and shows again if the product comes back. Read by the viewer's session in
 * the session's own batch; ask for `limit + 1` rows to learn whether a next page exists.
 */
export function listWishlistProducts(db: Db, viewer: ViewerKey, { limit, offset }: { limit: number; offset: number }) {
  return wishlistRead(db, viewerShape(viewer)).all({ ...viewerValues(viewer), limit, offset });
}

const wishlistRead = preparedRead(
  (db, shape: ViewerShape) =>
    db
      .select({ ...shopCard, liked: sql<boolean>`1`.mapWith(Boolean) })
      .from(productLikes)
      .innerJoin(products, eq(products.id, productLikes.productId))
      .leftJoin(userProfiles, eq(userProfiles.userId, products.hostId))
      .leftJoin(prizePools, and(eq(prizePools.hostId, products.hostId), eq(prizePools.status, "open")))
      .where(
        and(
          eq(productLikes.userId, viewerParam(shape, productLikes.userId)),
          eq(products.status, "active"),
          hostNotSuspended(products.hostId),
        ),
      )
      .orderBy(desc(productLikes.createdAt), desc(productLikes.productId))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare(),
  (shape) => shape,
);

/**
 * Likes or unlikes a product in one D1 batch: the like row is inserted-or-ignored (deleted), and like_count moves
 * only when that statement changed a row, so a double click never counts twice. Returns the stored count.
 */
export async function setProductLike(db: Db, userId: string, productId: string, liked: boolean): Promise<number> {
  const write = liked
    ? db.insert(productLikes).values({ userId, productId }).onConflictDoNothing()
    : db.delete(productLikes).where(and(eq(productLikes.userId, userId), eq(productLikes.productId, productId)));
  const [, , after] = await db.batch([
    write,
    db
      .update(products)
      // updated_at is left alone: a like is not an edit of the product.
      .set({
        likeCount: liked ? sql`${products.likeCount} + 1` : sql`max(${products.likeCount} - 1, 0)`,
        updatedAt: sql`${products.updatedAt}`,
      })
      .where(and(eq(products.id, productId), sql`changes() = 1`)),
    db.select({ likeCount: products.likeCount }).from(products).where(eq(products.id, productId)).limit(1),
  ]);
  return after[0]?.likeCount ?? 0;
}

/** One more view (a cheap UPDATE that leaves updated_at alone). */
export async function incrementProductViews(db: Db, productId: string): Promise<void> {
  await db.run(sql`update ${products} set view_count = view_count + 1 where id = ${productId}`);
}

/** One product with its host's name, or undefined. */
export async function getProduct(db: Db, id: string) {
  return productRead(db).get({ id });
}

const productRead = preparedRead((db) =>
  db
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
      voucherValueCents: products.voucherValueCents,
      voucherExpiresAt: products.voucherExpiresAt,
      createdAt: products.createdAt,
      updatedAt: products.updatedAt,
    })
    .from(products)
    .leftJoin(userProfiles, eq(userProfiles.userId, products.hostId))
    .where(and(eq(products.id, columnPlaceholder(products.id, "id")), hostNotSuspended(products.hostId)))
    .limit(1)
    .prepare(),
);

/** A product's sizes in their display order (a product has a handful). */
export function listProductSizes(db: Db, productId: string, limit = 20) {
  return productSizesRead(db).all({ productId, limit });
}

const productSizesRead = preparedRead((db) =>
  db
    .select({
      id: productSizes.id,
      name: productSizes.name,
      priceCents: productSizes.priceCents,
      currency: productSizes.currency,
      availableUnits: productSizes.availableUnits,
    })
    .from(productSizes)
    .where(eq(productSizes.productId, columnPlaceholder(productSizes.productId, "productId")))
    .orderBy(asc(productSizes.position))
    .limit(sql.placeholder("limit"))
    .prepare(),
);

/** A product's colours in their display order. */
export function listProductColors(db: Db, productId: string, limit = 20) {
  return productColorsRead(db).all({ productId, limit });
}

const productColorsRead = preparedRead((db) =>
  db
    .select({
      id: productColors.id,
      name: productColors.name,
      hex: productColors.hex,
      availableUnits: productColors.availableUnits,
    })
    .from(productColors)
    .where(eq(productColors.productId, columnPlaceholder(productColors.productId, "productId")))
    .orderBy(asc(productColors.position))
    .limit(sql.placeholder("limit"))
    .prepare(),
);

/** A product's images, main image first. */
export function listProductImages(db: Db, productId: string, limit = 8) {
  return productImagesRead(db).all({ productId, limit });
}

const productImagesRead = preparedRead((db) =>
  db
    .select({ id: productImages.id, url: productImages.url })
    .from(productImages)
    .where(eq(productImages.productId, columnPlaceholder(productImages.productId, "productId")))
    .orderBy(asc(productImages.position))
    .limit(sql.placeholder("limit"))
    .prepare(),
);

/** Up to `limit` other active products of this product's host, newest first (the buy page's picker). */
export function listMoreFromHost(db: Db, productId: string, limit = 8) {
  return moreFromHostRead(db).all({ productId, limit });
}

const moreFromHostRead = preparedRead((db) => {
  const productId = sql.placeholder("productId");
  return db
    .select({
      id: products.id,
      name: products.name,
      basePriceCents: products.basePriceCents,
      priceMinCents: products.priceMinCents,
      priceMaxCents: products.priceMaxCents,
      currency: products.currency,
      image: mainImage,
    })
    .from(products)
    .where(
      and(
        eq(products.hostId, hostOfProduct(productId)),
        eq(products.status, "active"),
        ne(products.id, columnPlaceholder(products.id, "productId")),
      ),
    )
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(sql.placeholder("limit"))
    .prepare();
});

/**
 * A product with everything a purchase is priced and fulfilled from: its host, status and voucher terms, its sizes
 * and colours (with stock) in display order, and its main image. Undefined when the product does not exist.
 */
export async function getProductVariants(db: Db, productId: string) {
  const [[product], sizes, colours, [image]] = await Promise.all([
    db
      .select({
        id: products.id,
        hostId: products.hostId,
        name: products.name,
        category: products.category,
        status: products.status,
        currency: products.currency,
        voucherValueCents: products.voucherValueCents,
        voucherExpiresAt: products.voucherExpiresAt,
      })
      .from(products)
      .where(eq(products.id, productId))
      .limit(1),
    listProductSizes(db, productId, 50),
    listProductColors(db, productId, 50),
    listProductImages(db, productId, 1),
  ]);
  if (!product) return undefined;
  return { product, sizes, colours, imageUrl: image?.url ?? null };
}
export type ProductVariants = NonNullable<Awaited<ReturnType<typeof getProductVariants>>>;
