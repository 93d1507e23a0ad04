-- Issue 30 (decision 570): one notification per account and fact (the in-app inbox), one delivery row per channel
-- (e-mail, each subscribed browser's push) claimed before sending and retried by the cron, the cron's progress
-- telling a closed or drawn pool's entrants, the "pool updates" switch, and mail with an HTML part and headers.
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`url` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`read_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_user_key_unique` ON `notifications` (`user_id`,`key`);--> statement-breakpoint
CREATE INDEX `notifications_user_created_idx` ON `notifications` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_user_unread_idx` ON `notifications` (`user_id`) WHERE read_at is null;--> statement-breakpoint
CREATE TABLE `notification_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`notification_id` text NOT NULL,
	`channel` text NOT NULL,
	`target` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`sent_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`notification_id`) REFERENCES `notifications`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX `notification_deliveries_target_unique` ON `notification_deliveries` (`notification_id`,`channel`,`target`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_due_idx` ON `notification_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `pool_notices` (
	`pool_id` text NOT NULL,
	`event` text NOT NULL,
	`after_user_id` text DEFAULT '' NOT NULL,
	`done_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`pool_id`, `event`)
);--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `pool_notifications` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `html_body` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `headers` text;
