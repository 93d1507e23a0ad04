// Categories, product kinds, game statuses and the limits on games and uploads.

/** Host categories offered at signup and in settings (the same list). */
export const SIGNUP_CATEGORIES = [
  "Lifestyle & Family",
  "Food & Cooking",
  "Travel & Adventure",
  "Fashion & Beauty",
  "Tech & Gaming",
  "Fitness & Health",
  "Art & Creativity",
  "Education",
  "Entertainment",
  "Business & Brand",
  "Other",
] as const;
export type SignupCategory = (typeof SIGNUP_CATEGORIES)[number];

export function isSignupCategory(value: unknown): value is SignupCategory {
  return typeof value === "string" && (SIGNUP_CATEGORIES as readonly string[]).includes(value);
}

/** Category of a profile created without one (docs/product.md#accounts; not a signup choice). */
export const DEFAULT_PROFILE_CATEGORY = "General";

/** A product's shop category (products.shop_category), chosen on the product form; null when none is chosen. */
export const PRODUCT_SHOP_CATEGORIES = [
  "Home & Lifestyle",
  "Tech & Gaming",
  "Fashion & Beauty",
  "Food & Cooking",
] as const;
export type ProductShopCategory = (typeof PRODUCT_SHOP_CATEGORIES)[number];

/** The /shop category filter: "All" (matches every product), then the product shop categories. */
export const SHOP_CATEGORIES = ["All", ...PRODUCT_SHOP_CATEGORIES] as const;
export type ShopCategory = (typeof SHOP_CATEGORIES)[number];
export const ALL_SHOP_CATEGORY: ShopCategory = "All";

// --- products -------------------------------------------------------------------------------------------------

export const PRODUCT_CATEGORIES = ["physical", "digital", "voucher"] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

/** A product's category; anything unknown or missing is physical. */
export function productCategory(value: unknown): ProductCategory {
  return typeof value === "string" && (PRODUCT_CATEGORIES as readonly string[]).includes(value)
    ? (value as ProductCategory)
    : "physical";
}

/** archived: removed from the shop while past orders keep it (a product with orders is archived, not deleted). */
export const PRODUCT_STATUSES = ["active", "inactive", "draft", "archived"] as const;

// --- games ----------------------------------------------------------------------------------------------------

export const GAME_STATUSES = ["draft", "active", "paused", "completed"] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];

export const GAME_STATUS_LABELS: Readonly<Record<GameStatus, string>> = {
  draft: "Draft",
  active: "Active",
  paused: "Paused",
  completed: "Completed",
};

/** A guess is free (one per fan and game) or paid. */
export const GUESS_KINDS = ["free", "paid"] as const;
export const GUESS_PAYMENT_STATUSES = ["pending", "paid", "refunded"] as const;

export function isGameStatus(value: unknown): value is GameStatus {
  return typeof value === "string" && (GAME_STATUSES as readonly string[]).includes(value);
}

/** The status label; unknown values display as Active. */
export function gameStatusLabel(status: unknown): string {
  return isGameStatus(status) ? GAME_STATUS_LABELS[status] : GAME_STATUS_LABELS.active;
}

/** A completed game's texts, answer and fee are final (its guesses and answer are published): only others are edited. */
export function canEditGame(status: unknown): boolean {
  return status !== "completed";
}

/** The pause button: paused becomes active, any other status becomes paused. */
export function nextPauseStatus(status: unknown): "active" | "paused" {
  return status === "paused" ? "active" : "paused";
}

/** The status a game shows while its pause toggle is in flight (a completed game has none); `status` otherwise. */
export function shownGameStatus<S extends string>(status: S, toggling: boolean): S | "active" | "paused" {
  return toggling && status !== "completed" ? nextPauseStatus(status) : status;
}

/** The confirmation before a game is deleted. */
export const GAME_DELETE_CONFIRM = "Are you sure you want to delete this game? This action cannot be undone.";

export const GAME_OPTIONS_MIN = 2;
export const GAME_OPTIONS_MAX = 6;
/** Games are priced in USD: minimum entry fee 1, input maximum 100, default 3. */
export const GAME_CURRENCY = "USD";
export const GAME_ENTRY_FEE_MIN_CENTS = 100;
export const GAME_ENTRY_FEE_MAX_CENTS = 10_000;
export const GAME_ENTRY_FEE_DEFAULT_CENTS = 300;

export const VIDEO_MIN_SECONDS = 30;
/** 500 MB. */
export const VIDEO_MAX_BYTES = 524_288_000;
/** 5 MB (avatars, covers, product images). */
export const IMAGE_MAX_BYTES = 5_242_880;
/** 50 MB: the largest downloadable file of a digital product. */
export const DIGITAL_FILE_MAX_BYTES = 52_428_800;
/** The largest part of a video upload accepted (Workers take request bodies up to 100 MB). */
export const VIDEO_PART_MAX_BYTES = 95 * 1_048_576;
export const BYTES_PER_MEGABYTE = 1_048_576;

/** Seconds as m:ss, rounded down to whole seconds: 75 -> "1:15", 30 -> "0:30", 3600 -> "60:00"; invalid -> "0:00". */
export function formatDuration(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** Bytes in MB (÷ 1048576) with two decimals, rounded half up: 524288000 -> "500.00", 1572864 -> "1.50". */
export function formatMegabytes(bytes: number): string {
  const whole = Number.isFinite(bytes) && bytes > 0 ? Math.floor(bytes) : 0;
  const hundredths = Math.floor((whole * 100 + BYTES_PER_MEGABYTE / 2) / BYTES_PER_MEGABYTE);
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, "0")}`;
}

/** True when a video is long enough for a game (30 s or more). */
export function isVideoLongEnough(seconds: number): boolean {
  return Number.isFinite(seconds) && seconds >= VIDEO_MIN_SECONDS;
}

/** The too-short message with the video's length: 'Video is only 0:12 long. Must be at least 30 seconds.' */
export function videoTooShortMessage(seconds: number): string {
  return `Video is only ${formatDuration(seconds)} long. Must be at least ${VIDEO_MIN_SECONDS} seconds.`;
}
