-- Issue 29: the free entry route and postal entries (docs/decisions/530-free-and-postal-entries.md). Each free entry
-- (one per pool per account per UTC day, keyed by its source key) with the address it came from, for the per-address
-- daily limit and the admin's per-address counts, and its void (reason, admin) when the admin voids it before the
-- pool's freeze; each postal entry by its card reference (a card counts once), received date and recording admin.
-- prize_pools.entries_format: 1 for entry lists frozen before entries.txt named each entry's source, 2 after.
CREATE TABLE `free_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`pool_id` text NOT NULL,
	`host_id` text NOT NULL,
	`user_id` text,
	`entry_day` text NOT NULL,
	`address` text NOT NULL,
	`source_key` text NOT NULL,
	`entry_number` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`voided_at` integer,
	`void_reason` text,
	`voided_by` text,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`voided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `free_entries_source_key_unique` ON `free_entries` (`source_key`);
--> statement-breakpoint
CREATE INDEX `free_entries_day_address_idx` ON `free_entries` (`entry_day`,`address`);
--> statement-breakpoint
CREATE INDEX `free_entries_pool_idx` ON `free_entries` (`pool_id`);
--> statement-breakpoint
CREATE TABLE `postal_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`card_reference` text NOT NULL,
	`host_id` text NOT NULL,
	`pool_id` text NOT NULL,
	`user_id` text,
	`received_on` text NOT NULL,
	`recorded_by` text,
	`source_key` text NOT NULL,
	`entry_number` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`recorded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `postal_entries_card_reference_unique` ON `postal_entries` (`card_reference`);
--> statement-breakpoint
CREATE INDEX `postal_entries_pool_idx` ON `postal_entries` (`pool_id`);
--> statement-breakpoint
ALTER TABLE `prize_pools` ADD `entries_format` integer DEFAULT 1 NOT NULL;
