CREATE TABLE `disputes` (
	`id` text PRIMARY KEY NOT NULL,
	`checkout_session_id` text NOT NULL,
	`payment_intent_id` text NOT NULL,
	`order_id` text,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`status` text NOT NULL,
	`funds_withdrawn` integer DEFAULT false NOT NULL,
	`funds_reinstated` integer DEFAULT false NOT NULL,
	`reversal` text DEFAULT 'none' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `disputes_checkout_idx` ON `disputes` (`checkout_session_id`);--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`checkout_session_id` text NOT NULL,
	`payment_intent_id` text NOT NULL,
	`order_id` text,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`status` text NOT NULL,
	`origin` text DEFAULT 'provider' NOT NULL,
	`reason` text,
	`reversal` text DEFAULT 'none' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `refunds_checkout_idx` ON `refunds` (`checkout_session_id`);--> statement-breakpoint
CREATE INDEX `refunds_order_idx` ON `refunds` (`order_id`);--> statement-breakpoint
CREATE TABLE `return_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`user_id` text,
	`host_id` text NOT NULL,
	`reason` text NOT NULL,
	`status` text DEFAULT 'requested' NOT NULL,
	`decline_reason` text,
	`refund_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`decided_at` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`host_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `return_requests_host_idx` ON `return_requests` (`host_id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `return_requests_open_unique` ON `return_requests` (`order_id`) WHERE status = 'requested';--> statement-breakpoint
ALTER TABLE `checkout_sessions` ADD `rates` text;--> statement-breakpoint
ALTER TABLE `checkout_sessions` ADD `refunded_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `checkout_sessions` ADD `refund_state` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
CREATE INDEX `checkout_sessions_payment_intent_idx` ON `checkout_sessions` (`payment_intent_id`);--> statement-breakpoint
ALTER TABLE `orders` ADD `refund_state` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `refund_reason` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `delivered_at` integer;--> statement-breakpoint
UPDATE `orders` SET `delivered_at` = `updated_at` WHERE `delivered_at` IS NULL AND `product_category` = 'physical' AND `status` IN ('delivered', 'completed');--> statement-breakpoint
UPDATE `orders` SET `delivered_at` = `created_at` WHERE `delivered_at` IS NULL AND `product_category` <> 'physical' AND `status` NOT IN ('pending', 'cancelled');--> statement-breakpoint
UPDATE `orders` SET `refund_state` = CASE WHEN `refunded_cents` >= `amount_cents` THEN 'full' ELSE 'partial' END WHERE `refunded_cents` > 0;
