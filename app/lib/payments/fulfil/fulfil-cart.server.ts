import type { Db } from "~/db/client.server";
import { removePurchasedCartLines } from "~/db/queries/cart.server";
import { claimCheckoutStatement } from "~/db/queries/checkout.server";
import { bookShopSale } from "~/db/queries/earnings.server";
import { listCheckoutOrders } from "~/db/queries/group-buys.server";
import {
  cancelUndeliverableOrder,
  insertPaidCartOrders,
  setOrderPoolEntry,
  type CartOrderLine,
} from "~/db/queries/orders.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { getProductVariants } from "~/db/queries/products.server";
import { insertOrderVoucher } from "~/db/queries/vouchers.server";
import type { CheckoutSession } from "~/db/schema";
import { groupByHost } from "~/domain/cart";
import { productCategory } from "~/domain/catalog";
import { voucherCode } from "~/domain/orders";
import { UNFULFILLABLE_REASONS } from "~/domain/payments";
import { decodeCheckoutLines } from "../shared/checkout-lines.server";
import { FulfilmentDataError, paymentIntentOf, type CheckoutSessionObject } from "../shared/events.server";
import type { FulfilOutcome } from "./fulfil.server";
import { cartContributionKey } from "../shared/payment-records";
import { contribute, orderPoolShareCents } from "./pool-ledger.server";
import { paidLineOrder, suspendedHosts } from "./order-lines.server";
import { checkPaymentEntry } from "./entry-check.server";
import { refundUnfulfillable } from "../refunds/refund-request.server";

/**
 * A paid cart checkout, the group-buy way: one batch creates an order per line (each with its host), takes the
 * stock and counts the sales, once. Then, each step idempotent and resumed by any later delivery: vouchers, each
 * order's host share in the earnings ledger, and per host one pool contribution (the shop-sales pool share of each
 * of that host's orders, rounded per order) with one entry for the buyer. The paid lines leave the buyer's cart.
 */
export async function fulfilCart(
  env: Env,
  db: Db,
  row: CheckoutSession,
  session: CheckoutSessionObject,
): Promise<FulfilOutcome> {
  const lines = decodeCheckoutLines(row.metadata);
  if (!lines) throw new FulfilmentDataError(`checkout ${row.id} lacks its cart lines`);
  const rates = row.rates ?? (await getRevenueRules(db));
  const poolPercent = rates.shop_sales.prizePoolPercent;
  const now = new Date();
  const paymentIntentId = paymentIntentOf(session);

  const orderLines: CartOrderLine[] = [];
  for (const [index, [productId, sizeName, colourName, quantity, unitCents]] of lines.entries()) {
    const line = await paidLineOrder(
      db,
      row,
      session,
      { index, productId, sizeName, colourName, quantity, unitCents },
      now,
    );
    orderLines.push({
      ...line,
      order: { ...line.order, purchaseMode: "buy-now", metadata: { pool_percent: poolPercent, cart: true } },
    });
  }

  const result = await insertPaidCartOrders(db, {
    claim: claimCheckoutStatement(db, row.id, { paymentIntentId, now, rates }),
    lines: orderLines,
  });
  if (result.inserted) {
    const suspended = await suspendedHosts(
      db,
      orderLines.map((l) => l.order.hostId),
    );
    for (const [i, { orderId, taken }] of result.stockTaken.entries()) {
      // A shop suspended since the checkout cannot deliver: cancelled (its stock was taken and is not put back, as
      // for any cancelled order) and refunded below with the reason the buyer reads.
      if (suspended.has(orderLines[i]!.order.hostId)) {
        await cancelUndeliverableOrder(db, orderId, UNFULFILLABLE_REASONS.hostSuspended);
        continue;
      }
      if (taken) continue;
      // Paid for, but the stock ran out between checkout and payment: cancelled with the reason the buyer reads
      // (its sale taken back), then refunded below; no voucher, earnings or entry.
      console.warn("fulfilment: cart order paid without enough stock", { orderId, checkout: row.id });
      await cancelUndeliverableOrder(db, orderId, UNFULFILLABLE_REASONS.soldOut);
    }
  }

  const listed = await listCheckoutOrders(db, session.id);
  for (const o of listed) {
    if (o.status === "cancelled" && o.refundReason)
      await refundUnfulfillable(env, row.id, o.id, o.amountCents, o.refundReason);
  }
  const orders = listed.filter((o) => !(o.status === "cancelled" && o.refundReason));
  const first = orders[0] ?? listed[0];
  if (!first) throw new Error(`orders of checkout ${row.id} are missing after fulfilment`);
  const paidAt = row.completedAt ?? now;
  const percentOf = (o: (typeof orders)[number]) => {
    const p = o.metadata?.pool_percent;
    return typeof p === "number" ? p : poolPercent;
  };
  const rule = (o: (typeof orders)[number]) => ({ ...rates.shop_sales, prizePoolPercent: percentOf(o) });

  for (const o of orders) {
    if (productCategory(o.productCategory) === "voucher") {
      const found = await getProductVariants(db, o.productId);
      await insertOrderVoucher(db, {
        code: voucherCode(o.id),
        orderId: o.id,
        productId: o.productId,
        hostId: o.hostId,
        buyerId: row.userId,
        valueCents: found?.product.voucherValueCents ?? o.unitPriceCents,
        currency: found?.product.currency ?? o.currency,
        status: "active",
        expiresAt: found?.product.voucherExpiresAt ?? new Date(now.getTime() + 365 * 24 * 60 * 60 * 1000),
      });
    }
    // The host's share into the earnings ledger, once per order (a resumed delivery books nothing new).
    await bookShopSale(db, { ...o, paidAt }, rule(o));
  }

  let outcome = { poolId: first.poolId, entryNumber: first.entryNumber };
  for (const group of groupByHost(orders)) {
    const lead = group.items[0]!;
    let { poolId, entryNumber } = lead;
    if (poolId === null) {
      // Each host's entry checked on its own (decision 520): the spend of that host's orders.
      const entry = await checkPaymentEntry(env, row, session, {
        hostId: group.hostId,
        amountCents: group.items.reduce((sum, o) => sum + o.amountCents, 0),
        route: "entry_purchase",
      });
      const contribution = await contribute(env, db, {
        hostId: group.hostId,
        sourceType: "product_purchase",
        sourceKey: cartContributionKey(session.id, group.hostId),
        amountCents: group.items.reduce((sum, o) => sum + orderPoolShareCents("cart", o, rates), 0),
        currency: lead.currency,
        userId: row.userId,
        earnsEntry: entry.earnsEntry,
      });
      poolId = contribution.poolId;
      entryNumber = contribution.entryNumber;
      for (const o of group.items)
        await setOrderPoolEntry(db, o.id, { poolId, entryNumber: o.id === lead.id ? entryNumber : null });
    }
    if (lead.id === first.id) outcome = { poolId, entryNumber };
  }

  if (result.inserted && row.userId) {
    await removePurchasedCartLines(
      db,
      row.userId,
      lines.map(([productId, sizeName, colorName, quantity]) => ({ productId, sizeName, colorName, quantity })),
    );
  }

  return {
    kind: result.inserted ? "fulfilled" : "already_fulfilled",
    checkoutId: row.id,
    purpose: row.purpose,
    orderId: first.id,
    orderNumber: first.orderNumber,
    poolId: outcome.poolId,
    entryNumber: outcome.entryNumber,
  };
}
