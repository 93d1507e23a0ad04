import { describe, expect, it } from "vitest";
import {
  addCartLine,
  CART_MESSAGES,
  cartItemCount,
  changeCartLine,
  decodeCartLines,
  encodeCartLines,
  groupByHost,
  MAX_CART_LINES,
  maxLineQuantity,
  mergeCartLines,
  needsVariantChoice,
  notShippingMessage,
  onlyOption,
  type CartLine,
} from "~/domain/cart";
import { MAX_ORDER_QUANTITY } from "~/domain/orders";

const line = (productId: string, quantity = 1, sizeName = "M", colorName = ""): CartLine => ({
  productId,
  sizeName,
  colorName,
  quantity,
});

describe("cart lines", () => {
  it("the same product, size and colour is one line whose quantities add up, capped at the line's maximum", () => {
    const one = addCartLine([], line("p", 2));
    if (!one.ok) throw new Error(one.message);
    const two = addCartLine(one.lines, line("p", 3), 4);
    if (!two.ok) throw new Error(two.message);
    expect(two.lines).toEqual([line("p", 4)]);
    const other = addCartLine(two.lines, line("p", 1, "L"));
    expect(other.ok && other.lines).toEqual([line("p", 4), line("p", 1, "L")]);
  });

  it(`holds at most ${MAX_CART_LINES} distinct lines`, () => {
    const full = Array.from({ length: MAX_CART_LINES }, (_, i) => line(`p${i}`));
    expect(addCartLine(full, line("extra"))).toEqual({ ok: false, message: CART_MESSAGES.full });
    // More of a line already there is still fine.
    expect(addCartLine(full, line("p0", 2)).ok).toBe(true);
  });

  it("the most units of a line: one for single-unit items, else the order maximum and the stock", () => {
    expect(maxLineQuantity({ singleUnit: true, availableUnits: 50 })).toBe(1);
    expect(maxLineQuantity({ singleUnit: false, availableUnits: 500 })).toBe(MAX_ORDER_QUANTITY);
    expect(maxLineQuantity({ singleUnit: false, availableUnits: 3 })).toBe(3);
    expect(maxLineQuantity({ singleUnit: false, availableUnits: 0 })).toBe(0);
  });
});

describe("merging a visitor's cart at sign-in", () => {
  it("adds up the same line (capped at the order maximum), appends new lines in order and drops lines past the limit", () => {
    const account = [line("a", 2), line("b", 98)];
    const visitor = [line("b", 5), line("c", 1), line("a", 1)];
    expect(mergeCartLines(account, visitor)).toEqual([line("a", 3), line("b", MAX_ORDER_QUANTITY), line("c", 1)]);
    const many = Array.from({ length: MAX_CART_LINES + 5 }, (_, i) => line(`v${i}`));
    expect(mergeCartLines([line("mine")], many)).toHaveLength(MAX_CART_LINES);
    expect(mergeCartLines([line("mine")], many)[0]).toEqual(line("mine"));
  });

  it("an empty visitor cart leaves the account's cart as it was", () => {
    expect(mergeCartLines([line("a", 2)], [])).toEqual([line("a", 2)]);
  });
});

describe("the cart cookie's payload", () => {
  it("round-trips lines and drops malformed ones without losing the rest", () => {
    const lines = [line("a", 2, "S", "Red"), line("b", 1, "", "")];
    expect(decodeCartLines(encodeCartLines(lines))).toEqual(lines);
    const payload = JSON.stringify([
      ["a", "S", "Red", 2],
      ["b", "M", "", 0],
      ["c", 5, "", 1],
      "junk",
      ["d", "M", "", 1.5],
      ["e", "M", "", 500],
      ["a", "S", "Red", 1],
    ]);
    expect(decodeCartLines(payload)).toEqual([line("a", 3, "S", "Red"), line("e", MAX_ORDER_QUANTITY)]);
    expect(decodeCartLines("not json")).toEqual([]);
    expect(decodeCartLines('{"a":1}')).toEqual([]);
  });
});

describe("grouping and counting", () => {
  it("groups lines by host in the order hosts first appear, and counts every unit", () => {
    const items = [
      { hostId: "h1", id: 1, quantity: 2 },
      { hostId: "h2", id: 2, quantity: 1 },
      { hostId: "h1", id: 3, quantity: 4 },
    ];
    expect(groupByHost(items)).toEqual([
      { hostId: "h1", items: [items[0], items[2]] },
      { hostId: "h2", items: [items[1]] },
    ]);
    expect(cartItemCount(items)).toBe(7);
  });

  it("a card's one-click add takes a product's only size and colour; more than one of either must be chosen", () => {
    expect(onlyOption([{ name: "One Size" }])).toBe("One Size");
    expect(onlyOption([{ name: "S" }, { name: "M" }])).toBeNull();
    expect(onlyOption([])).toBeNull();
    expect(needsVariantChoice({ sizes: 1, colours: 1 })).toBe(false);
    expect(needsVariantChoice({ sizes: 2, colours: 0 })).toBe(true);
    expect(needsVariantChoice({ sizes: 1, colours: 2 })).toBe(true);
  });

  it("changes a line in place, merges it into the line of the same size and colour, and refuses too many", () => {
    const cart = [line("a", 2, "S", "Red"), line("b", 1), line("a", 3, "M", "Red")];
    const moved = changeCartLine(cart, cart[0]!, line("a", 4, "L", "Red"), 10);
    expect(moved).toEqual({ ok: true, merged: false, lines: [line("a", 4, "L", "Red"), cart[1], cart[2]] });
    const merged = changeCartLine(cart, cart[0]!, line("a", 2, "M", "Red"), 10);
    expect(merged).toEqual({ ok: true, merged: true, lines: [cart[1], line("a", 5, "M", "Red")] });
    expect(changeCartLine(cart, cart[0]!, line("a", 8, "M", "Red"), 10)).toEqual({
      ok: false,
      reason: "tooMany",
      inCart: 3,
    });
    expect(changeCartLine(cart, line("z"), line("z", 2), 10)).toMatchObject({ ok: false, reason: "notInCart" });
    expect(cart[0]).toEqual(line("a", 2, "S", "Red"));
  });

  it("says where a product does not ship by the country's name", () => {
    expect(notShippingMessage("United States")).toBe("Does not ship to United States");
  });
});
