-- The draw's append-only, hash-chained public log (decision 390): every commitment (its agreed tip's height, hash and
-- header time, the highest tip heard, the time of commitment), every void of a draw and every refused block, per pool.
CREATE TABLE `draw_commitments` (
	`pool_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`block_height` integer,
	`tip_height` integer,
	`tip_hash` text,
	`tip_time` integer,
	`highest_tip` integer,
	`reason` text,
	`created_at` integer NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`pool_id`, `seq`),
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "draw_commitments_kind" CHECK("draw_commitments"."kind" IN ('commit', 'void', 'delay'))
);
--> statement-breakpoint
-- A closed pool whose committed block was refused: why, until it is drawn (the pool shows "draw delayed").
ALTER TABLE `prize_pools` ADD `draw_delay_reason` text;--> statement-breakpoint
-- The headers from the recorded tip to the drawn block, so the verification page checks the chain offline.
ALTER TABLE `prize_draws` ADD `chain_headers` text;--> statement-breakpoint
ALTER TABLE `prize_draws` ADD `commitment_seq` integer;
