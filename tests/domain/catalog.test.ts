import { describe, expect, it } from "vitest";
import {
  ALL_SHOP_CATEGORY,
  DEFAULT_PROFILE_CATEGORY,
  formatDuration,
  formatMegabytes,
  GAME_ENTRY_FEE_DEFAULT_CENTS,
  GAME_ENTRY_FEE_MAX_CENTS,
  GAME_ENTRY_FEE_MIN_CENTS,
  GAME_OPTIONS_MAX,
  GAME_OPTIONS_MIN,
  GAME_STATUSES,
  gameStatusLabel,
  IMAGE_MAX_BYTES,
  isSignupCategory,
  isVideoLongEnough,
  nextPauseStatus,
  PRODUCT_CATEGORIES,
  productCategory,
  SHOP_CATEGORIES,
  SIGNUP_CATEGORIES,
  VIDEO_MAX_BYTES,
  VIDEO_MIN_SECONDS,
  videoTooShortMessage,
} from "~/domain/catalog";

describe("categories", () => {
  it("lists the signup categories in their fixed order", () => {
    expect(SIGNUP_CATEGORIES).toEqual([
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
    ]);
    expect(isSignupCategory("Education")).toBe(true);
    expect(isSignupCategory("education")).toBe(false);
    expect(isSignupCategory(DEFAULT_PROFILE_CATEGORY)).toBe(false);
    expect(DEFAULT_PROFILE_CATEGORY).toBe("General");
  });

  it("lists the shop categories", () => {
    expect(SHOP_CATEGORIES).toEqual(["All", "Home & Lifestyle", "Tech & Gaming", "Fashion & Beauty", "Food & Cooking"]);
    expect(ALL_SHOP_CATEGORY).toBe("All");
  });

  it("maps product categories, unknown to physical", () => {
    expect(PRODUCT_CATEGORIES).toEqual(["physical", "digital", "voucher"]);
    expect(productCategory("physical")).toBe("physical");
    expect(productCategory("digital")).toBe("digital");
    expect(productCategory("voucher")).toBe("voucher");
    expect(productCategory("Digital")).toBe("physical");
    expect(productCategory("service")).toBe("physical");
    expect(productCategory("")).toBe("physical");
    expect(productCategory(null)).toBe("physical");
    expect(productCategory(undefined)).toBe("physical");
  });
});

describe("game statuses", () => {
  it("toggles pause: paused -> active, anything else -> paused", () => {
    expect(GAME_STATUSES).toEqual(["draft", "active", "paused", "completed"]);
    expect(nextPauseStatus("paused")).toBe("active");
    expect(nextPauseStatus("active")).toBe("paused");
    expect(nextPauseStatus("draft")).toBe("paused");
    expect(nextPauseStatus("completed")).toBe("paused");
    expect(nextPauseStatus("weird")).toBe("paused");
    expect(nextPauseStatus(undefined)).toBe("paused");
  });

  it("labels statuses, unknown as Active", () => {
    expect(gameStatusLabel("draft")).toBe("Draft");
    expect(gameStatusLabel("active")).toBe("Active");
    expect(gameStatusLabel("paused")).toBe("Paused");
    expect(gameStatusLabel("completed")).toBe("Completed");
    expect(gameStatusLabel("archived")).toBe("Active");
    expect(gameStatusLabel(null)).toBe("Active");
  });
});

describe("game limits", () => {
  it("holds the product's numbers", () => {
    expect([GAME_OPTIONS_MIN, GAME_OPTIONS_MAX]).toEqual([2, 6]);
    expect([GAME_ENTRY_FEE_MIN_CENTS, GAME_ENTRY_FEE_MAX_CENTS, GAME_ENTRY_FEE_DEFAULT_CENTS]).toEqual([
      100, 10000, 300,
    ]);
    expect(VIDEO_MIN_SECONDS).toBe(30);
    expect(VIDEO_MAX_BYTES).toBe(524288000);
    expect(VIDEO_MAX_BYTES).toBe(500 * 1048576);
    expect(IMAGE_MAX_BYTES).toBe(5242880);
    expect(IMAGE_MAX_BYTES).toBe(5 * 1048576);
  });

  it("accepts videos of 30 seconds or more", () => {
    expect(isVideoLongEnough(29.99)).toBe(false);
    expect(isVideoLongEnough(30)).toBe(true);
    expect(isVideoLongEnough(180)).toBe(true);
    expect(isVideoLongEnough(Number.NaN)).toBe(false);
    expect(videoTooShortMessage(12.7)).toBe("Video is only 0:12 long. Must be at least 30 seconds.");
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0:00"],
    [5, "0:05"],
    [29.9, "0:29"],
    [30, "0:30"],
    [59, "0:59"],
    [60, "1:00"],
    [75, "1:15"],
    [600, "10:00"],
    [3599, "59:59"],
    [3600, "60:00"],
    [-4, "0:00"],
    [Number.NaN, "0:00"],
  ])("%d s is %j", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe("formatMegabytes", () => {
  it.each([
    [0, "0.00"],
    [1048576, "1.00"],
    [1572864, "1.50"],
    [5242880, "5.00"],
    [524288000, "500.00"],
    [524288001, "500.00"],
    [1000000, "0.95"], // 0.9537
    [5000, "0.00"], // 0.00477
    [5243, "0.01"], // 0.005000 rounds half up
    [-1, "0.00"],
  ])("%i bytes is %j MB", (bytes, text) => {
    expect(formatMegabytes(bytes)).toBe(text);
  });
});
