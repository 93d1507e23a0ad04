// A fan's own lists (docs/decisions/610-wishlist-and-saved-games.md): the wishlist (/wishlist, the products they
// liked) and their saved games (/guess-win?tab=saved).

/** Cards on a page of /wishlist (a /shop page's size). */
export const WISHLIST_PAGE_SIZE = 24;

export const WISHLIST_MESSAGES = {
  removed: "Removed from your wishlist.",
  unknownProduct: "Choose a product of your wishlist to remove.",
} as const;

/** The /guess-win tab that lists the fan's saved games (`?tab=saved`); without it the page lists every active game. */
export const SAVED_GAMES_TAB = "saved";
