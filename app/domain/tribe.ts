// The host's tribe page: who counts as active, the filters and the page sizes.

import { z } from "zod";

/** A member is active with an order, a guess or a message to the host within this many days. */
export const TRIBE_ACTIVE_DAYS = 30;
export const TRIBE_PAGE_SIZE = 20;
export const TRIBE_TOP_CONTRIBUTORS = 5;
export const TRIBE_RECENT_WINNERS = 5;

export const TRIBE_FILTERS = ["all", "active", "inactive"] as const;
export type TribeFilter = (typeof TRIBE_FILTERS)[number];
export const TRIBE_FILTER_LABELS: Record<TribeFilter, string> = { all: "All", active: "Active", inactive: "Inactive" };

/** The page's query string; anything invalid falls back to the default. */
export const tribeQuerySchema = z.object({
  q: z
    .string()
    .nullish()
    .transform((v) => (v ?? "").trim().slice(0, 100)),
  filter: z.enum(TRIBE_FILTERS).catch("all"),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
export type TribeQuery = z.infer<typeof tribeQuerySchema>;

/** The start of the activity window that makes a member active at `now`. */
export function activeSince(now: Date): Date {
  return new Date(now.getTime() - TRIBE_ACTIVE_DAYS * 24 * 60 * 60 * 1000);
}
