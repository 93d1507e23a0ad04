// Voucher rules shared by the voucher pages and the scanner: effective and card status, scanner messages, camera
// errors.

/** Codes as stored: letters, digits, '-' and '_', at most 64 characters. */
export const VOUCHER_CODE_PATTERN = /^[A-Z0-9_-]{1,64}$/;

/** A scanned or typed code as looked up: trimmed and uppercased. */
export function normalizeVoucherCode(input: unknown): string {
  return typeof input === "string" ? input.trim().toUpperCase() : "";
}

/** Every status a voucher is stored with; 'void' is a voucher whose order was refunded in full before use. */
export const VOUCHER_STATUSES = ["active", "redeemed", "expired", "void"] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];

/** An active voucher whose expiry has passed shows, and counts, as expired. */
export function effectiveVoucherStatus(
  status: VoucherStatus,
  expiresAt: Date | number | string,
  now: Date | number = Date.now(),
): VoucherStatus {
  if (status !== "active") return status;
  return new Date(expiresAt).getTime() <= new Date(now).getTime() ? "expired" : "active";
}

/**
 * A voucher's one status as every card shows it (the buyer's order card, the voucher page, the host's list), never
 * beside its order's payment status: Valid while usable, Used once redeemed, Expired past its expiry, Refunded when
 * its order was refunded in full before use (docs/product.md#vouchers).
 */
export const VOUCHER_CARD_LABELS = {
  valid: "Valid",
  used: "Used",
  expired: "Expired",
  refunded: "Refunded",
} as const;
export type VoucherCardStatus = keyof typeof VOUCHER_CARD_LABELS;

/** The card status of a voucher stored with `status` that expires at `expiresAt`. */
export function voucherCardStatus(
  status: VoucherStatus,
  expiresAt: Date | number | string,
  now: Date | number = Date.now(),
): VoucherCardStatus {
  const effective = effectiveVoucherStatus(status, expiresAt, now);
  if (effective === "active") return "valid";
  if (effective === "redeemed") return "used";
  if (effective === "void") return "refunded";
  return "expired";
}

export const SCANNER_MESSAGES = {
  emptyCode: "Please enter a voucher code",
  notFound: "Voucher not found",
  notFoundTitle: "Voucher Not Found",
  valid: "Valid Voucher",
  alreadyRedeemed: "Already Redeemed",
  onceOnly: "Each code can only be redeemed once",
  expired: "Voucher Expired",
  expiredDetail: "This voucher has expired and can no longer be redeemed.",
  redeemed: "Voucher redeemed successfully!",
} as const;

/** Scanner timings (docs/product.md#vouchers). */
export const SCANNER_RESET_MS = 1000;
export const CAMERA_FALLBACK_MS = 3000;
export const COPY_CONFIRMATION_MS = 2000;

export const CAMERA_ERROR_TITLE = "Camera Access Issue";

export const CAMERA_ERRORS = {
  denied: "Camera access was denied. Please allow camera access in your browser settings or use manual entry.",
  missing: "No camera found on this device. Please use manual entry.",
  unsupported: "Camera is not supported on this device. Please use manual entry.",
  other: "Unable to access camera. Please use manual entry.",
} as const;

/**
 * The message for a failed camera start, from the DOMException name of getUserMedia's rejection.
 * `undefined` error (no navigator.mediaDevices at all) counts as unsupported.
 */
export function cameraErrorMessage(error: unknown): string {
  if (error === undefined) return CAMERA_ERRORS.unsupported;
  const name =
    typeof error === "object" && error !== null && "name" in error ? String((error as { name: unknown }).name) : "";
  switch (name) {
    case "NotAllowedError":
    case "PermissionDeniedError":
      return CAMERA_ERRORS.denied;
    case "NotFoundError":
    case "DevicesNotFoundError":
      return CAMERA_ERRORS.missing;
    case "NotSupportedError":
      return CAMERA_ERRORS.unsupported;
    default:
      return CAMERA_ERRORS.other;
  }
}
