// Ratings and counts derived from likes and views (products have no review system of their own).

export const DEFAULT_RATING = 3.8;
export const RATING_CAP = 5;

/** A count as a non-negative whole number (negatives, fractions and garbage are floored or read as 0). */
function count(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/**
 * min(5, 3.8 + likes / 200) rounded to one decimal (half up), computed in tenths with integers:
 * 0 likes -> 3.8, 10 -> 3.9, 100 -> 4.3, 240 and more -> 5.
 */
export function derivedRating(likes: number): number {
  // tenths = 38 + likes / 20, rounded half up
  const tenths = Math.floor((Math.round(DEFAULT_RATING * 10) * 20 + count(likes) + 10) / 20);
  return Math.min(RATING_CAP * 10, tenths) / 10;
}

/** The view count when there are views, else 2.5 × likes rounded half up (1 like -> 3). */
export function derivedReviewCount(views: number, likes: number): number {
  const viewCount = count(views);
  if (viewCount > 0) return viewCount;
  return Math.floor((5 * count(likes) + 1) / 2);
}
