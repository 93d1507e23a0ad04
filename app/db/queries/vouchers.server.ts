import { and, desc, eq, gt, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { orders, userActivity, userProfiles, users, vouchers, type NewVoucher } from "~/db/schema";

const voucherView = {
  id: vouchers.id,
  code: vouchers.code,
  hostId: vouchers.hostId,
  buyerId: vouchers.buyerId,
  valueCents: vouchers.valueCents,
  currency: vouchers.currency,
  status: vouchers.status,
  expiresAt: vouchers.expiresAt,
  redeemedAt: vouchers.redeemedAt,
  createdAt: vouchers.createdAt,
  orderNumber: orders.orderNumber,
  productName: orders.productName,
  customerName: orders.customerName,
};

const buyerProfiles = alias(userProfiles, "buyer_profiles");

/**
 * A voucher by its code (case-insensitive input), with its order's product and number, the host's name and the
 * buyer's name and e-mail (from the order, else from the buyer's account), or undefined.
 */
export async function getVoucherByCode(db: Db, code: string) {
  const [row] = await db
    .select({
      ...voucherView,
      orderId: vouchers.orderId,
      hostName: userProfiles.creatorName,
      buyerName: sql<string | null>`coalesce(${orders.customerName}, ${buyerProfiles.creatorName})`,
      buyerEmail: sql<string | null>`coalesce(${orders.customerEmail}, ${users.email})`,
    })
    .from(vouchers)
    .innerJoin(orders, eq(orders.id, vouchers.orderId))
    .leftJoin(userProfiles, eq(userProfiles.userId, vouchers.hostId))
    .leftJoin(buyerProfiles, eq(buyerProfiles.userId, vouchers.buyerId))
    .leftJoin(users, eq(users.id, vouchers.buyerId))
    .where(eq(vouchers.code, code.toUpperCase()))
    .limit(1);
  return row;
}

/** The codes of a host's latest usable (active, not past expiry) vouchers, newest first: scanner shortcuts. */
export async function listHostActiveCodes(db: Db, hostId: string, now = new Date(), limit = 3): Promise<string[]> {
  const rows = await db
    .select({ code: vouchers.code })
    .from(vouchers)
    .where(and(eq(vouchers.hostId, hostId), eq(vouchers.status, "active"), gt(vouchers.expiresAt, now)))
    .orderBy(desc(vouchers.createdAt), desc(vouchers.id))
    .limit(limit);
  return rows.map((r) => r.code);
}

export type RedeemResult =
  | { kind: "redeemed"; code: string; redeemedAt: Date }
  | { kind: "missing" }
  | { kind: "already"; redeemedAt: Date | null }
  | { kind: "expired" };

/**
 * Redeems a host's voucher. One conditional UPDATE (host's own, still active, not past expiry) is the gate, so of
 * two racing redeems exactly one succeeds and the other sees it already redeemed. Another host's voucher is
 * missing and left unchanged; an active voucher past its expiry is refused and marked expired.
 */
export async function redeemVoucher(
  db: Db,
  input: { code: string; hostId: string; now?: Date },
): Promise<RedeemResult> {
  const code = input.code.toUpperCase();
  const now = input.now ?? new Date();
  const [won] = await db
    .update(vouchers)
    .set({ status: "redeemed", redeemedAt: now, redeemedBy: input.hostId })
    .where(
      and(
        eq(vouchers.code, code),
        eq(vouchers.hostId, input.hostId),
        eq(vouchers.status, "active"),
        gt(vouchers.expiresAt, now),
      ),
    )
    .returning({
      id: vouchers.id,
      orderId: vouchers.orderId,
      code: vouchers.code,
      valueCents: vouchers.valueCents,
      currency: vouchers.currency,
    });
  if (won) {
    await db.insert(userActivity).values({
      id: crypto.randomUUID(),
      userId: input.hostId,
      activityType: "voucher_redeemed",
      activityData: {
        voucherId: won.id,
        orderId: won.orderId,
        code: won.code,
        valueCents: won.valueCents,
        currency: won.currency,
      },
      createdAt: now,
    });
    return { kind: "redeemed", code: won.code, redeemedAt: now };
  }

  const [current] = await db
    .select({ status: vouchers.status, expiresAt: vouchers.expiresAt, redeemedAt: vouchers.redeemedAt })
    .from(vouchers)
    .where(and(eq(vouchers.code, code), eq(vouchers.hostId, input.hostId)))
    .limit(1);
  if (!current) return { kind: "missing" };
  if (current.status === "redeemed") return { kind: "already", redeemedAt: current.redeemedAt };
  if (current.status === "active" && current.expiresAt.getTime() > now.getTime()) {
    // Only reachable if the row changed between the two statements (it was active again): report it as taken.
    return { kind: "already", redeemedAt: current.redeemedAt };
  }
  await db
    .update(vouchers)
    .set({ status: "expired" })
    .where(
      and(
        eq(vouchers.code, code),
        eq(vouchers.hostId, input.hostId),
        eq(vouchers.status, "active"),
        lte(vouchers.expiresAt, now),
      ),
    );
  return { kind: "expired" };
}

/** Whether a voucher code is taken already. */
export async function isVoucherCodeTaken(db: Db, code: string): Promise<boolean> {
  const [taken] = await db.select({ id: vouchers.id }).from(vouchers).where(eq(vouchers.code, code)).limit(1);
  return taken !== undefined;
}

/** Issues the voucher of a paid order (once per order). */
export async function insertOrderVoucher(db: Db, voucher: NewVoucher): Promise<void> {
  await db.insert(vouchers).values(voucher).onConflictDoNothing({ target: vouchers.orderId });
}
