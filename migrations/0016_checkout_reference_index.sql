CREATE INDEX `checkout_sessions_reference_idx` ON `checkout_sessions` (json_extract(`metadata`, '$.checkout_id'));
