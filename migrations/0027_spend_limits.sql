-- Issue 29 item 4 (decision 520): a fan's monthly limit on spend that earns entries (a raise waits 24 hours), and
-- the ledger of that spend, one row per payment and host, applied once (its primary key), counted per UTC month.
CREATE TABLE `spend_limits` (
	`user_id` text PRIMARY KEY NOT NULL,
	`monthly_usd_cents` integer,
	`pending_usd_cents` integer,
	`pending_from` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `entry_spend` (
	`checkout_id` text NOT NULL,
	`host_id` text NOT NULL,
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`amount_usd_cents` integer NOT NULL,
	`funding` text,
	`earns_entry` integer NOT NULL,
	`refusal` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`checkout_id`, `host_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `entry_spend_user_month_idx` ON `entry_spend` (`user_id`,`month`);
