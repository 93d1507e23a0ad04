// The host's tribe page: who counts as active, the filters and the page sizes.

import { z } from "zod";
import { searchQuerySchema } from "./search";

/** A member is active with an order, a guess or a message to the host within this many days. */
export const TRIBE_ACTIVE_DAYS = 30;
export const TRIBE_PAGE_SIZE = 20;
export const TRIBE_TOP_CONTRIBUTORS = 5;
export const TRIBE_RECENT_WINNERS = 5;

/** A tribe membership's stored status (tribe_members.status). */
export const TRIBE_MEMBER_STATUSES = ["active", "inactive"] as const;

export const TRIBE_FILTERS = ["all", "active", "inactive"] as const;
export type TribeFilter = (typeof TRIBE_FILTERS)[number];
export const TRIBE_FILTER_LABELS: Record<TribeFilter, string> = { all: "All", active: "Active", inactive: "Inactive" };

/** The page's query string; anything invalid falls back to the default. */
export const tribeQuerySchema = z.object({
  q: searchQuerySchema,
  filter: z.enum(TRIBE_FILTERS).catch("all"),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
export type TribeQuery = z.infer<typeof tribeQuerySchema>;

/** The start of the activity window that makes a member active at `now`. */
export function activeSince(now: Date): Date {
  return new Date(now.getTime() - TRIBE_ACTIVE_DAYS * 24 * 60 * 60 * 1000);
}

// Join Tribe: one mutation every page posts to (/tribe/join), with the product's texts (docs/product.md#tribe).

export const TRIBE_JOIN_OUTCOMES = ["joined", "already", "own", "sign-in", "failed"] as const;
export type TribeJoinOutcome = (typeof TRIBE_JOIN_OUTCOMES)[number];

export const TRIBE_JOIN_MESSAGES: Record<TribeJoinOutcome, string> = {
  joined: "Successfully joined the tribe!",
  already: "You are already a member of this tribe!",
  own: "This is your own tribe.",
  "sign-in": "Please sign in to join tribe",
  failed: "Failed to join tribe. Please try again.",
};

/** What the join answers: ok only when a membership was created; the message is the product's text. */
export type TribeJoinResult = { ok: boolean; outcome: TribeJoinOutcome; message: string; hostId?: string };

export function tribeJoinResult(outcome: TribeJoinOutcome, hostId?: string): TribeJoinResult {
  return { ok: outcome === "joined", outcome, message: TRIBE_JOIN_MESSAGES[outcome], ...(hostId ? { hostId } : {}) };
}

/** The outcome a native form post carries back in the query string (`?tribe=joined`); anything else is none. */
export function tribeJoinOutcome(value: string | null | undefined): TribeJoinOutcome | null {
  return TRIBE_JOIN_OUTCOMES.find((o) => o === value) ?? null;
}

/** The join's form: the host, and for a form posted without JavaScript the page to send the browser back to. */
export const tribeJoinSchema = z.object({
  hostId: z.string().trim().min(1).max(100),
  returnTo: z.string().max(2048).optional(),
});
