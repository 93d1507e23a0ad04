CREATE TABLE `ad_revenue_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`host_id` text NOT NULL,
	`period_start` text NOT NULL,
	`period_end` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`impressions` integer DEFAULT 0 NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`recorded_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`recorded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ad_revenue_reports_host_period_unique` ON `ad_revenue_reports` (`host_id`,`period_start`,`period_end`);--> statement-breakpoint
CREATE INDEX `ad_revenue_reports_host_idx` ON `ad_revenue_reports` (`host_id`,`period_start`);--> statement-breakpoint
CREATE TABLE `earnings_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`host_id` text NOT NULL,
	`kind` text NOT NULL,
	`source_key` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`gross_cents` integer DEFAULT 0 NOT NULL,
	`pool_cents` integer DEFAULT 0 NOT NULL,
	`platform_cents` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`rates` text,
	`description` text DEFAULT '' NOT NULL,
	`order_id` text,
	`payout_id` text,
	`pool_id` text,
	`reference_id` text,
	`available_at` integer,
	`occurred_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`payout_id`) REFERENCES `payouts`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `earnings_ledger_source_key_unique` ON `earnings_ledger` (`source_key`);--> statement-breakpoint
CREATE INDEX `earnings_ledger_host_occurred_idx` ON `earnings_ledger` (`host_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `earnings_ledger_order_idx` ON `earnings_ledger` (`order_id`);--> statement-breakpoint
CREATE INDEX `earnings_ledger_payout_idx` ON `earnings_ledger` (`payout_id`);--> statement-breakpoint
CREATE TABLE `mini_prize_winners` (
	`id` text PRIMARY KEY NOT NULL,
	`mini_prize_id` text NOT NULL,
	`pool_id` text NOT NULL,
	`user_id` text,
	`entry_number` integer NOT NULL,
	`delivered_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`mini_prize_id`) REFERENCES `prize_mini_prizes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mini_prize_winners_prize_entry_unique` ON `mini_prize_winners` (`mini_prize_id`,`entry_number`);--> statement-breakpoint
CREATE INDEX `mini_prize_winners_pool_idx` ON `mini_prize_winners` (`pool_id`);--> statement-breakpoint
CREATE INDEX `mini_prize_winners_user_idx` ON `mini_prize_winners` (`user_id`);--> statement-breakpoint
ALTER TABLE `payout_methods` ADD `connected_account_id` text;--> statement-breakpoint
ALTER TABLE `payout_methods` ADD `country` text;--> statement-breakpoint
ALTER TABLE `payout_methods` ADD `account_event_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `payout_methods_connected_account_unique` ON `payout_methods` (`connected_account_id`);--> statement-breakpoint
ALTER TABLE `payouts` ADD `fee_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payouts` ADD `attempt` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payouts` ADD `connected_account_id` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `transfer_id` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `bank_payout_id` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `bank_payout_status` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `estimated_arrival_at` integer;--> statement-breakpoint
ALTER TABLE `payouts` ADD `manual_note` text;--> statement-breakpoint
CREATE INDEX `payouts_transfer_idx` ON `payouts` (`transfer_id`);