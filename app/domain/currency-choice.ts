// The viewer's display currency choice (decision 620): what a page's currency select and Settings may send.

import { z } from "zod";
import { CURRENCIES, type SupportedCurrency } from "./currency";

/** What the currency choice says back (decision 620). */
export const CURRENCY_CHOICE_MESSAGES = {
  unknown: "Choose one of the listed currencies.",
} as const;

const CURRENCY_CODES = CURRENCIES.map((c) => c.code) as [SupportedCurrency, ...SupportedCurrency[]];

/** A currency choice sent by a page's currency select (POST /currency): a code of the table, and where to go back. */
export const CurrencyChoiceSchema = z.object({
  currency: z.enum(CURRENCY_CODES, { error: CURRENCY_CHOICE_MESSAGES.unknown }),
  returnTo: z.string().max(2048).optional(),
});

/** The profile's currency setting (Settings): a code of the table, or "" for the country's currency (stored null). */
export const ProfileCurrencySchema = z
  .union([z.literal(""), z.enum(CURRENCY_CODES)], { error: CURRENCY_CHOICE_MESSAGES.unknown })
  .transform((code) => code || null);
