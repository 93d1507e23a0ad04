-- The session that stored a browser's push subscription: signing out of it deletes the subscription (decision 430).
ALTER TABLE `push_subscriptions` ADD `session_id` text;--> statement-breakpoint
CREATE INDEX `push_subscriptions_session_id_idx` ON `push_subscriptions` (`session_id`);
--> statement-breakpoint
-- Files sent to /api/uploads, for the per-account quotas and the cron's removal of files nothing uses.
CREATE TABLE `uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	`attached_at` integer
);--> statement-breakpoint
CREATE INDEX `uploads_user_created_idx` ON `uploads` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `uploads_unattached_idx` ON `uploads` (`attached_at`,`created_at`);
