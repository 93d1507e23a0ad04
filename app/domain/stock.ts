// Stock labels from available units.

import { productCategory } from "./catalog";

/** 10 units or fewer (and more than 0) is Low Stock. */
export const LOW_STOCK_THRESHOLD = 10;

/**
 * The stock label for nothing left (docs/product.md#shop-and-products); a product card says it instead of its buy
 * button when nothing can be bought.
 */
export const OUT_OF_STOCK = "Out of Stock";

export type StockLabel = "Digital" | typeof OUT_OF_STOCK | "Low Stock" | "In Stock";

/**
 * 'Digital' for digital products; otherwise from the total available units: 0 (or less, or not a number)
 * 'Out of Stock', 1 to 10 'Low Stock', above 10 'In Stock'. Unknown categories count as physical.
 */
export function stockLabel(category: unknown, totalUnits: number): StockLabel {
  if (productCategory(category) === "digital") return "Digital";
  if (!Number.isFinite(totalUnits) || totalUnits <= 0) return OUT_OF_STOCK;
  if (totalUnits <= LOW_STOCK_THRESHOLD) return "Low Stock";
  return "In Stock";
}

/** Sum of `availableUnits` over a product's sizes (or colours); missing, negative or non-numeric units count as 0. */
export function totalAvailableUnits(variants: readonly { availableUnits?: unknown }[] | null | undefined): number {
  let total = 0;
  for (const variant of variants ?? []) {
    const units = typeof variant.availableUnits === "string" ? Number(variant.availableUnits) : variant.availableUnits;
    if (typeof units === "number" && Number.isFinite(units) && units > 0) total += Math.floor(units);
  }
  return total;
}
