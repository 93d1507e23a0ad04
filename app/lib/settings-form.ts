// The /settings forms: one zod schema per tab with the product's messages; the browser applies the same rules through
// input attributes and the same messages.
import { z } from "zod";
import { SIGNUP_CATEGORIES } from "~/domain/catalog";
import { isCountryCode } from "~/domain/currency";
import { EmailSchema, PasswordSchema, WebsiteSchema } from "~/lib/validation";

export const SETTINGS_MESSAGES = {
  saved: "Settings saved successfully!",
  saveFailed: "Failed to save settings. Please try again.",
  shippingSaved: "Shipping countries saved successfully!",
  shippingFailed: "Failed to save shipping countries. Please try again.",
  shippingUnknown: "Please choose countries from the list",
  uploaded: "Uploaded!",
  imageType: "Please select an image file",
  imageSize: "File size must be less than 5MB",
  avatarFailed: (reason: string) => `Failed to upload image: ${reason}`,
  coverFailed: (reason: string) => `Failed to upload cover image: ${reason}`,
  creatorName: "Please enter your creator name",
  category: "Please choose a category",
  currentPassword: "Your current password is incorrect",
  passwordChanged: "Your password has been changed. Other devices were signed out.",
  emailSame: "This is already your email address",
  /** Only when the link is used and someone took the address meanwhile (the request itself never tells). */
  emailTakenOnConfirm:
    "This email address can no longer be used. Please request the change again with another address.",
  emailSent: (email: string) => `We sent a confirmation link to ${email}. Your email changes when you open it.`,
  emailConfirmed: "Your email address has been changed.",
  emailLinkInvalid: "This confirmation link is invalid or has expired. Please request a new one.",
  deleteConfirm: "Please type DELETE to confirm",
  noGuestOrders: "There are no guest orders paid with your email address to add.",
  guestOrdersLinkSent: (email: string) => `We sent a link to ${email}. Open it to add the orders to your account.`,
  guestOrdersClaimed: (count: number) => `${count} order${count === 1 ? " was" : "s were"} added to your account.`,
  claimLinkInvalid: "This link is invalid, used or expired. Please ask for a new one in Settings.",
  pushSaved: "Push notifications are on for this device.",
  pushRemoved: "Push notifications are off for this device.",
  pushInvalid: "This browser's push subscription could not be read. Please try again.",
} as const;

/** What the account deletion form must contain, typed by the user. */
export const DELETE_CONFIRMATION_WORD = "DELETE";
export const BIO_MAX_LENGTH = 500;
export const PROFILE_CATEGORIES = SIGNUP_CATEGORIES;

/** Empty text is dropped (saved as no value) rather than stored as an empty string. */
const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .transform((v) => (v === "" ? null : v));

export const ProfileSchema = z.object({
  creatorName: z
    .string({ error: SETTINGS_MESSAGES.creatorName })
    .trim()
    .min(1, SETTINGS_MESSAGES.creatorName)
    .max(80, "Creator name must be at most 80 characters"),
  category: z.enum(PROFILE_CATEGORIES, { error: SETTINGS_MESSAGES.category }),
  bio: optionalText(BIO_MAX_LENGTH, `Bio must be at most ${BIO_MAX_LENGTH} characters`),
  website: WebsiteSchema,
});

/** A switch posted by a checkbox: "on" when ticked, absent when not. */
const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
  .optional()
  .transform((v) => v === "on" || v === "true");

export const NotificationsSchema = z.object({
  emailNotifications: checkbox,
  pushNotifications: checkbox,
  winnerNotifications: checkbox,
  salesNotifications: checkbox,
  poolNotifications: checkbox,
});

export const PrivacySchema = z.object({
  profilePublic: checkbox,
  showRevenue: checkbox,
  showFollowers: checkbox,
});

export const ShippingSchema = z.object({
  countries: z
    .array(z.string().trim().toUpperCase().refine(isCountryCode, SETTINGS_MESSAGES.shippingUnknown))
    .max(300, SETTINGS_MESSAGES.shippingUnknown)
    .transform((codes) => [...new Set(codes)]),
});

export const ChangePasswordSchema = z
  .object({
    currentPassword: z
      .string({ error: "Please enter your current password" })
      .min(1, "Please enter your current password")
      .max(128),
    newPassword: PasswordSchema,
    confirmPassword: z.string({ error: "Please confirm your password" }).min(1, "Please confirm your password"),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "Passwords do not match!",
  });

export const ChangeEmailSchema = z.object({
  newEmail: EmailSchema,
  currentPassword: z
    .string({ error: "Please enter your current password" })
    .min(1, "Please enter your current password")
    .max(128),
});

export const DeleteAccountSchema = z.object({
  confirmation: z.literal(DELETE_CONFIRMATION_WORD, { error: SETTINGS_MESSAGES.deleteConfirm }),
  currentPassword: z
    .string({ error: "Please enter your current password" })
    .min(1, "Please enter your current password")
    .max(128),
});

export const PushSubscriptionSchema = z.object({
  endpoint: z
    .string()
    .max(1000)
    .url()
    .refine((v) => v.startsWith("https://"), "Push endpoints are https:// addresses"),
  p256dh: z.string().min(80).max(100),
  auth: z.string().min(16).max(30),
});

/** The settings sections, in the order of their tabs: `/settings` shows the first, `/settings/<id>` the others. */
export const SETTINGS_SECTIONS = [
  { id: "profile", label: "Profile" },
  { id: "shipping", label: "Shipping" },
  { id: "notifications", label: "Notifications" },
  { id: "privacy", label: "Privacy" },
  { id: "account", label: "Account" },
  { id: "responsible-play", label: "Responsible play" },
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]["id"];

/** The section an older `/settings?tab=<id>` link names (profile when it names none or an unknown one). */
export function sectionOfTab(tab: string | null): SettingsSection {
  return SETTINGS_SECTIONS.find((s) => s.id === tab)?.id ?? "profile";
}

/** The browser event the nav bar listens to, so the new name shows at once. */
export const PROFILE_UPDATED_EVENT = "profileUpdated";

/** The answer of the settings action to every form of every section. */
export type SettingsActionData = {
  ok: boolean;
  intent: string;
  message: string;
  errors?: Record<string, string>;
  profile?: { creatorName: string; avatarUrl?: string | null; coverImageUrl?: string | null };
};

/** What the settings layout loads for every section. */
export type SettingsPageData = {
  email: string;
  profile: {
    creatorName: string;
    category: string;
    bio: string;
    website: string;
    avatarUrl: string | null;
    coverImageUrl: string | null;
    country: string;
    /** The display currency chosen (decision 620), "" for the country's; and the country's currency. */
    currency: string;
    countryCurrency: string;
  };
  shipping: string[];
  notifications: {
    emailNotifications: boolean;
    pushNotifications: boolean;
    winnerNotifications: boolean;
    salesNotifications: boolean;
    poolNotifications: boolean;
  };
  privacy: { profilePublic: boolean; showRevenue: boolean; showFollowers: boolean };
  pushPublicKey: string | null;
};

/** What the account section loads besides: the open orders that keep the buyer's details, claimable guest orders. */
export type SettingsAccountData = {
  openOrders: { orderNumber: string; productName: string; status: string }[];
  guestOrders: number;
};
