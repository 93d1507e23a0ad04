DROP INDEX `orders_checkout_session_id_unique`;--> statement-breakpoint
ALTER TABLE `orders` ADD `line` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_checkout_session_line_unique` ON `orders` (`checkout_session_id`,`line`);