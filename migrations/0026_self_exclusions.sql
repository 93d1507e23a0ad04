-- Issue 29: self-exclusion from prize draws. Each row is one key a self-exclusion is kept under (a keyed HMAC-SHA-256
-- of the account id, of the normalised e-mail, or of the normalised name with the date of birth) and when it ends.
-- No foreign key and no account id: deleting an account leaves its rows, so a new account of the same person is
-- still excluded until the end (docs/decisions/510-lawful-draws.md).
CREATE TABLE `self_exclusions` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`ends_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
