import { describe, expect, it } from "vitest";
import { DEFAULT_RATING, derivedRating, derivedReviewCount, RATING_CAP } from "~/domain/rating";

describe("derivedRating", () => {
  it.each([
    [0, 3.8],
    [1, 3.8], // 3.805
    [9, 3.8], // 3.845
    [10, 3.9], // 3.85 rounds half up
    [20, 3.9],
    [29, 3.9], // 3.945
    [30, 4], // 3.95
    [100, 4.3],
    [200, 4.8],
    [220, 4.9],
    [229, 4.9], // 4.945
    [230, 5], // 4.95 rounds half up
    [239, 5], // 4.995 rounds to 5.0
    [240, 5],
    [241, 5],
    [10_000, 5],
  ])("%i likes -> %d", (likes, rating) => {
    expect(derivedRating(likes)).toBe(rating);
  });

  it("treats negative and invalid like counts as 0", () => {
    expect(derivedRating(-50)).toBe(DEFAULT_RATING);
    expect(derivedRating(Number.NaN)).toBe(3.8);
    expect(derivedRating(10.9)).toBe(3.9);
    expect(RATING_CAP).toBe(5);
  });
});

describe("derivedReviewCount", () => {
  it.each([
    [120, 0, 120],
    [1, 1000, 1],
    [0, 0, 0],
    [0, 1, 3], // 2.5 rounds half up
    [0, 2, 5],
    [0, 3, 8], // 7.5
    [0, 10, 25],
    [-5, 4, 10],
    [Number.NaN, 4, 10],
  ])("views %d, likes %d -> %i", (views, likes, count) => {
    expect(derivedReviewCount(views, likes)).toBe(count);
  });
});
