/**
 * The whole data model for D1: one drizzle sqlite-core module per aggregate, all re-exported here (import
 * `~/db/schema`). The value lists the columns use come from app/domain; columns.ts holds the column helpers. SQL
 * migrations are generated from this index (`drizzle-kit generate`) into migrations/ (decision 450).
 *
 * Conventions:
 * - Ids are text UUIDs (`crypto.randomUUID()`); a person is one `users.id`, and their profile shares it
 *   (`user_profiles.user_id` is the primary key). Creator/host columns are `host_id`, buyer/fan columns `user_id`.
 * - Times are integer milliseconds (`timestamp_ms`, a JS Date in drizzle); analytics dates are text 'YYYY-MM-DD'.
 *   Creation and update times also have an SQL default, so raw SQL inserts get them too.
 * - Money is integer cents in `*_cents` columns beside a `currency` ISO code (default 'USD'). No floats.
 * - Uniqueness the product relies on (one like, one membership, one free guess, one open pool, one active group
 *   buy, one use of a payment source, ...) is enforced here by primary keys and unique indexes.
 */

export * from "./accounts";
export * from "./profiles";
export * from "./platform";
export * from "./pools";
export * from "./free-entries";
export * from "./prizes";
export * from "./products";
export * from "./games";
export * from "./group-buys";
export * from "./orders";
export * from "./chat";
export * from "./payouts";
export * from "./earnings";
export * from "./payments";
export * from "./limits";
export * from "./eligibility";
export * from "./notifications";
