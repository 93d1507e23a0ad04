ALTER TABLE `refunds` ADD `buyer_mailed_at` integer;--> statement-breakpoint
-- Refunds made before this column were mailed (or not) by the code of their time: none is mailed again.
UPDATE `refunds` SET `buyer_mailed_at` = `created_at`;
