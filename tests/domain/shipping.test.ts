import { describe, expect, it } from "vitest";
import {
  CARRIERS,
  DEEMED_DELIVERY_DAYS,
  deliveredNotice,
  effectiveDeliveredAt,
  notReceivedNotice,
  notReceivedRefusal,
  shippedNotice,
  trackingNotice,
  SHIPPING_MESSAGES,
  trackingLink,
  trackingTimeRefusal,
} from "~/domain/shipping";

const DAY = 86_400_000;

describe("carrier tracking links", () => {
  it("builds each carrier's link from its template with the number URL-encoded, and none for Other", () => {
    expect(trackingLink("Pos Laju", "EN123456789MY")).toBe("https://tracking.pos.com.my/tracking/EN123456789MY");
    expect(trackingLink("UPS", "1Z_99-X")).toBe("https://www.ups.com/track?tracknum=1Z_99-X");
    expect(trackingLink("Royal Mail", "AB123")).toBe(
      "https://www.royalmail.com/track-your-item#/tracking-results/AB123",
    );
    expect(trackingLink("Other", "AB123")).toBeNull();
    // Not a carrier of the list (stored before it), no number, or a number with spaces or odd characters: no link.
    expect(trackingLink("Ninja Van", "AB123")).toBeNull();
    expect(trackingLink("DHL", null)).toBeNull();
    expect(trackingLink("DHL", "AB 123")).toBeNull();
    expect(trackingLink("DHL", "AB123&x=<script>")).toBeNull();
    for (const c of CARRIERS) if (c.template) expect(trackingLink(c.name, "Z-1")).toContain("Z-1");
    expect(CARRIERS.map((c) => c.name)).toEqual([
      "Pos Laju",
      "J&T",
      "DHL",
      "FedEx",
      "UPS",
      "USPS",
      "Royal Mail",
      "Other",
    ]);
  });
});

describe("delivery and 'not received'", () => {
  const shippedAt = new Date("2026-10-01T00:00:00Z");

  it("counts an order as delivered at Delivered, else Shipped + 30 days, else not at all", () => {
    const delivered = new Date("2026-10-04T00:00:00Z");
    expect(effectiveDeliveredAt({ deliveredAt: delivered, shippedAt })).toEqual(delivered);
    expect(effectiveDeliveredAt({ deliveredAt: null, shippedAt })).toEqual(
      new Date(shippedAt.getTime() + DEEMED_DELIVERY_DAYS * DAY),
    );
    expect(effectiveDeliveredAt({ deliveredAt: null, shippedAt: null })).toBeNull();
  });

  it("allows 'not received' from delivery until 7 days later", () => {
    const order = { productCategory: "physical", deliveredAt: new Date("2026-10-04T00:00:00Z"), shippedAt };
    expect(notReceivedRefusal(order, new Date("2026-10-03T00:00:00Z"))).toBe(SHIPPING_MESSAGES.notReceivedNotDelivered);
    expect(notReceivedRefusal(order, new Date("2026-10-11T00:00:00Z"))).toBeNull();
    expect(notReceivedRefusal(order, new Date("2026-10-11T00:00:01Z"))).toBe(SHIPPING_MESSAGES.notReceivedWindowClosed);
    const never = { ...order, deliveredAt: null };
    expect(notReceivedRefusal(never, new Date(shippedAt.getTime() + 29 * DAY))).toBe(
      SHIPPING_MESSAGES.notReceivedNotDelivered,
    );
    expect(notReceivedRefusal(never, new Date(shippedAt.getTime() + 36 * DAY))).toBeNull();
    expect(notReceivedRefusal(never, new Date(shippedAt.getTime() + 38 * DAY))).toBe(
      SHIPPING_MESSAGES.notReceivedWindowClosed,
    );
    expect(notReceivedRefusal({ ...order, productCategory: "digital" }, new Date("2026-10-05T00:00:00Z"))).toBe(
      SHIPPING_MESSAGES.notPhysical,
    );
  });

  it("refuses a tracking update's time in the future or before the order", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    const placed = new Date("2026-11-20T12:00:00Z");
    expect(trackingTimeRefusal(new Date("2026-11-25T12:00:00Z"), placed, now)).toBeNull();
    expect(trackingTimeRefusal(new Date("2026-11-26T13:00:00Z"), placed, now)).toBe(SHIPPING_MESSAGES.timeInFuture);
    expect(trackingTimeRefusal(new Date("2026-11-19T12:00:00Z"), placed, now)).toBe(SHIPPING_MESSAGES.timeBeforeOrder);
    expect(trackingTimeRefusal(new Date(NaN), placed, now)).toBe(SHIPPING_MESSAGES.timeInvalid);
  });
});

describe("what the buyer and the host are told", () => {
  const order = { id: "o-1", orderNumber: "ORD-AB12CD34", productName: "Batik Tote" };
  const origin = "https://tribe.test";

  it("names each fact by its key: shipped, tracking, delivered for the buyer, not-received for the host", () => {
    const shipped = shippedNotice(order, { carrier: "DHL", trackingNumber: "JD01" }, origin);
    expect(shipped).toMatchObject({
      key: "shipped:o-1",
      subject: "Your order ORD-AB12CD34 has shipped",
      url: "/order/ORD-AB12CD34",
    });
    expect(shipped.text).toContain("Tracking number: JD01 (DHL)");
    expect(shipped.text).toContain("https://tribe.test/shipping-tracking?tracking=JD01");
    expect(shipped.text).toContain("tracking-id=JD01");

    const update = trackingNotice(
      "u-9",
      order,
      { description: "Out for delivery", location: "Ipoh" },
      { carrier: "Other", trackingNumber: "X1" },
      origin,
    );
    expect(update).toMatchObject({ key: "tracking:u-9", subject: "Tracking update for order ORD-AB12CD34" });
    expect(update.text).toContain("Batik Tote (order ORD-AB12CD34): Out for delivery (Ipoh)");
    expect(update.text).not.toContain("carrier's site");

    expect(deliveredNotice(order, origin)).toMatchObject({
      key: "delivered:o-1",
      subject: "Your order ORD-AB12CD34 was delivered",
    });
    expect(notReceivedNotice(order, origin)).toMatchObject({
      key: "not-received:o-1",
      subject: "Order ORD-AB12CD34 reported not received",
      url: "/orders",
    });
  });
});
