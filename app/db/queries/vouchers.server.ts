import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { orders, userProfiles, vouchers } from "~/db/schema";

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

/** A voucher by its code (case-insensitive input), with its order's product and number, or undefined. */
export async function getVoucherByCode(db: Db, code: string) {
  const [row] = await db
    .select({ ...voucherView, hostName: userProfiles.creatorName })
    .from(vouchers)
    .innerJoin(orders, eq(orders.id, vouchers.orderId))
    .leftJoin(userProfiles, eq(userProfiles.userId, vouchers.hostId))
    .where(eq(vouchers.code, code.toUpperCase()))
    .limit(1);
  return row;
}

/** A host's vouchers, newest first. */
export function listHostVouchers(db: Db, hostId: string, limit = 20) {
  return db
    .select(voucherView)
    .from(vouchers)
    .innerJoin(orders, eq(orders.id, vouchers.orderId))
    .where(eq(vouchers.hostId, hostId))
    .orderBy(desc(vouchers.createdAt), desc(vouchers.id))
    .limit(limit);
}
