-- Issue 29 item 7 (decision 560): a pool's mini prizes are fixed once it has an entry. A save checks, in the same
-- batch as the write, whether a contribution that asks for an entry is reserved for the pool (the payment's batch
-- reserves it before the pool object makes the entry); this index answers that per pool.
CREATE INDEX `pool_contribution_keys_entry_pool_idx` ON `pool_contribution_keys` (`pool_id`) WHERE earns_entry = 1;
