import { describe, expect, it } from "vitest";
import {
  DEFAULT_POOL_ENTRY_CAP,
  entryCapLimit,
  mayEarnEntry,
  poolEntryCapSchema,
  resolvePoolEntryCap,
} from "~/domain/pool-cap";

describe("the per-person cap", () => {
  it("is the floor in small pools and 10% rounded down in large ones", () => {
    expect(entryCapLimit(0, DEFAULT_POOL_ENTRY_CAP)).toBe(20);
    expect(entryCapLimit(209, DEFAULT_POOL_ENTRY_CAP)).toBe(20);
    expect(entryCapLimit(219, DEFAULT_POOL_ENTRY_CAP)).toBe(21);
    expect(entryCapLimit(288, DEFAULT_POOL_ENTRY_CAP)).toBe(28);
    expect(entryCapLimit(1000, DEFAULT_POOL_ENTRY_CAP)).toBe(100);
    expect(entryCapLimit(1009, { percent: 5, floor: 3 })).toBe(50);
  });

  it("lets an account earn one more entry only below the cap", () => {
    expect(mayEarnEntry(19, 0, DEFAULT_POOL_ENTRY_CAP)).toBe(true);
    expect(mayEarnEntry(20, 199, DEFAULT_POOL_ENTRY_CAP)).toBe(false);
    expect(mayEarnEntry(20, 210, DEFAULT_POOL_ENTRY_CAP)).toBe(true);
  });

  it("uses the stored setting only when it is valid", () => {
    expect(resolvePoolEntryCap({ percent: 5, floor: 30 })).toEqual({ percent: 5, floor: 30 });
    expect(resolvePoolEntryCap('{"percent":7,"floor":9}')).toEqual({ percent: 7, floor: 9 });
    for (const bad of [null, "nope", { percent: 0, floor: 20 }, { percent: 10.5, floor: 20 }, { percent: 10 }, []]) {
      expect(resolvePoolEntryCap(bad)).toEqual(DEFAULT_POOL_ENTRY_CAP);
    }
    expect(poolEntryCapSchema.safeParse({ percent: "101", floor: "20" }).success).toBe(false);
    expect(poolEntryCapSchema.safeParse({ percent: "10", floor: "10001" }).success).toBe(false);
  });
});
