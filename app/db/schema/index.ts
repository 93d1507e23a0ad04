/**
 * The whole data model: one drizzle sqlite-core module for D1. SQL migrations are generated from it
 * (`drizzle-kit generate`) into migrations/.
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
export * from "./prizes";
export * from "./products";
export * from "./games";
export * from "./group-buys";
export * from "./orders";
export * from "./chat";
export * from "./payouts";
export * from "./earnings";
export * from "./payments";
