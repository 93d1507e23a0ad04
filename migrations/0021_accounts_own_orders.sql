-- Decision 410: orders belong to accounts, tokens die with what they protect, sign-in needs a mailed link past the
-- per-account ceiling of failures.

-- An order whose user id is missing gets the account that placed it: the one of its checkout.
UPDATE `orders` SET `user_id` = (
	SELECT `cs`.`user_id` FROM `checkout_sessions` `cs` WHERE `cs`.`id` = `orders`.`checkout_session_id`
)
WHERE `user_id` IS NULL AND EXISTS (
	SELECT 1 FROM `checkout_sessions` `cs`
	WHERE `cs`.`id` = `orders`.`checkout_session_id` AND `cs`.`user_id` IS NOT NULL
	AND EXISTS (SELECT 1 FROM `users` `u` WHERE `u`.`id` = `cs`.`user_id`)
);
--> statement-breakpoint
-- One-time links mailed to an account's owner: signing in past the failure ceiling, claiming guest orders.
CREATE TABLE `account_link_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `account_link_tokens_user_id_idx` ON `account_link_tokens` (`user_id`);--> statement-breakpoint
CREATE INDEX `account_link_tokens_expires_at_idx` ON `account_link_tokens` (`expires_at`);
--> statement-breakpoint
-- Since when an account has its current address (null: since it was created): a guest order paid with that address
-- before then is not the account's to claim.
ALTER TABLE `users` ADD `email_since` integer;
