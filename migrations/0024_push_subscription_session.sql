-- The session that stored a browser's push subscription: signing out of it deletes the subscription (decision 430).
ALTER TABLE `push_subscriptions` ADD `session_id` text;--> statement-breakpoint
CREATE INDEX `push_subscriptions_session_id_idx` ON `push_subscriptions` (`session_id`);
