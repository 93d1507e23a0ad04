-- The local payment provider's own record of the money it moved (decision 400): what it captured, refunded, gave back
-- after a failed refund, withdrew for a dispute and reinstated. Only the local provider writes it; nothing in the app
-- reads it. The model-based test (tests/model/) reads the money side of its conservation check from here.
CREATE TABLE `local_provider_movements` (
	`id` text PRIMARY KEY NOT NULL,
	`checkout_session_id` text NOT NULL,
	`payment_intent_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);--> statement-breakpoint
CREATE INDEX `local_provider_movements_checkout_idx` ON `local_provider_movements` (`checkout_session_id`);
