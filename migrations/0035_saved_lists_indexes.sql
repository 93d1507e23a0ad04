-- Issue 31 (docs/decisions/610-wishlist-and-saved-games.md): a fan's wishlist (/wishlist, their product likes) and
-- saved games (/guess-win?tab=saved) are read newest first, one page at a time, by the fan's id.
CREATE INDEX `product_likes_user_created_idx` ON `product_likes` (`user_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `game_saves_user_created_idx` ON `game_saves` (`user_id`,`created_at`);
