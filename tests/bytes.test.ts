import { describe, expect, it } from "vitest";
import { concatBytes } from "~/lib/bytes";

describe("concatBytes", () => {
  it("puts the parts one after another in a new array, empty parts included", () => {
    const a = new Uint8Array([1, 2]);
    const joined = concatBytes([a, new Uint8Array(0), new Uint8Array([3]), a]);
    expect([...joined]).toEqual([1, 2, 3, 1, 2]);
    joined[0] = 9;
    expect(a[0]).toBe(1);
    expect(concatBytes([])).toHaveLength(0);
  });
});
