/**
 * The seeded demo accounts (scripts/seed.ts). They exist only in local and test databases; the shared password is
 * for local use and never for a deployed database.
 */
export const DEMO_HOST_EMAIL = "host@demo.tribe";
export const DEMO_FAN_EMAIL = "fan@demo.tribe";
/** @public The seed makes this account; no code of the app reads it. */
export const DEMO_ADMIN_EMAIL = "admin@demo.tribe";
/** @public The seed and the browser tests sign in with it; no code of the app reads it. */
export const DEMO_PASSWORD = "demo-password-2026";
