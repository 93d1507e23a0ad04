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
