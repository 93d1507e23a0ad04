import { describe, expect, it } from "vitest";
import {
  allowedOrderStatuses,
  canSetOrderStatus,
  DEFAULT_ORDER_STATUS,
  orderNumber,
  orderStatusText,
  physicalOrderAction,
  requiresTracking,
  trackingStatusTone,
  validateOrderStatusUpdate,
  voucherCode,
} from "~/domain/orders";

const orderId = "3f2a9c1e-7b4d-4e1a-9f3b-1234abcd5678";

describe("orderNumber", () => {
  it("uses the last 8 characters of the session id, uppercased", () => {
    expect(orderNumber("cs_test_a1b2c3d4e5f6g7h8", orderId)).toBe("ORD-E5F6G7H8");
    expect(orderNumber("cs_live_ABCDEFGH", orderId)).toBe("ORD-ABCDEFGH");
  });

  it("uses the order id when the session id is absent", () => {
    expect(orderNumber(null, orderId)).toBe("ORD-ABCD5678");
    expect(orderNumber(undefined, orderId)).toBe("ORD-ABCD5678");
    expect(orderNumber("", orderId)).toBe("ORD-ABCD5678");
  });

  it("keeps ids shorter than 8 characters whole", () => {
    expect(orderNumber("abc", orderId)).toBe("ORD-ABC");
    expect(orderNumber(null, "12345678")).toBe("ORD-12345678");
  });
});

describe("voucherCode", () => {
  it("is VCH- and the last 8 characters of the order id, uppercased", () => {
    expect(voucherCode(orderId)).toBe("VCH-ABCD5678");
    expect(voucherCode("xyz")).toBe("VCH-XYZ");
  });
});

describe("host status transitions", () => {
  it("offers four statuses for physical orders and two otherwise", () => {
    expect(allowedOrderStatuses("physical")).toEqual([
      "processing",
      "pending_shipping",
      "shipped",
      "delivered",
      "completed",
    ]);
    expect(allowedOrderStatuses("digital")).toEqual(["processing", "completed"]);
    expect(allowedOrderStatuses("voucher")).toEqual(["processing", "completed"]);
    expect(allowedOrderStatuses("mystery")).toEqual([
      "processing",
      "pending_shipping",
      "shipped",
      "delivered",
      "completed",
    ]);
    expect(allowedOrderStatuses(undefined)).toEqual([
      "processing",
      "pending_shipping",
      "shipped",
      "delivered",
      "completed",
    ]);
    expect(DEFAULT_ORDER_STATUS).toBe("processing");
  });

  it.each([
    ["physical", "processing", true],
    ["physical", "pending_shipping", true],
    ["physical", "shipped", true],
    ["physical", "completed", true],
    ["physical", "delivered", true],
    ["digital", "delivered", false],
    ["physical", "paid", false],
    ["physical", "cancelled", false],
    ["digital", "processing", true],
    ["digital", "completed", true],
    ["digital", "shipped", false],
    ["digital", "pending_shipping", false],
    ["voucher", "completed", true],
    ["voucher", "shipped", false],
    ["physical", "", false],
    ["physical", null, false],
  ])("%s -> %j allowed: %s", (category, next, allowed) => {
    expect(canSetOrderStatus(category, next)).toBe(allowed);
  });

  it("requires tracking for shipped only", () => {
    expect(requiresTracking("shipped")).toBe(true);
    expect(requiresTracking("processing")).toBe(false);
    expect(requiresTracking("completed")).toBe(false);
    expect(requiresTracking("pending_shipping")).toBe(false);
  });

  it("validates an update", () => {
    expect(validateOrderStatusUpdate("physical", "shipped", "  TRK-12345 ")).toEqual({
      ok: true,
      status: "shipped",
      trackingNumber: "TRK-12345",
    });
    expect(validateOrderStatusUpdate("physical", "shipped", "   ")).toEqual({
      ok: false,
      message: "Please enter a tracking number for shipped orders",
    });
    expect(validateOrderStatusUpdate("physical", "shipped", undefined)).toEqual({
      ok: false,
      message: "Please enter a tracking number for shipped orders",
    });
    expect(validateOrderStatusUpdate("physical", "completed", "")).toEqual({
      ok: true,
      status: "completed",
      trackingNumber: null,
    });
    expect(validateOrderStatusUpdate("digital", "shipped", "TRK-1")).toEqual({
      ok: false,
      message: "This status cannot be set for this order",
    });
  });
});

describe("order status helpers", () => {
  it("colours tracking statuses", () => {
    expect(trackingStatusTone("delivered")).toBe("green");
    expect(trackingStatusTone("shipped")).toBe("blue");
    expect(trackingStatusTone("processing")).toBe("yellow");
    expect(trackingStatusTone("cancelled")).toBe("red");
    expect(trackingStatusTone("pending_shipping")).toBe("grey");
    expect(trackingStatusTone(undefined)).toBe("grey");
  });

  it("capitalises statuses for display", () => {
    expect(orderStatusText("shipped")).toBe("Shipped");
    expect(orderStatusText("pending_shipping")).toBe("Pending shipping");
    expect(orderStatusText("")).toBe("");
  });
});

describe("buyer actions", () => {
  it("tracks physical orders that are shipped or processing", () => {
    expect(physicalOrderAction("shipped")).toBe("Track Order");
    expect(physicalOrderAction("processing")).toBe("Track Order");
    expect(physicalOrderAction("completed")).toBe("View Order");
    expect(physicalOrderAction("delivered")).toBe("View Order");
    expect(physicalOrderAction("pending_shipping")).toBe("View Order");
  });
});
