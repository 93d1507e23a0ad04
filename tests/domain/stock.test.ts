import { describe, expect, it } from "vitest";
import { LOW_STOCK_THRESHOLD, stockLabel, totalAvailableUnits } from "~/domain/stock";

describe("stockLabel", () => {
  it.each([
    ["physical", 0, "Out of Stock"],
    ["physical", 1, "Low Stock"],
    ["physical", 9, "Low Stock"],
    ["physical", 10, "Low Stock"],
    ["physical", 11, "In Stock"],
    ["physical", 1000, "In Stock"],
    ["voucher", 0, "Out of Stock"],
    ["voucher", 10, "Low Stock"],
    ["voucher", 11, "In Stock"],
    ["digital", 0, "Digital"],
    ["digital", 5, "Digital"],
    ["digital", 500, "Digital"],
    ["unknown", 5, "Low Stock"],
    [undefined, 0, "Out of Stock"],
    ["physical", -3, "Out of Stock"],
    ["physical", Number.NaN, "Out of Stock"],
  ])("%s with %d units is %j", (category, units, label) => {
    expect(stockLabel(category, units)).toBe(label);
  });

  it("uses a threshold of 10", () => {
    expect(LOW_STOCK_THRESHOLD).toBe(10);
  });
});

describe("totalAvailableUnits", () => {
  it("sums units, ignoring missing, negative and invalid ones", () => {
    expect(totalAvailableUnits([{ availableUnits: 4 }, { availableUnits: 7 }])).toBe(11);
    expect(totalAvailableUnits([{ availableUnits: "5" }, { availableUnits: "x" }, {}])).toBe(5);
    expect(totalAvailableUnits([{ availableUnits: -2 }, { availableUnits: 3.7 }])).toBe(3);
    expect(totalAvailableUnits([])).toBe(0);
    expect(totalAvailableUnits(null)).toBe(0);
    expect(totalAvailableUnits(undefined)).toBe(0);
  });

  it("feeds stockLabel", () => {
    expect(stockLabel("physical", totalAvailableUnits([{ availableUnits: 5 }, { availableUnits: 5 }]))).toBe(
      "Low Stock",
    );
    expect(stockLabel("physical", totalAvailableUnits([{ availableUnits: 5 }, { availableUnits: 6 }]))).toBe(
      "In Stock",
    );
  });
});
