CREATE TABLE `admin_audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`admin_id` text,
	`action` text NOT NULL,
	`target_user_id` text,
	`target_game_id` text,
	`detail` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`admin_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`target_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`target_game_id`) REFERENCES `guess_win_games`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `admin_audit_log_created_idx` ON `admin_audit_log` (`created_at`);--> statement-breakpoint
CREATE TABLE `chat_conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_low_id` text NOT NULL,
	`user_high_id` text NOT NULL,
	`last_message_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_low_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_high_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_conversations_pair_unique` ON `chat_conversations` (`user_low_id`,`user_high_id`);--> statement-breakpoint
CREATE INDEX `chat_conversations_high_idx` ON `chat_conversations` (`user_high_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `chat_conversations_low_idx` ON `chat_conversations` (`user_low_id`,`last_message_at`);--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `conversation_id` text REFERENCES chat_conversations(id);--> statement-breakpoint
CREATE INDEX `chat_messages_conversation_idx` ON `chat_messages` (`conversation_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `chat_messages_unread_idx` ON `chat_messages` (`recipient_id`) WHERE read_at IS NULL;--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `payouts_held` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Backfill: one conversation per pair that already exchanged messages, and every message linked to it.
INSERT INTO `chat_conversations` (`id`, `user_low_id`, `user_high_id`, `last_message_at`, `created_at`)
SELECT lower(hex(randomblob(16))), min(`sender_id`, `recipient_id`), max(`sender_id`, `recipient_id`), max(`created_at`), min(`created_at`)
FROM `chat_messages` WHERE `sender_id` <> `recipient_id`
GROUP BY min(`sender_id`, `recipient_id`), max(`sender_id`, `recipient_id`);--> statement-breakpoint
UPDATE `chat_messages` SET `conversation_id` = (
  SELECT c.`id` FROM `chat_conversations` c
  WHERE c.`user_low_id` = min(`chat_messages`.`sender_id`, `chat_messages`.`recipient_id`)
    AND c.`user_high_id` = max(`chat_messages`.`sender_id`, `chat_messages`.`recipient_id`)
) WHERE `conversation_id` IS NULL;
