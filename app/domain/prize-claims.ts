// Claiming a main prize and publishing its winner (docs/product.md#winners, decision 540): the winner confirms within
// PRIZE_CLAIM_DAYS of the winner notice, an admin records the age and identity check, and /winners publishes the
// winner's surname and region unless they objected. A prize nobody claimed in time is redrawn once, then carried to
// the host's next pool.

import { z } from "zod";
import { MS_PER_DAY } from "./countdown";
import { countryByCode } from "./currency";

/** Days after the winner notice within which the winner confirms their claim. */
export const PRIZE_CLAIM_DAYS = 30;
/** How many times an unclaimed main prize is redrawn (from a new commitment) before it is carried over. */
export const UNCLAIMED_REDRAWS = 1;
/** The reason of the void record (and the voided draw) of an unclaimed prize. */
export const UNCLAIMED_VOID_REASON = "unclaimed";
/** What became of a claim nobody confirmed in time (or whose draw was voided for another reason first). */
export const PRIZE_CLAIM_LAPSE_OUTCOMES = ["redrawn", "carried_over", "voided"] as const;
export type PrizeClaimLapseOutcome = (typeof PRIZE_CLAIM_LAPSE_OUTCOMES)[number];

/** /winners shows this instead of the surname and region of a winner who objected (docs/product.md#winners). */
export const WITHHELD_NAME_TEXT = "Name withheld at the winner's request";
/** Said on every entry form before entry (docs/product.md#winners). */
export const WINNER_PUBLICITY_TEXT =
  "If you win the main prize, your surname and county or region are published on the winners page unless you object (you can object when you claim).";
/** /winners: drawn pools per page. */
export const WINNERS_PAGE_SIZE = 20;
/** The admin's list of claims: rows per page. */
export const ADMIN_CLAIMS_PAGE_SIZE = 20;

export const PRIZE_CLAIM_MESSAGES = {
  legalName: "Please enter your full legal name as it appears on your ID (2 to 100 characters).",
  notFound: "Prize not found",
  windowClosed: `The ${PRIZE_CLAIM_DAYS}-day claim window for this prize has closed.`,
  alreadyConfirmed: "You have already claimed this prize.",
  confirmed: "Prize claimed. An admin will check your age and identity; add a payout method to be paid.",
  idNote: "Please describe the ID seen and the date of birth checked (5 to 500 characters).",
  claimNotFound: "Claim not found",
  notConfirmed: "Only a claim the winner has confirmed can be checked.",
  alreadyChecked: "This claim's ID check is already recorded.",
  idRecorded: "Age and identity check recorded.",
} as const;

/** When a claim noticed at `noticedAt` must be confirmed by. */
export function claimDeadline(noticedAt: Date | number): Date {
  const ms = noticedAt instanceof Date ? noticedAt.getTime() : noticedAt;
  return new Date(ms + PRIZE_CLAIM_DAYS * MS_PER_DAY);
}

/** Whether a claim may still be confirmed at `now`. */
export function isClaimOpen(claim: { claimBy: Date; confirmedAt: Date | null; lapsedAt: Date | null }, now: Date) {
  return claim.confirmedAt === null && claim.lapsedAt === null && now.getTime() < claim.claimBy.getTime();
}

/** The surname a name publishes: its last word (null for an empty name). */
export function publishedSurname(name: string | null | undefined): string | null {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  return words.at(-1) ?? null;
}

/** The region /winners publishes: the profile's ISO 3166-2 region (e.g. US-NY), else its country's name. */
export function publishedRegion(region: string | null | undefined, country: string | null | undefined): string | null {
  if (region) return region;
  return country ? countryByCode(country).name : null;
}

export type PublicWinner = { withheld: true } | { withheld: false; surname: string | null; region: string | null };

/**
 * What /winners publishes of a main-prize winner: nothing when they objected at entry or on winning (or their account
 * is gone), else the surname of the legal name they gave when claiming (before claiming: of the name they won under)
 * and their region.
 */
export function publicWinner(w: {
  accountExists: boolean;
  withheldAtEntry: boolean | null;
  withheldOnWinning: boolean | null;
  legalName: string | null;
  winnerName: string;
  region: string | null;
  country: string | null;
}): PublicWinner {
  if (!w.accountExists || w.withheldAtEntry || w.withheldOnWinning) return { withheld: true };
  return {
    withheld: false,
    surname: publishedSurname(w.legalName ?? w.winnerName),
    region: publishedRegion(w.region, w.country),
  };
}

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("1"), z.literal("")])
  .optional()
  .transform((value) => value === "on" || value === "true" || value === "1");

/** The winner's claim form. */
export const prizeClaimSchema = z.object({
  legalName: z
    .string({ error: PRIZE_CLAIM_MESSAGES.legalName })
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .pipe(z.string().min(2, PRIZE_CLAIM_MESSAGES.legalName).max(100, PRIZE_CLAIM_MESSAGES.legalName)),
  withholdName: checkbox,
});

/** The admin's record of a claim's age and identity check. */
export const idCheckSchema = z.object({
  claimId: z.string().trim().min(1, PRIZE_CLAIM_MESSAGES.claimNotFound).max(64, PRIZE_CLAIM_MESSAGES.claimNotFound),
  note: z
    .string({ error: PRIZE_CLAIM_MESSAGES.idNote })
    .trim()
    .min(5, PRIZE_CLAIM_MESSAGES.idNote)
    .max(500, PRIZE_CLAIM_MESSAGES.idNote),
});
