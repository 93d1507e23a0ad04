// The host's order and voucher list filters (shared by /orders, /voucher-management and the CSV export, so the
// export is exactly what the screen shows) and the inline status-update form.

import { z } from "zod";
import type { ORDER_STATUSES } from "~/domain/orders";
import type { VOUCHER_STATUSES } from "~/domain/vouchers";
import { searchQuerySchema } from "~/domain/search";
import { CARRIER_NAMES, SHIPPING_MESSAGES, TRACKING_NUMBER } from "~/domain/shipping";

export type OrdersTab = "vouchers" | "orders";

// The stored statuses (type-only import: the schema module stays out of the browser bundle).
export const ORDER_STATUS_FILTERS = [
  "pending",
  "paid",
  "processing",
  "pending_shipping",
  "shipped",
  "delivered",
  "completed",
  "cancelled",
  "refunded",
] as const satisfies readonly (typeof ORDER_STATUSES)[number][];
export const VOUCHER_STATUS_FILTERS = [
  "active",
  "redeemed",
  "expired",
] as const satisfies readonly (typeof VOUCHER_STATUSES)[number][];

const q = searchQuerySchema;

export const OrderFilterSchema = z.object({
  q,
  status: z.enum(ORDER_STATUS_FILTERS).optional().catch(undefined),
});

export const VoucherFilterSchema = z.object({
  q,
  status: z.enum(VOUCHER_STATUS_FILTERS).optional().catch(undefined),
});

/** The tab from `?tab=`, else the one the path opens on (/voucher-management: vouchers; anything else: orders). */
export function ordersTab(url: URL): OrdersTab {
  const requested = url.searchParams.get("tab");
  if (requested === "vouchers" || requested === "orders") return requested;
  return url.pathname.startsWith("/voucher-management") ? "vouchers" : "orders";
}

export function parseFilters(url: URL) {
  const raw = Object.fromEntries(url.searchParams);
  const tab = ordersTab(url);
  const filter = tab === "vouchers" ? VoucherFilterSchema.parse(raw) : OrderFilterSchema.parse(raw);
  return { tab, q: filter.q || undefined, status: filter.status };
}

/** The query string for a tab and its filters (empty values left out). */
export function filterSearch(f: { tab: OrdersTab; q?: string; status?: string }, extra: Record<string, string> = {}) {
  const search = new URLSearchParams({ tab: f.tab });
  if (f.q) search.set("q", f.q);
  if (f.status) search.set("status", f.status);
  for (const [k, v] of Object.entries(extra)) search.set(k, v);
  return search.toString();
}

/** Tracking numbers (domain/shipping.ts TRACKING_NUMBER): the tracking page looks them up exactly. */
export const TRACKING_FORMAT_MESSAGE = "Tracking numbers may only contain letters, digits, '-' and '_' (up to 64)";

export const StatusUpdateSchema = z.object({
  intent: z.literal("update-status"),
  orderId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  status: z.string().max(40),
  trackingNumber: z
    .string()
    .trim()
    .max(64, TRACKING_FORMAT_MESSAGE)
    .refine((v) => v === "" || TRACKING_NUMBER.test(v), TRACKING_FORMAT_MESSAGE)
    .optional()
    .default(""),
  /** One of the carriers of the list (domain/shipping.ts), required with Shipped; empty keeps the order's. */
  carrier: z
    .union([z.literal(""), z.enum(CARRIER_NAMES, { error: SHIPPING_MESSAGES.carrierRequired })], {
      error: SHIPPING_MESSAGES.carrierRequired,
    })
    .optional()
    .default(""),
});

/** The host's result of an inline status change, for the row (fetcher) or the page (no JavaScript). */
export type StatusUpdateResult = {
  ok: false;
  message: string;
  orderId: string | null;
  /** Which form failed: the status editor (default), a refund, or the answer to a return request. */
  intent?: "update-status" | "refund" | "approve-return" | "decline-return" | "add-tracking";
  returnId?: string;
  fieldErrors?: Record<string, string>;
};
