import { describe, expect, it } from "vitest";
import {
  ALWAYS_SENT_KINDS,
  DEFAULT_NOTIFICATION_SWITCHES,
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
});

describe("notification switches", () => {
  it("default to on (docs/product.md#notifications)", () => {
    expect(DEFAULT_NOTIFICATION_SWITCHES).toEqual(all(true));
  });

  it("always e-mail what an account needs, never push it with push off", () => {
    for (const kind of ALWAYS_SENT_KINDS) {
      expect(shouldEmail(kind, all(false))).toBe(true);
      expect(shouldPush(kind, all(false))).toBe(false);
      expect(shouldPush(kind, { ...all(false), pushNotifications: true })).toBe(true);
    }
  });

  it("e-mail a sale only with e-mail and sales on, a win only with e-mail and winner on", () => {
    expect(shouldEmail("sale", all(true))).toBe(true);
    expect(shouldEmail("sale", { ...all(true), salesNotifications: false })).toBe(false);
    expect(shouldEmail("sale", { ...all(true), emailNotifications: false })).toBe(false);
    expect(shouldEmail("sale", { ...all(true), winnerNotifications: false })).toBe(true);
    expect(shouldEmail("winner", { ...all(true), winnerNotifications: false })).toBe(false);
    expect(shouldEmail("winner", { ...all(true), salesNotifications: false })).toBe(true);
  });

  it("push a sale or a win only with push and the kind's switch on", () => {
    for (const kind of ["sale", "winner"] as const) {
      expect(shouldPush(kind, all(true))).toBe(true);
      expect(shouldPush(kind, { ...all(true), pushNotifications: false })).toBe(false);
      // Push does not depend on the e-mail switch.
      expect(shouldPush(kind, { ...all(true), emailNotifications: false })).toBe(true);
    }
    expect(shouldPush("sale", { ...all(true), salesNotifications: false })).toBe(false);
    expect(shouldPush("winner", { ...all(true), winnerNotifications: false })).toBe(false);
  });

  it("covers every kind", () => {
    expect(new Set([...ALWAYS_SENT_KINDS, "sale", "winner"])).toEqual(new Set(NOTIFICATION_KINDS));
  });
});
