CREATE TABLE `payment_processing_fees` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_intent_id` text NOT NULL,
	`checkout_session_id` text,
	`provider` text NOT NULL,
	`balance_transaction_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`fee_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`checkout_session_id`) REFERENCES `checkout_sessions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_processing_fees_payment_intent_unique` ON `payment_processing_fees` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `payment_processing_fees_created_idx` ON `payment_processing_fees` (`created_at`);