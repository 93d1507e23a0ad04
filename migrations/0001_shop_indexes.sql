CREATE INDEX `guess_win_games_host_status_created_idx` ON `guess_win_games` (`host_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `products_status_created_id_idx` ON `products` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `products_status_category_created_idx` ON `products` (`status`,`shop_category`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `products_host_status_created_idx` ON `products` (`host_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `user_shipping_countries_country_idx` ON `user_shipping_countries` (`country_code`,`host_id`);