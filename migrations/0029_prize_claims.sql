-- Issue 29 (decision 540): a main-prize winner claims within 30 days of the winner notice (the legal name they give,
-- an objection to their name being published), an admin records the age and identity check, and a claim nobody
-- confirmed in time lapses: the prize is redrawn once (reason "unclaimed"), then carried to the host's next pool.
CREATE TABLE `prize_claims` (
	`id` text PRIMARY KEY NOT NULL,
	`pool_id` text NOT NULL,
	`entry_number` integer NOT NULL,
	`user_id` text,
	`payout_id` text,
	`prize_amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`noticed_at` integer NOT NULL,
	`claim_by` integer NOT NULL,
	`confirmed_at` integer,
	`legal_name` text,
	`withhold_name` integer DEFAULT false NOT NULL,
	`id_checked_at` integer,
	`id_checked_by` text,
	`id_check_note` text,
	`lapsed_at` integer,
	`lapse_outcome` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`payout_id`) REFERENCES `payouts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`id_checked_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prize_claims_pool_entry_unique` ON `prize_claims` (`pool_id`,`entry_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `prize_claims_payout_unique` ON `prize_claims` (`payout_id`);--> statement-breakpoint
CREATE INDEX `prize_claims_claim_by_idx` ON `prize_claims` (`claim_by`);--> statement-breakpoint
CREATE INDEX `prize_claims_user_idx` ON `prize_claims` (`user_id`);--> statement-breakpoint
CREATE INDEX `prize_claims_created_idx` ON `prize_claims` (`created_at`);--> statement-breakpoint
-- /winners lists drawn pools newest first.
CREATE INDEX `prize_pools_status_drawn_idx` ON `prize_pools` (`status`,`drawn_at`);--> statement-breakpoint
-- Prizes announced before claims existed (their winner notice was the payout's creation) claim like any other, with
-- 30 days from now at least: a winner who was never asked to claim does not lapse on the day this ships.
INSERT INTO `prize_claims` (`id`, `pool_id`, `entry_number`, `user_id`, `payout_id`, `prize_amount_cents`, `currency`, `noticed_at`, `claim_by`)
SELECT lower(hex(randomblob(16))), w.`pool_id`, w.`entry_number`, p.`user_id`, p.`id`, p.`amount_cents`, p.`currency`,
	p.`created_at`, max(p.`created_at`, cast(unixepoch('subsec') * 1000 as integer)) + 30 * 86400000
FROM `payouts` p JOIN `prize_winners` w ON w.`id` = p.`prize_winner_id`
WHERE p.`payout_type` = 'prize_winner' AND p.`status` = 'pending' AND w.`prize_type` = 'main' AND w.`entry_number` IS NOT NULL;
