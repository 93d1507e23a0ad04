import { describe, expect, it } from "vitest";
import {
  categoryOf,
  crossedLowStock,
  DEFAULT_NOTIFICATION_SWITCHES,
  headerText,
  isTransactional,
  MAX_DELIVERY_ATTEMPTS,
  nextAttemptAt,
  NOTIFICATION_KINDS,
  shouldEmail,
  shouldPush,
  type NotificationSwitches,
} from "~/domain/notifications";

const all = (on: boolean): NotificationSwitches => ({
  emailNotifications: on,
  pushNotifications: on,
  winnerNotifications: on,
  salesNotifications: on,
  poolNotifications: on,
});

const TRANSACTIONAL = NOTIFICATION_KINDS.filter(isTransactional);

describe("notification switches", () => {
  it("default to on, pool updates too (docs/product.md#notifications)", () => {
    expect(DEFAULT_NOTIFICATION_SWITCHES).toEqual(all(true));
  });

  it("always e-mail mail about a purchase or an account, never push it with push off", () => {
    expect(TRANSACTIONAL).toEqual(
      expect.arrayContaining(["order_confirmed", "refund", "order_update", "payout_result", "payment_pending"]),
    );
    for (const kind of TRANSACTIONAL) {
      expect(shouldEmail(kind, all(false))).toBe(true);
      expect(shouldPush(kind, all(false))).toBe(false);
      expect(shouldPush(kind, { ...all(false), pushNotifications: true })).toBe(true);
    }
  });

  it("e-mail a sale only with e-mail and sales on, a win only with e-mail and winner on, a pool update with pool on", () => {
    expect(shouldEmail("sale", all(true))).toBe(true);
    expect(shouldEmail("sale", { ...all(true), salesNotifications: false })).toBe(false);
    expect(shouldEmail("sale", { ...all(true), emailNotifications: false })).toBe(false);
    expect(shouldEmail("sale", { ...all(true), winnerNotifications: false })).toBe(true);
    expect(shouldEmail("low_stock", { ...all(true), salesNotifications: false })).toBe(false);
    expect(shouldEmail("winner", { ...all(true), winnerNotifications: false })).toBe(false);
    expect(shouldEmail("winner", { ...all(true), salesNotifications: false })).toBe(true);
    expect(shouldEmail("pool_closed", { ...all(true), poolNotifications: false })).toBe(false);
    expect(shouldEmail("pool_drawn", { ...all(true), salesNotifications: false })).toBe(true);
  });

  it("push a sale, a win or a pool update only with push and the category's switch on", () => {
    for (const kind of ["sale", "winner", "pool_closed"] as const) {
      expect(shouldPush(kind, all(true))).toBe(true);
      expect(shouldPush(kind, { ...all(true), pushNotifications: false })).toBe(false);
      // Push does not depend on the e-mail switch.
      expect(shouldPush(kind, { ...all(true), emailNotifications: false })).toBe(true);
    }
    expect(shouldPush("sale", { ...all(true), salesNotifications: false })).toBe(false);
    expect(shouldPush("winner", { ...all(true), winnerNotifications: false })).toBe(false);
    expect(shouldPush("pool_closed", { ...all(true), poolNotifications: false })).toBe(false);
  });

  it("puts every kind in a category", () => {
    for (const kind of NOTIFICATION_KINDS) expect(categoryOf(kind)).toBeTruthy();
  });
});

describe("retries", () => {
  it("back off longer after each failure, then give up", () => {
    const now = new Date("2026-11-26T00:00:00Z");
    const waits: number[] = [];
    for (let attempts = 1; attempts < MAX_DELIVERY_ATTEMPTS; attempts++) {
      waits.push(nextAttemptAt(attempts, now)!.getTime() - now.getTime());
    }
    expect(waits[0]).toBe(60_000);
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThan(waits[i - 1]!);
    expect(nextAttemptAt(MAX_DELIVERY_ATTEMPTS, now)).toBeNull();
  });
});

describe("low stock", () => {
  it("is crossed once: from above 10 units to 10 or fewer", () => {
    expect(crossedLowStock(10, 1)).toBe(true);
    expect(crossedLowStock(4, 8)).toBe(true);
    expect(crossedLowStock(9, 1)).toBe(false);
    expect(crossedLowStock(11, 1)).toBe(false);
  });
});

describe("header text", () => {
  it("keeps no line break from user content and caps the length", () => {
    expect(headerText("Order for Eve\r\nBcc: victim@example.com")).toBe("Order for Eve Bcc: victim@example.com");
    expect(headerText("a\u2028b\tc")).toBe("a b c");
    expect(headerText("x".repeat(300)).length).toBe(200);
  });
});
