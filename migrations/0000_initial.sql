CREATE TABLE `auth_throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`window_started_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`locked_until` integer
);
--> statement-breakpoint
CREATE TABLE `chat_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`sender_id` text NOT NULL,
	`recipient_id` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`read_at` integer,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recipient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_messages_thread_idx` ON `chat_messages` (`sender_id`,`recipient_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `chat_messages_recipient_idx` ON `chat_messages` (`recipient_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`purpose` text NOT NULL,
	`user_id` text,
	`host_id` text,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`payment_status` text DEFAULT 'unpaid' NOT NULL,
	`payment_intent_id` text,
	`customer_email` text,
	`success_url` text NOT NULL,
	`cancel_url` text NOT NULL,
	`url` text,
	`metadata` text NOT NULL,
	`expires_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `checkout_sessions_user_created_idx` ON `checkout_sessions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `free_guess_usage` (
	`user_id` text NOT NULL,
	`game_id` text NOT NULL,
	`participant_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `game_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`game_id`) REFERENCES `guess_win_games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`participant_id`) REFERENCES `guess_win_participants`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `game_likes` (
	`user_id` text NOT NULL,
	`game_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `game_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`game_id`) REFERENCES `guess_win_games`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `game_likes_game_idx` ON `game_likes` (`game_id`);--> statement-breakpoint
CREATE TABLE `game_saves` (
	`user_id` text NOT NULL,
	`game_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `game_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`game_id`) REFERENCES `guess_win_games`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `game_saves_game_idx` ON `game_saves` (`game_id`);--> statement-breakpoint
CREATE TABLE `game_shares` (
	`user_id` text NOT NULL,
	`game_id` text NOT NULL,
	`host_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `game_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`game_id`) REFERENCES `guess_win_games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `game_shares_game_idx` ON `game_shares` (`game_id`);--> statement-breakpoint
CREATE TABLE `group_buy_products` (
	`group_buy_id` text NOT NULL,
	`product_id` text NOT NULL,
	PRIMARY KEY(`group_buy_id`, `product_id`),
	FOREIGN KEY (`group_buy_id`) REFERENCES `group_buys`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_buy_products_product_idx` ON `group_buy_products` (`product_id`);--> statement-breakpoint
CREATE TABLE `group_buy_shares` (
	`user_id` text NOT NULL,
	`group_buy_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `group_buy_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_buy_id`) REFERENCES `group_buys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `group_buy_tiers` (
	`id` text PRIMARY KEY NOT NULL,
	`group_buy_id` text NOT NULL,
	`sales_threshold_cents` integer NOT NULL,
	`discount_percent` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`group_buy_id`) REFERENCES `group_buys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_buy_tiers_group_buy_idx` ON `group_buy_tiers` (`group_buy_id`,`position`);--> statement-breakpoint
CREATE TABLE `group_buys` (
	`id` text PRIMARY KEY NOT NULL,
	`host_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`target_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`current_sales_cents` integer DEFAULT 0 NOT NULL,
	`current_participants` integer DEFAULT 0 NOT NULL,
	`end_at` integer NOT NULL,
	`final_discount_percent` integer,
	`finalised_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `group_buys_one_active_per_host` ON `group_buys` (`host_id`) WHERE status = 'active';--> statement-breakpoint
CREATE INDEX `group_buys_host_created_idx` ON `group_buys` (`host_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `group_buys_status_end_at_idx` ON `group_buys` (`status`,`end_at`);--> statement-breakpoint
CREATE TABLE `guess_win_games` (
	`id` text PRIMARY KEY NOT NULL,
	`host_id` text NOT NULL,
	`question` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`image_url` text,
	`video_url` text,
	`video_key` text,
	`video_duration_seconds` integer,
	`options` text NOT NULL,
	`correct_answer` text NOT NULL,
	`entry_fee_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`views_count` integer DEFAULT 0 NOT NULL,
	`likes_count` integer DEFAULT 0 NOT NULL,
	`comments_count` integer DEFAULT 0 NOT NULL,
	`shares_count` integer DEFAULT 0 NOT NULL,
	`participants_count` integer DEFAULT 0 NOT NULL,
	`total_entry_fees_cents` integer DEFAULT 0 NOT NULL,
	`expires_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`published_at` integer,
	`ended_at` integer,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `guess_win_games_status_created_idx` ON `guess_win_games` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `guess_win_games_host_idx` ON `guess_win_games` (`host_id`);--> statement-breakpoint
CREATE TABLE `guess_win_participants` (
	`id` text PRIMARY KEY NOT NULL,
	`game_id` text NOT NULL,
	`user_id` text NOT NULL,
	`answer` text NOT NULL,
	`is_correct` integer DEFAULT false NOT NULL,
	`kind` text NOT NULL,
	`entry_fee_cents` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`payment_status` text DEFAULT 'pending' NOT NULL,
	`payment_key` text,
	`pool_id` text,
	`entry_number` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `guess_win_games`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guess_win_participants_payment_key_unique` ON `guess_win_participants` (`payment_key`);--> statement-breakpoint
CREATE INDEX `guess_win_participants_game_created_idx` ON `guess_win_participants` (`game_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `guess_win_participants_user_idx` ON `guess_win_participants` (`user_id`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_to_address_idx` ON `mail_outbox` (`to_address`,`created_at`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`order_number` text NOT NULL,
	`user_id` text,
	`host_id` text NOT NULL,
	`product_id` text NOT NULL,
	`group_buy_id` text,
	`checkout_session_id` text,
	`payment_intent_id` text,
	`status` text DEFAULT 'processing' NOT NULL,
	`purchase_mode` text DEFAULT 'buy-now' NOT NULL,
	`amount_cents` integer NOT NULL,
	`unit_price_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`size_name` text,
	`color_name` text,
	`customer_email` text,
	`customer_name` text,
	`shipping_address` text,
	`billing_address` text,
	`product_name` text NOT NULL,
	`product_image` text,
	`product_category` text DEFAULT 'physical' NOT NULL,
	`tracking_number` text,
	`carrier` text,
	`estimated_delivery_at` integer,
	`pool_id` text,
	`entry_number` integer,
	`refunded_cents` integer DEFAULT 0 NOT NULL,
	`metadata` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`group_buy_id`) REFERENCES `group_buys`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_order_number_unique` ON `orders` (`order_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_checkout_session_id_unique` ON `orders` (`checkout_session_id`);--> statement-breakpoint
CREATE INDEX `orders_user_created_idx` ON `orders` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_host_created_idx` ON `orders` (`host_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_customer_email_idx` ON `orders` (`customer_email`);--> statement-breakpoint
CREATE INDEX `orders_tracking_number_idx` ON `orders` (`tracking_number`);--> statement-breakpoint
CREATE INDEX `orders_product_idx` ON `orders` (`product_id`);--> statement-breakpoint
CREATE INDEX `orders_group_buy_idx` ON `orders` (`group_buy_id`);--> statement-breakpoint
CREATE TABLE `password_reset_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `password_reset_tokens_user_id_idx` ON `password_reset_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`status` text DEFAULT 'received' NOT NULL,
	`error` text,
	`received_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`processed_at` integer
);
--> statement-breakpoint
CREATE TABLE `payout_methods` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text DEFAULT 'bank_account' NOT NULL,
	`holder_name` text NOT NULL,
	`account_last4` text NOT NULL,
	`bank_name` text NOT NULL,
	`verified` integer DEFAULT false NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payout_methods_user_idx` ON `payout_methods` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payout_methods_one_default_per_user` ON `payout_methods` (`user_id`) WHERE is_default = 1;--> statement-breakpoint
CREATE TABLE `payouts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`payout_type` text NOT NULL,
	`payout_method_id` text,
	`prize_winner_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`failure_reason` text,
	`external_id` text,
	`completed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`payout_method_id`) REFERENCES `payout_methods`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`prize_winner_id`) REFERENCES `prize_winners`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `payouts_user_created_idx` ON `payouts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_prize_winner_unique` ON `payouts` (`prize_winner_id`);--> statement-breakpoint
CREATE TABLE `platform_settings` (
	`setting_key` text PRIMARY KEY NOT NULL,
	`setting_value` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `prize_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`pool_id` text NOT NULL,
	`entry_number` integer NOT NULL,
	`user_id` text,
	`source_type` text,
	`source_key` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prize_entries_pool_entry_number_unique` ON `prize_entries` (`pool_id`,`entry_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `prize_entries_pool_source_key_unique` ON `prize_entries` (`pool_id`,`source_key`);--> statement-breakpoint
CREATE INDEX `prize_entries_user_id_idx` ON `prize_entries` (`user_id`);--> statement-breakpoint
CREATE TABLE `prize_mini_prizes` (
	`id` text PRIMARY KEY NOT NULL,
	`pool_id` text NOT NULL,
	`host_id` text NOT NULL,
	`name` text NOT NULL,
	`amount_text` text DEFAULT '' NOT NULL,
	`quantity_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `prize_mini_prizes_pool_id_idx` ON `prize_mini_prizes` (`pool_id`);--> statement-breakpoint
CREATE TABLE `prize_pool_contributions` (
	`id` text PRIMARY KEY NOT NULL,
	`pool_id` text NOT NULL,
	`host_id` text NOT NULL,
	`source_type` text NOT NULL,
	`source_key` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`user_id` text,
	`entry_number` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prize_pool_contributions_source_key_unique` ON `prize_pool_contributions` (`source_key`);--> statement-breakpoint
CREATE INDEX `prize_pool_contributions_pool_id_idx` ON `prize_pool_contributions` (`pool_id`);--> statement-breakpoint
CREATE INDEX `prize_pool_contributions_host_id_idx` ON `prize_pool_contributions` (`host_id`);--> statement-breakpoint
CREATE TABLE `prize_pools` (
	`id` text PRIMARY KEY NOT NULL,
	`host_id` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`target_cents` integer NOT NULL,
	`amount_cents` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`entries_count` integer DEFAULT 0 NOT NULL,
	`auto_renew` integer DEFAULT true NOT NULL,
	`start_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`end_at` integer NOT NULL,
	`closed_at` integer,
	`close_reason` text,
	`entries_digest` text,
	`draw_block_height` integer,
	`draw_block_hash` text,
	`winner_entry_number` integer,
	`winner_user_id` text,
	`drawn_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`winner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prize_pools_one_open_per_host` ON `prize_pools` (`host_id`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `prize_pools_status_end_at_idx` ON `prize_pools` (`status`,`end_at`);--> statement-breakpoint
CREATE INDEX `prize_pools_host_created_idx` ON `prize_pools` (`host_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `prize_winners` (
	`id` text PRIMARY KEY NOT NULL,
	`pool_id` text NOT NULL,
	`user_id` text,
	`winner_name` text NOT NULL,
	`prize_amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`prize_type` text NOT NULL,
	`entry_number` integer,
	`game_id` text,
	`block_hash` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`game_id`) REFERENCES `guess_win_games`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prize_winners_one_main_per_pool` ON `prize_winners` (`pool_id`) WHERE prize_type = 'main';--> statement-breakpoint
CREATE INDEX `prize_winners_pool_created_idx` ON `prize_winners` (`pool_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `prize_winners_user_id_idx` ON `prize_winners` (`user_id`);--> statement-breakpoint
CREATE TABLE `product_colors` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`name` text NOT NULL,
	`hex` text,
	`available_units` integer DEFAULT 0 NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_colors_product_idx` ON `product_colors` (`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `product_images` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`url` text NOT NULL,
	`r2_key` text,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_images_product_idx` ON `product_images` (`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `product_likes` (
	`user_id` text NOT NULL,
	`product_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `product_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_likes_product_idx` ON `product_likes` (`product_id`);--> statement-breakpoint
CREATE TABLE `product_sizes` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`name` text NOT NULL,
	`price_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`dimensions` text,
	`available_units` integer DEFAULT 0 NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_sizes_product_idx` ON `product_sizes` (`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`host_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`category` text DEFAULT 'physical' NOT NULL,
	`shop_category` text,
	`status` text DEFAULT 'active' NOT NULL,
	`base_price_cents` integer DEFAULT 0 NOT NULL,
	`price_min_cents` integer,
	`price_max_cents` integer,
	`currency` text DEFAULT 'USD' NOT NULL,
	`voucher_value_cents` integer,
	`voucher_expires_at` integer,
	`digital_file_key` text,
	`like_count` integer DEFAULT 0 NOT NULL,
	`view_count` integer DEFAULT 0 NOT NULL,
	`comments_count` integer DEFAULT 0 NOT NULL,
	`sales_count` integer DEFAULT 0 NOT NULL,
	`revenue_cents` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `products_status_created_idx` ON `products` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `products_host_status_idx` ON `products` (`host_id`,`status`);--> statement-breakpoint
CREATE INDEX `products_shop_category_idx` ON `products` (`shop_category`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`ip` text,
	`user_agent` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_id_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_at_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `shipping_updates` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`status` text,
	`description` text NOT NULL,
	`location` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shipping_updates_order_created_idx` ON `shipping_updates` (`order_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `tribe_members` (
	`user_id` text NOT NULL,
	`host_id` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`joined_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `host_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tribe_members_host_idx` ON `tribe_members` (`host_id`);--> statement-breakpoint
CREATE TABLE `user_activity` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`activity_type` text NOT NULL,
	`activity_data` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_activity_user_created_idx` ON `user_activity` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `user_analytics` (
	`user_id` text NOT NULL,
	`date` text NOT NULL,
	`games_created` integer DEFAULT 0 NOT NULL,
	`products_created` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `date`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `user_profiles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`slug` text,
	`creator_name` text NOT NULL,
	`email` text NOT NULL,
	`bio` text,
	`category` text DEFAULT 'General' NOT NULL,
	`website` text,
	`avatar_url` text,
	`cover_image_url` text,
	`verified` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`followers_count` integer DEFAULT 0 NOT NULL,
	`tribe_count` integer DEFAULT 0 NOT NULL,
	`total_revenue_cents` integer DEFAULT 0 NOT NULL,
	`total_sales` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`prize_pool_target_cents` integer DEFAULT 1000000 NOT NULL,
	`prize_pool_auto_renew` integer DEFAULT true NOT NULL,
	`withdrawable_balance_cents` integer DEFAULT 0 NOT NULL,
	`payout_method_configured` integer DEFAULT false NOT NULL,
	`stripe_customer_id` text,
	`stripe_account_id` text,
	`email_notifications` integer DEFAULT true NOT NULL,
	`push_notifications` integer DEFAULT true NOT NULL,
	`winner_notifications` integer DEFAULT true NOT NULL,
	`sales_notifications` integer DEFAULT true NOT NULL,
	`profile_public` integer DEFAULT true NOT NULL,
	`show_revenue` integer DEFAULT false NOT NULL,
	`show_followers` integer DEFAULT true NOT NULL,
	`onboarding_completed` integer DEFAULT false NOT NULL,
	`country` text DEFAULT 'MY' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_profiles_slug_unique` ON `user_profiles` (`slug`);--> statement-breakpoint
CREATE INDEX `user_profiles_featured_idx` ON `user_profiles` (`profile_public`,`followers_count`);--> statement-breakpoint
CREATE TABLE `user_shipping_countries` (
	`host_id` text NOT NULL,
	`country_code` text NOT NULL,
	PRIMARY KEY(`host_id`, `country_code`),
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "users_email_lowercase" CHECK(email = lower(email))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `vouchers` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`order_id` text NOT NULL,
	`product_id` text NOT NULL,
	`host_id` text NOT NULL,
	`buyer_id` text,
	`value_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`expires_at` integer NOT NULL,
	`redeemed_at` integer,
	`redeemed_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`buyer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`redeemed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vouchers_code_unique` ON `vouchers` (`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `vouchers_order_id_unique` ON `vouchers` (`order_id`);--> statement-breakpoint
CREATE INDEX `vouchers_host_created_idx` ON `vouchers` (`host_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `vouchers_buyer_idx` ON `vouchers` (`buyer_id`);