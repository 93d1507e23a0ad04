-- Issue 29: the facts every entry route checks. A fan's date of birth (YYYY-MM-DD, private) and whether they object
-- to their name being published if they win; the region (ISO 3166-2 subdivision, e.g. US-NY) beside the profile's
-- country, for places where entries are not offered.
ALTER TABLE `users` ADD `date_of_birth` text;
--> statement-breakpoint
ALTER TABLE `users` ADD `withhold_winner_name` integer DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `region` text;
