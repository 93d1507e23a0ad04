import { describe, expect, it } from "vitest";
import {
  CAMERA_ERRORS,
  cameraErrorMessage,
  effectiveVoucherStatus,
  normalizeVoucherCode,
  VOUCHER_CARD_LABELS,
  voucherCardStatus,
} from "~/domain/vouchers";

describe("effectiveVoucherStatus", () => {
  const now = new Date("2026-06-01T00:00:00Z");
  it("shows an active voucher past its expiry as expired", () => {
    expect(effectiveVoucherStatus("active", new Date("2026-05-31T23:59:59Z"), now)).toBe("expired");
    expect(effectiveVoucherStatus("active", now, now)).toBe("expired");
    expect(effectiveVoucherStatus("active", new Date("2026-06-01T00:00:01Z"), now)).toBe("active");
  });
  it("keeps redeemed and expired as they are", () => {
    expect(effectiveVoucherStatus("redeemed", new Date("2020-01-01"), now)).toBe("redeemed");
    expect(effectiveVoucherStatus("expired", new Date("2030-01-01"), now)).toBe("expired");
  });
});

describe("voucherCardStatus", () => {
  const now = new Date("2026-06-01T00:00:00Z");
  const later = new Date("2026-07-01T00:00:00Z");
  it.each([
    ["active", later, "valid", "Valid"],
    ["active", now, "expired", "Expired"],
    ["redeemed", later, "used", "Used"],
    ["redeemed", new Date("2026-01-01"), "used", "Used"],
    ["expired", later, "expired", "Expired"],
    ["void", later, "refunded", "Refunded"],
  ] as const)("a voucher stored %s (expiring %s) shows %s", (status, expiresAt, shown, label) => {
    expect(voucherCardStatus(status, expiresAt, now)).toBe(shown);
    expect(VOUCHER_CARD_LABELS[voucherCardStatus(status, expiresAt, now)]).toBe(label);
  });
});

describe("normalizeVoucherCode", () => {
  it("trims and uppercases, and treats anything else as empty", () => {
    expect(normalizeVoucherCode("  vch-ab12cd34 ")).toBe("VCH-AB12CD34");
    expect(normalizeVoucherCode(null)).toBe("");
    expect(normalizeVoucherCode(undefined)).toBe("");
  });
});

describe("cameraErrorMessage", () => {
  it("maps getUserMedia failures to the scanner's messages", () => {
    expect(cameraErrorMessage(new DOMException("x", "NotAllowedError"))).toBe(CAMERA_ERRORS.denied);
    expect(cameraErrorMessage(new DOMException("x", "NotFoundError"))).toBe(CAMERA_ERRORS.missing);
    expect(cameraErrorMessage(new DOMException("x", "NotSupportedError"))).toBe(CAMERA_ERRORS.unsupported);
    expect(cameraErrorMessage(undefined)).toBe(CAMERA_ERRORS.unsupported);
    expect(cameraErrorMessage(new DOMException("x", "NotReadableError"))).toBe(CAMERA_ERRORS.other);
    expect(cameraErrorMessage(new Error("boom"))).toBe(CAMERA_ERRORS.other);
    expect(cameraErrorMessage(null)).toBe(CAMERA_ERRORS.other);
  });
  it("uses the scanner's words", () => {
    expect(CAMERA_ERRORS).toEqual({
      denied: "Camera access was denied. Please allow camera access in your browser settings or use manual entry.",
      missing: "No camera found on this device. Please use manual entry.",
      unsupported: "Camera is not supported on this device. Please use manual entry.",
      other: "Unable to access camera. Please use manual entry.",
    });
  });
});
