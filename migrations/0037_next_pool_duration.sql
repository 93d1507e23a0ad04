-- Issue 31 (docs/decisions/640-the-next-pool-takes-the-saved-settings.md): the duration a host saves in prize pool
-- settings is kept beside the saved target, shown again on the settings page and used for the host's next pool.
ALTER TABLE `user_profiles` ADD `prize_pool_duration_days` integer DEFAULT 30 NOT NULL;
