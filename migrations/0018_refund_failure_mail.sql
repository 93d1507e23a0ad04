ALTER TABLE `refunds` ADD `buyer_failure_mailed_at` integer;--> statement-breakpoint
-- Refunds that had failed or been canceled before this column were never mailed about it: none is mailed now by a
-- later replay of their events.
UPDATE `refunds` SET `buyer_failure_mailed_at` = `updated_at` WHERE `status` IN ('failed', 'canceled');
