// The per-person cap on a pool's entries (issue 29 item 5, docs/product.md#per-person-cap, decision 560): no account
// holds more than max(floor(percent% of the pool's valid entries at the moment an entry is earned), floor) valid
// entries. Both numbers are a platform setting the platform owner edits on /admin. Pure: the pool's Durable Object
// applies it at fulfilment, checkout asks it whether an entry is expected.

import { z } from "zod";

/** The platform_settings key of the cap (`{ percent, floor }`). */
export const POOL_CAP_SETTING_KEY = "pool_entry_cap";

/** Defaults: 10% of the pool's entries, and never fewer than 20. */
export const DEFAULT_POOL_CAP_PERCENT = 10;
export const DEFAULT_POOL_CAP_FLOOR = 20;
/** How long a pool object reuses the setting it read (a change on /admin reaches every pool within this). */
export const POOL_CAP_SETTING_TTL_MS = 10_000;
/** The bounds the platform owner may set. */
export const POOL_CAP_PERCENT_RANGE = { min: 1, max: 100 } as const;
export const POOL_CAP_FLOOR_RANGE = { min: 1, max: 10_000 } as const;

export interface PoolEntryCap {
  /** Whole percent of the pool's valid entries one account may hold. */
  percent: number;
  /** The entries one account may always hold, however small the pool. */
  floor: number;
}

export const DEFAULT_POOL_ENTRY_CAP: PoolEntryCap = {
  percent: DEFAULT_POOL_CAP_PERCENT,
  floor: DEFAULT_POOL_CAP_FLOOR,
};

export const POOL_CAP_MESSAGES = {
  percent: `The share of a pool must be a whole percent from ${POOL_CAP_PERCENT_RANGE.min} to ${POOL_CAP_PERCENT_RANGE.max}.`,
  floor: `The minimum must be a whole number of entries from ${POOL_CAP_FLOOR_RANGE.min} to ${POOL_CAP_FLOOR_RANGE.max.toLocaleString("en-US")}.`,
  saved: "Per-person entry cap saved.",
  unchanged: "The per-person entry cap already has these values.",
} as const;

/** The stored setting (also what the admin form sends, as text). */
export const poolEntryCapSchema = z.object({
  percent: z.coerce
    .number({ error: POOL_CAP_MESSAGES.percent })
    .int(POOL_CAP_MESSAGES.percent)
    .min(POOL_CAP_PERCENT_RANGE.min, POOL_CAP_MESSAGES.percent)
    .max(POOL_CAP_PERCENT_RANGE.max, POOL_CAP_MESSAGES.percent),
  floor: z.coerce
    .number({ error: POOL_CAP_MESSAGES.floor })
    .int(POOL_CAP_MESSAGES.floor)
    .min(POOL_CAP_FLOOR_RANGE.min, POOL_CAP_MESSAGES.floor)
    .max(POOL_CAP_FLOOR_RANGE.max, POOL_CAP_MESSAGES.floor),
});

/** The cap in force: the stored setting (an object or its JSON text) when valid, else the defaults. */
export function resolvePoolEntryCap(stored: unknown): PoolEntryCap {
  let value = stored;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return DEFAULT_POOL_ENTRY_CAP;
    }
  }
  if (value === null || typeof value !== "object") return DEFAULT_POOL_ENTRY_CAP;
  const parsed = poolEntryCapSchema.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_POOL_ENTRY_CAP;
}

/**
 * The most valid entries one account may hold in a pool that has `poolEntries` valid entries now: 10% of the pool
 * rounded down (floor), but never fewer than the floor. 10% of 250 entries is 25; of 209, 20 (20.9 rounded down).
 */
export function entryCapLimit(poolEntries: number, cap: PoolEntryCap): number {
  const share = Math.floor((Math.max(0, poolEntries) * cap.percent) / 100);
  return Math.max(share, cap.floor);
}

/** Whether an account holding `held` valid entries may earn one more in a pool with `poolEntries` valid entries. */
export function mayEarnEntry(held: number, poolEntries: number, cap: PoolEntryCap): boolean {
  return held < entryCapLimit(poolEntries, cap);
}
