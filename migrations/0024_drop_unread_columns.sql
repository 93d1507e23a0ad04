-- Columns nothing reads (decision 450): dropped in place with ALTER TABLE … DROP COLUMN, never by recreating the
-- table (D1 enforces foreign keys inside a migration, so a recreated table would fire its children's ON DELETE
-- CASCADE). None of them is in an index, a foreign key, a CHECK or a view.
ALTER TABLE `mail_outbox` DROP COLUMN `html_body`;--> statement-breakpoint
ALTER TABLE `payouts` DROP COLUMN `external_id`;--> statement-breakpoint
ALTER TABLE `user_analytics` DROP COLUMN `products_created`;--> statement-breakpoint
ALTER TABLE `user_profiles` DROP COLUMN `tribe_count`;--> statement-breakpoint
ALTER TABLE `user_profiles` DROP COLUMN `withdrawable_balance_cents`;--> statement-breakpoint
ALTER TABLE `user_profiles` DROP COLUMN `payout_method_configured`;--> statement-breakpoint
ALTER TABLE `user_profiles` DROP COLUMN `stripe_customer_id`;--> statement-breakpoint
ALTER TABLE `user_profiles` DROP COLUMN `stripe_account_id`;--> statement-breakpoint
ALTER TABLE `user_profiles` DROP COLUMN `onboarding_completed`;
