import { describe, expect, it } from "vitest";
import { productMatchQuery, productSort, productSortsFor } from "~/domain/search";

// Decision 590: what a typed search becomes in the product search index, and the list's sort.

describe("productMatchQuery", () => {
  it("makes each word a quoted prefix term, all required", () => {
    expect(productMatchQuery("kopi mug")).toBe('"kopi"* "mug"*');
    expect(productMatchQuery("  kopi \t  mug\n")).toBe('"kopi"* "mug"*');
  });

  it("keeps operators as text and doubles embedded quotes", () => {
    expect(productMatchQuery('say "hi"')).toBe('"say"* """hi"""*');
    expect(productMatchQuery("a AND b OR NOT c")).toBe('"a"* "AND"* "b"* "OR"* "NOT"* "c"*');
    expect(productMatchQuery("NEAR(kopi, 2) name:mug -x ^y")).toBe('"NEAR(kopi,"* "2)"* "name:mug"* "-x"* "^y"*');
  });

  it("leaves out words with no letter or digit, and is null when none is left", () => {
    expect(productMatchQuery('" * - : ( 😀')).toBeNull();
    expect(productMatchQuery("")).toBeNull();
    expect(productMatchQuery("mug 😀 *")).toBe('"mug"*');
    expect(productMatchQuery("抹茶 セット")).toBe('"抹茶"* "セット"*');
  });

  it("searches at most 100 characters", () => {
    const terms = productMatchQuery("ab ".repeat(80))!.split(" ");
    expect(terms).toHaveLength(34);
  });
});

describe("productSort", () => {
  it("defaults to relevance while searching and newest otherwise", () => {
    expect(productSort(null, true)).toBe("relevance");
    expect(productSort(undefined, false)).toBe("newest");
    expect(productSort("relevance", false)).toBe("newest");
    expect(productSort("nonsense", true)).toBe("relevance");
    expect(productSort("price_desc", false)).toBe("price_desc");
    expect(productSort("popular", true)).toBe("popular");
  });

  it("offers relevance only while searching, the default first", () => {
    expect(productSortsFor(true)).toEqual(["relevance", "newest", "price_asc", "price_desc", "popular"]);
    expect(productSortsFor(false)).toEqual(["newest", "price_asc", "price_desc", "popular"]);
  });
});
