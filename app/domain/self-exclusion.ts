// Self-exclusion from prize draws (issue 29, docs/product.md#self-exclusion): the periods a fan may choose, when one
// ends, and how the facts that find a person again (their e-mail, their name with their date of birth) are written
// before they are hashed. Pure.

import { z } from "zod";

export const SELF_EXCLUSION_PERIODS = ["6_months", "1_year", "5_years"] as const;
export type SelfExclusionPeriod = (typeof SELF_EXCLUSION_PERIODS)[number];

export const SELF_EXCLUSION_PERIOD_LABELS: Record<SelfExclusionPeriod, string> = {
  "6_months": "6 months",
  "1_year": "1 year",
  "5_years": "5 years",
};

const PERIOD_MONTHS: Record<SelfExclusionPeriod, number> = { "6_months": 6, "1_year": 12, "5_years": 60 };

/**
 * What a self-exclusion is kept under, each as a keyed hash: the account itself, its e-mail, and its name with its
 * date of birth. The last two find the person again in a new account after this one is deleted.
 */
export const SELF_EXCLUSION_KEY_KINDS = ["account", "email", "name_dob"] as const;
export type SelfExclusionKeyKind = (typeof SELF_EXCLUSION_KEY_KINDS)[number];

/**
 * The end of a self-exclusion chosen at `now`: the same time of day, the period's months later in UTC (on the last
 * day of the month when that month is shorter: 31 August + 6 months is 28 or 29 February).
 */
export function selfExclusionEnd(now: Date, period: SelfExclusionPeriod): Date {
  const months = PERIOD_MONTHS[period];
  const end = new Date(now.getTime());
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

/**
 * An e-mail address as one person's: trimmed, lowercase, and without a "+tag" in its local part (a@x and a+draws@x
 * reach the same mailbox).
 */
export function normaliseEmail(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf("@");
  if (at <= 0) return lower;
  const local = lower.slice(0, at).split("+")[0] || lower.slice(0, at);
  return `${local}@${lower.slice(at + 1)}`;
}

/**
 * A full name as one person's: accents removed, lowercase, letters and digits only, words in one space
 * ("  José  O'Brien-Tan " is "jose o brien tan").
 */
export function normaliseFullName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The text hashed for the name-and-date-of-birth key. */
export function nameAndBirthText(name: string, dateOfBirth: string): string {
  return `${normaliseFullName(name)}|${dateOfBirth}`;
}

export const SELF_EXCLUSION_MESSAGES = {
  period: "Please choose how long: 6 months, 1 year or 5 years.",
  confirm: "Please tick the box to confirm that you cannot undo this early.",
  dobFirst: "Please add your date of birth first: it keeps you excluded if you open a new account.",
  nameRequired: "Please enter your full name.",
  done: (until: string) => `You are excluded from prize draws until ${until}.`,
  notShortened: (until: string) =>
    `You are already excluded until ${until}. A self-exclusion can be extended but never shortened.`,
} as const;

/** The self-exclusion form. The full name is the person's legal name, which a new account would carry too. */
export const selfExclusionSchema = z.object({
  period: z.enum(SELF_EXCLUSION_PERIODS, { error: SELF_EXCLUSION_MESSAGES.period }),
  fullName: z
    .string({ error: SELF_EXCLUSION_MESSAGES.nameRequired })
    .trim()
    .min(1, SELF_EXCLUSION_MESSAGES.nameRequired)
    .max(120, "Your name must be at most 120 characters")
    .refine((v) => normaliseFullName(v) !== "", SELF_EXCLUSION_MESSAGES.nameRequired),
  confirm: z.literal("on", { error: SELF_EXCLUSION_MESSAGES.confirm }),
});
