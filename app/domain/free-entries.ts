// The free entry routes of a pool (issue 29, docs/product.md#free-entry, decision 530): an online free entry, one
// per pool per account per UTC day, and postal entries the platform owner records from cards. Pure: the limits,
// the source keys, the forms' schemas and the messages a person sees.

import { z } from "zod";

/** An account must be this old before its first free entry (docs/product.md#free-entry). */
export const FREE_ENTRY_MIN_ACCOUNT_AGE_MS = 24 * 60 * 60 * 1000;
/** Free entries one sending address may make in a UTC day, across every pool and account. */
export const FREE_ENTRIES_PER_ADDRESS_PER_DAY = 5;
/** Rows a page of the admin's per-address counts shows. */
export const FREE_ENTRY_ADDRESS_PAGE_SIZE = 20;
/** Free entries listed under one address on the admin page. */
export const FREE_ENTRIES_PER_ADDRESS_LISTED = 20;

export const FREE_ENTRY_MESSAGES = {
  signIn: "Sign in to enter for free.",
  unconfirmed: "Confirm your e-mail address before entering for free.",
  tooNew: "Your account must be at least a day old to enter for free. Please come back tomorrow.",
  alreadyToday: "You have already entered this pool for free today. You can enter again tomorrow (UTC).",
  addressLimit: "Too many free entries were made from your network today. Please try again tomorrow (UTC).",
  botCheck: "We could not confirm you are a person. Please try the check again.",
  noPool: "This host has no prize pool.",
  poolClosed: "This pool has closed. Please try the host's next pool.",
  publication:
    "If you win, your surname and region are published on /winners with the prize, unless you ask us to withhold your name below.",
} as const;

export const POSTAL_ENTRY_MESSAGES = {
  hostNotFound: "No host has that e-mail address.",
  entrantNotFound: "No account has that e-mail address. The card's entrant needs an account.",
  noOpenPool: "This host has no open pool.",
  beforeOpenPool: "This card arrived for a pool that has closed: it was received before the host's open pool started.",
  futureDate: "The received date cannot be in the future.",
  alreadyRecorded: "This card was recorded already; it counts once.",
} as const;

export const FREE_ENTRY_VOID_MESSAGES = {
  notFound: "Free entry not found.",
  alreadyVoid: "This free entry is void already.",
  closed: "This pool has closed: its entry list is frozen, so the entry can no longer be voided.",
} as const;

/** The free entry form's field carrying the bot check's token (Turnstile's widget writes it under this name too). */
export const BOT_TOKEN_FIELD = "botToken";
/** Turnstile's widget script: on the free entry page only, and only where Turnstile is configured. */
export const TURNSTILE_SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js";
/** The origin the Content-Security-Policy of that page allows for the widget's script and frame. */
export const TURNSTILE_ORIGIN = "https://challenges.cloudflare.com";
/** The token the local verifier accepts (tests and `npm start`; the form sends it when Turnstile is not configured). */
export const LOCAL_BOT_CHECK_TOKEN = "local-bot-check-pass";
/** The pages that show the free entry form (the widget's script may load there). */
export const FREE_ENTRY_PATH = /^\/enter-free\/[A-Za-z0-9_-]{1,64}\/?$/;

/** The UTC day of a time, YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The pool contribution's source key of a free entry: one per pool, account and UTC day. */
export function freeEntryKey(poolId: string, userId: string, day: string): string {
  return `free:${poolId}:${userId}:${day}`;
}

/** The pool contribution's source key of a postal entry: one per card. */
export function postalEntryKey(cardReference: string): string {
  return `postal:${cardReference}`;
}

/** Why an account may not use the free route yet (its own facts), or null. */
export function freeEntryAccountRefusal(
  account: { emailConfirmedAt: Date | null; createdAt: Date },
  now: Date,
): string | null {
  if (!account.emailConfirmedAt) return FREE_ENTRY_MESSAGES.unconfirmed;
  if (now.getTime() - account.createdAt.getTime() < FREE_ENTRY_MIN_ACCOUNT_AGE_MS) return FREE_ENTRY_MESSAGES.tooNew;
  return null;
}

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal(""), z.null(), z.undefined()])
  .transform((value) => value === "on" || value === "true");

/** The free entry form: the bot check's token and the name objection. */
export const freeEntryFormSchema = z.object({
  botToken: z
    .string()
    .max(4096)
    .nullish()
    .transform((value) => value ?? ""),
  withholdName: checkbox,
});

const isoDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Give the received date as YYYY-MM-DD.")
  .refine(
    (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && utcDay(new Date(`${value}T00:00:00Z`)) === value,
    {
      message: "Give the received date as YYYY-MM-DD.",
    },
  );

/** A card reference as recorded: trimmed, upper case, letters, digits and - _ / . only. */
export const cardReferenceSchema = z
  .string()
  .trim()
  .min(1, "Give the card's reference.")
  .max(64, "A card reference has at most 64 characters.")
  .regex(/^[A-Za-z0-9._/-]+$/, "A card reference has letters, digits and - _ / . only.")
  .transform((value) => value.toUpperCase());

/** The admin's postal entry form. */
export const postalEntrySchema = z.object({
  hostEmail: z.string().trim().toLowerCase().email("Give the host's e-mail address.").max(254),
  entrantEmail: z.string().trim().toLowerCase().email("Give the entrant's e-mail address.").max(254),
  cardReference: cardReferenceSchema,
  receivedOn: isoDay,
});

/** The admin's void of a free entry: which, and why (logged). */
export const freeEntryVoidSchema = z.object({
  freeEntryId: z.string().trim().min(1, FREE_ENTRY_VOID_MESSAGES.notFound).max(64, FREE_ENTRY_VOID_MESSAGES.notFound),
  reason: z
    .string()
    .trim()
    .min(3, "Give a reason of at least 3 characters.")
    .max(500, "A reason has at most 500 characters."),
});

/** The admin page's filter of the per-address counts: a UTC day (default today) and a page. */
export const freeEntryAddressQuerySchema = z.object({
  day: isoDay.nullish().catch(null),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
