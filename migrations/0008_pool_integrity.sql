CREATE TABLE `host_debits` (
	`id` text PRIMARY KEY NOT NULL,
	`host_id` text NOT NULL,
	`pool_id` text NOT NULL,
	`reversal_key` text NOT NULL,
	`source_key` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `host_debits_reversal_key_unique` ON `host_debits` (`reversal_key`);--> statement-breakpoint
CREATE INDEX `host_debits_host_created_idx` ON `host_debits` (`host_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `host_debits_source_key_idx` ON `host_debits` (`source_key`);--> statement-breakpoint
CREATE TABLE `pool_contribution_keys` (
	`source_key` text PRIMARY KEY NOT NULL,
	`host_id` text NOT NULL,
	`pool_id` text,
	`source_type` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`user_id` text,
	`earns_entry` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`applied_at` integer,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `pool_contribution_keys_unapplied_idx` ON `pool_contribution_keys` (`applied_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `prize_draws` (
	`id` text PRIMARY KEY NOT NULL,
	`pool_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`block_height` integer NOT NULL,
	`block_hash` text NOT NULL,
	`block_header` text NOT NULL,
	`winner_entry_number` integer NOT NULL,
	`winner_user_id` text,
	`drawn_at` integer NOT NULL,
	`voided_at` integer,
	`void_reason` text,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`winner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prize_draws_pool_attempt_unique` ON `prize_draws` (`pool_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `prize_entry_disqualifications` (
	`pool_id` text NOT NULL,
	`entry_number` integer NOT NULL,
	`reversal_key` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`pool_id`, `entry_number`),
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
ALTER TABLE `guess_win_participants` ADD `confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `prize_entries` ADD `voided_at` integer;--> statement-breakpoint
ALTER TABLE `prize_pool_contributions` ADD `reverses_key` text;--> statement-breakpoint
CREATE INDEX `prize_pool_contributions_reverses_key_idx` ON `prize_pool_contributions` (`reverses_key`);--> statement-breakpoint
-- Backfills: every drawn pool's draw becomes attempt 0; every recorded contribution is already reserved and applied;
-- every guess recorded so far was confirmed when it was created.
INSERT OR IGNORE INTO `prize_draws` (`id`, `pool_id`, `attempt`, `block_height`, `block_hash`, `block_header`, `winner_entry_number`, `winner_user_id`, `drawn_at`)
SELECT lower(hex(randomblob(16))), `id`, 0, `draw_block_height`, `draw_block_hash`, `draw_block_header`, `winner_entry_number`, `winner_user_id`, COALESCE(`drawn_at`, `updated_at`)
FROM `prize_pools` WHERE `status` = 'drawn' AND `draw_block_hash` IS NOT NULL AND `draw_block_header` IS NOT NULL AND `winner_entry_number` IS NOT NULL AND `draw_block_height` IS NOT NULL;--> statement-breakpoint
INSERT OR IGNORE INTO `pool_contribution_keys` (`source_key`, `host_id`, `pool_id`, `source_type`, `amount_cents`, `currency`, `user_id`, `earns_entry`, `created_at`, `applied_at`)
SELECT `source_key`, `host_id`, `pool_id`, `source_type`, `amount_cents`, `currency`, `user_id`, CASE WHEN `entry_number` IS NULL THEN 0 ELSE 1 END, `created_at`, `created_at`
FROM `prize_pool_contributions`;--> statement-breakpoint
UPDATE `guess_win_participants` SET `confirmed_at` = `created_at` WHERE `confirmed_at` IS NULL AND `payment_status` = 'paid';
