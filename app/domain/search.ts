import { z } from "zod";

/** The longest search any search box sends (shop, explore, orders, my orders, tribe, group buys, admin). */
export const SEARCH_MAX_LENGTH = 100;

/**
 * A typed search as the queries take it: trimmed and cut to SEARCH_MAX_LENGTH characters (whole characters: an
 * emoji is never split in two), so a longer one still searches instead of failing or being dropped.
 */
export function searchText(raw: string | null | undefined): string {
  const text = (raw ?? "").trim();
  if (text.length <= SEARCH_MAX_LENGTH) return text;
  return Array.from(text).slice(0, SEARCH_MAX_LENGTH).join("").trim();
}

/** A search box's `q` in a query-string schema: any value becomes a searchText, never an error. */
export const searchQuerySchema = z
  .string()
  .nullish()
  .catch(undefined)
  .transform((v) => searchText(v));

/**
 * The product search's FTS5 MATCH expression for a typed search (decision 590): each whitespace-separated word
 * becomes a quoted prefix term (`"word"*`, an embedded `"` doubled), all of them required, so "kopi mug" finds
 * "Kopitiam Enamel Mug Set" and a typed `AND`, `NEAR(`, `*`, `-` or `:` is only text, never query syntax. A word
 * with no letter or digit (only punctuation or emoji) holds nothing the index keeps and is left out. Null when
 * nothing searchable is left: such a search finds no product.
 */
export function productMatchQuery(text: string): string | null {
  const terms = searchText(text)
    .split(/\s+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .map((word) => `"${word.replaceAll('"', '""')}"*`);
  return terms.length ? terms.join(" ") : null;
}

/**
 * Best match ranks every product a search finds by bm25 while its words are found in at most this many products
 * (decision 660). A search found in more (a word in most descriptions) ranks by bm25 only the products whose name or
 * host's name holds every word, and lists the others after them, the most recently listed first: bm25 over every
 * match costs time in proportion to the matches on every page view (about 3 ms of D1 at 5,000).
 */
export const SEARCH_RANK_ALL_MAX = 1000;

/**
 * The MATCH expression for the products whose name or host's name holds every word of a productMatchQuery
 * expression (FTS5's column filter): the first of Best match's two tiers for a search found in many products.
 */
export function nameMatchQuery(match: string): string {
  return `{name host_name} : (${match})`;
}

/** The orders a product list offers (/shop, /explore's products, a host's lists), as the `sort` query value. */
export const PRODUCT_SORTS = ["relevance", "newest", "price_asc", "price_desc", "popular"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

/** The sort select's option texts. */
export const PRODUCT_SORT_LABELS: Record<ProductSort, string> = {
  relevance: "Best match",
  newest: "Newest",
  price_asc: "Price: low to high",
  price_desc: "Price: high to low",
  popular: "Most popular",
};

/** The sorts a list offers, its default first: relevance only (and first) when something was searched. */
export function productSortsFor(searching: boolean): readonly ProductSort[] {
  return searching ? PRODUCT_SORTS : PRODUCT_SORTS.filter((s) => s !== "relevance");
}

/**
 * A list's `sort` query value: one of PRODUCT_SORTS offered for it; anything else (missing, unknown, relevance
 * without a search) is the default: relevance when something was searched, newest otherwise.
 */
export function productSort(raw: string | null | undefined, searching: boolean): ProductSort {
  const parsed = z.enum(PRODUCT_SORTS).safeParse(raw);
  if (parsed.success && productSortsFor(searching).includes(parsed.data)) return parsed.data;
  return searching ? "relevance" : "newest";
}
