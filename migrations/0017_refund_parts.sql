CREATE TABLE `refund_parts` (
	`kind` text NOT NULL,
	`source_id` text NOT NULL,
	`order_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`reversal` text DEFAULT 'none' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`kind`, `source_id`, `order_id`)
);
--> statement-breakpoint
CREATE INDEX `refund_parts_order_idx` ON `refund_parts` (`order_id`);