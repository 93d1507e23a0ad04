CREATE TABLE `group_buy_refunds` (
	`order_id` text PRIMARY KEY NOT NULL,
	`group_buy_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`pool_reversal_cents` integer DEFAULT 0 NOT NULL,
	`refund_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_buy_id`) REFERENCES `group_buys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_buy_refunds_group_buy_idx` ON `group_buy_refunds` (`group_buy_id`,`refund_id`);--> statement-breakpoint
ALTER TABLE `orders` ADD `sales_rm_cents` integer;