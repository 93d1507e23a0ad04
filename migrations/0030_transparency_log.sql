-- The public commitment log (decision 550): one append-only, hash-chained log across every pool. Each pool's draw log
-- record (commitment, void, refused block) is mirrored here in the same batch, with the entries digest, the valid
-- entries by source and the tips heard; record n carries record n-1's hash. A migration cannot compute SHA-256, so
-- the log starts with a genesis record whose hash the pure code computes (app/domain/transparency-log.ts,
-- GENESIS_TRANSPARENCY_HASH; tests/domain/transparency-log.test.ts checks this literal). Records made before this
-- migration stay in their pool's own draw log.
CREATE TABLE `transparency_log` (
	`seq` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`pool_id` text,
	`pool_seq` integer,
	`pool_record_hash` text,
	`entries_digest` text,
	`entry_counts` text NOT NULL,
	`block_height` integer,
	`tip_height` integer,
	`tip_hash` text,
	`tip_time` integer,
	`highest_tip` integer,
	`tips_seen` text NOT NULL,
	`reason` text,
	`created_at` integer NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL,
	FOREIGN KEY (`pool_id`) REFERENCES `prize_pools`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "transparency_log_kind" CHECK("transparency_log"."kind" IN ('genesis', 'commit', 'void', 'delay'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transparency_log_pool_record_unique` ON `transparency_log` (`pool_id`,`pool_seq`);--> statement-breakpoint
INSERT INTO `transparency_log` (`seq`, `kind`, `pool_id`, `pool_seq`, `pool_record_hash`, `entries_digest`, `entry_counts`, `block_height`, `tip_height`, `tip_hash`, `tip_time`, `highest_tip`, `tips_seen`, `reason`, `created_at`, `prev_hash`, `hash`)
VALUES (0, 'genesis', NULL, NULL, NULL, NULL, '{}', NULL, NULL, NULL, NULL, NULL, '[]', 'The public commitment log starts here', 1795651200000, '0000000000000000000000000000000000000000000000000000000000000000', '3982340c52e0fc3c893c3ddefdff51f9dab3eb98d01839fa874bbed96479cf3f');
