-- Product search (issue 31, decision 590): an external-content FTS5 index over each product's name, description and
-- its host's name. Hand-written: the view, the FTS5 table and the triggers are not in the drizzle schema
-- (app/db/schema/) because drizzle-kit cannot describe them; app/db/queries/products.server.ts names them in SQL.
--
-- product_search_source is what the index holds, one row per product: rowid = products.rowid, and the host's name
-- only while the host's profile is public (a private host is not found by name; their products still are, by their
-- own words). Visibility (active, host not suspended, category, ship-to) is filtered when searching, not here.
CREATE VIEW `product_search_source` AS
SELECT p.rowid AS product_rowid, p.host_id AS host_id, p.name AS name, p.description AS description,
  CASE WHEN up.profile_public THEN up.creator_name END AS host_name
FROM products p LEFT JOIN user_profiles up ON up.user_id = p.host_id;
--> statement-breakpoint
-- unicode61 with remove_diacritics 2: case- and accent-insensitive ("cafe" finds "Café"); a run of CJK characters
-- without spaces is one token, so a Japanese name is found by its beginning (prefix terms), not by a word inside it.
CREATE VIRTUAL TABLE `product_search` USING fts5(
  name, description, host_name,
  content = 'product_search_source', content_rowid = 'product_rowid',
  tokenize = 'unicode61 remove_diacritics 2'
);
--> statement-breakpoint
-- Kept in step by triggers, not by the app: the seed and the bench write products and profiles directly. An
-- external-content index forgets a row by the FTS5 'delete' command given the values it indexed (the old ones).
CREATE TRIGGER `product_search_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO product_search(rowid, name, description, host_name)
    SELECT product_rowid, name, description, host_name FROM product_search_source WHERE product_rowid = new.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_update` AFTER UPDATE OF name, description, host_id ON `products` BEGIN
  INSERT INTO product_search(product_search, rowid, name, description, host_name)
    VALUES ('delete', old.rowid, old.name, old.description,
      (SELECT CASE WHEN profile_public THEN creator_name END FROM user_profiles WHERE user_id = old.host_id));
  INSERT INTO product_search(rowid, name, description, host_name)
    SELECT product_rowid, name, description, host_name FROM product_search_source WHERE product_rowid = new.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO product_search(product_search, rowid, name, description, host_name)
    VALUES ('delete', old.rowid, old.name, old.description,
      (SELECT CASE WHEN profile_public THEN creator_name END FROM user_profiles WHERE user_id = old.host_id));
END;
--> statement-breakpoint
-- The host's searchable name changes (a rename, the profile made public or private): their products are indexed again.
CREATE TRIGGER `product_search_host_update` AFTER UPDATE OF creator_name, profile_public ON `user_profiles`
WHEN (CASE WHEN old.profile_public THEN old.creator_name END) IS NOT (CASE WHEN new.profile_public THEN new.creator_name END)
BEGIN
  INSERT INTO product_search(product_search, rowid, name, description, host_name)
    SELECT 'delete', p.rowid, p.name, p.description, CASE WHEN old.profile_public THEN old.creator_name END
    FROM products p WHERE p.host_id = old.user_id;
  INSERT INTO product_search(rowid, name, description, host_name)
    SELECT product_rowid, name, description, host_name FROM product_search_source WHERE host_id = new.user_id;
END;
--> statement-breakpoint
-- A profile written after its products (or removed before them): their host name goes in (or out).
CREATE TRIGGER `product_search_host_insert` AFTER INSERT ON `user_profiles`
WHEN new.profile_public AND new.creator_name IS NOT NULL
BEGIN
  INSERT INTO product_search(product_search, rowid, name, description, host_name)
    SELECT 'delete', p.rowid, p.name, p.description, NULL FROM products p WHERE p.host_id = new.user_id;
  INSERT INTO product_search(rowid, name, description, host_name)
    SELECT product_rowid, name, description, host_name FROM product_search_source WHERE host_id = new.user_id;
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_host_delete` AFTER DELETE ON `user_profiles`
WHEN old.profile_public AND old.creator_name IS NOT NULL
BEGIN
  INSERT INTO product_search(product_search, rowid, name, description, host_name)
    SELECT 'delete', p.rowid, p.name, p.description, old.creator_name FROM products p WHERE p.host_id = old.user_id;
  INSERT INTO product_search(rowid, name, description, host_name)
    SELECT product_rowid, name, description, host_name FROM product_search_source WHERE host_id = old.user_id;
END;
--> statement-breakpoint
-- The suspended accounts, for listings' "host not suspended" condition (app/db/queries/admin.server.ts): read once
-- per query as a short list instead of two index lookups per row listed (a search matching 5,000 products paid
-- them 5,000 times; decision 590). IF NOT EXISTS: the README's export recipe runs this migration again.
CREATE INDEX IF NOT EXISTS `user_profiles_suspended_idx` ON `user_profiles` (`user_id`) WHERE status = 'suspended';
--> statement-breakpoint
INSERT INTO product_search(product_search) VALUES ('rebuild');
