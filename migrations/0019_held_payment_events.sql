-- Refund and dispute events of a payment not known yet (a dashboard refund or a dispute arriving before the
-- checkout's completion): held by event id with their payment intent and charge, applied once the payment is known
-- (at the end of its fulfilment, and by the cron). See docs/decisions/380-held-payment-events.md.
CREATE TABLE `held_payment_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`payment_intent_id` text,
	`charge_id` text,
	`object` text NOT NULL,
	`received_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`applied_at` integer
);
--> statement-breakpoint
CREATE INDEX `held_payment_events_waiting_idx` ON `held_payment_events` (`applied_at`,`received_at`);--> statement-breakpoint
CREATE INDEX `held_payment_events_intent_idx` ON `held_payment_events` (`payment_intent_id`);
