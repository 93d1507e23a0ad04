import type { Db } from "~/db/client.server";
import { isAccountSuspended } from "~/db/queries/admin.server";
import { bookShopSale } from "~/db/queries/earnings.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import {
  getOrderForCheckout,
  insertPaidOrder,
  isOrderNumberTaken,
  setOrderPoolEntry,
} from "~/db/queries/orders.server";
import { getProductVariants } from "~/db/queries/products.server";
import { insertOrderVoucher, isVoucherCodeTaken } from "~/db/queries/vouchers.server";
import type { CheckoutSession } from "~/db/schema";
import { productCategory } from "~/domain/catalog";
import { orderNumber, voucherCode } from "~/domain/orders";
import { UNFULFILLABLE_REASONS } from "~/domain/payments";
import { poolContributionCents } from "~/domain/revenue";
import { FulfilmentDataError, paymentIntentOf, shippingOf, type CheckoutSessionObject } from "../shared/events.server";
import type { FulfilOutcome } from "./fulfil.server";
import { decodeProductLine } from "../shared/checkout-lines.server";
import { contributionKey } from "../shared/payment-records";
import { contribute } from "./pool-ledger.server";
import { checkPaymentEntry } from "./entry-check.server";
import { refundUnfulfillable } from "../refunds/refund-request.server";

/**
 * A paid product checkout: one atomic batch creates the order, takes the stock and counts the sale (once); then the
 * voucher (vouchers) and the pool contribution (the platform's pool share, an entry for the buyer) follow, each
 * idempotent and resumed by any later delivery.
 */
export async function fulfilProduct(
  env: Env,
  db: Db,
  row: CheckoutSession,
  session: CheckoutSessionObject,
): Promise<FulfilOutcome> {
  const line = decodeProductLine(row.metadata);
  if (!line || !row.hostId) {
    throw new FulfilmentDataError(`checkout ${row.id} lacks the product, size, quantity, price or host`);
  }
  const [productId, sizeName, colourName, quantity, unitPriceCents] = line;
  const found = await getProductVariants(db, productId);
  // Paid for an item that no longer exists: refunded in full (once), nothing issued (fulfil.server.ts).
  if (!found)
    throw new FulfilmentDataError(
      `product ${productId} of checkout ${row.id} no longer exists`,
      UNFULFILLABLE_REASONS.gone,
    );
  // A shop suspended before its payment arrived cannot deliver: refunded in full, nothing issued.
  if (row.paymentStatus === "unpaid" && (await isAccountSuspended(db, row.hostId))) {
    throw new FulfilmentDataError(
      `host ${row.hostId} of checkout ${row.id} is suspended`,
      UNFULFILLABLE_REASONS.hostSuspended,
    );
  }
  const { product } = found;
  const size = found.sizes.find((s) => s.name === sizeName);
  const colour = colourName ? found.colours.find((c) => c.name === colourName) : undefined;

  const category = productCategory(product.category);
  const orderId = await freshOrderId(db, category === "voucher");
  const number = await freeOrderNumber(db, session.id, orderId);
  const now = new Date();
  const rates = await getRevenueRules(db);
  // The rates in force when it was paid (recorded on the checkout by the claim).
  const rules = row.rates ?? rates;
  // Every entry check asked again now the payment is in (decision 520): past a limit it still delivers, with no entry.
  const entry = await checkPaymentEntry(env, row, session, {
    hostId: row.hostId,
    amountCents: row.amountCents,
    route: "entry_purchase",
  });
  const contribution = {
    hostId: row.hostId,
    sourceType: "product_purchase" as const,
    sourceKey: contributionKey(session.id),
    amountCents: poolContributionCents("shop_sales", row.amountCents, rules),
    currency: row.currency,
    userId: row.userId,
    earnsEntry: entry.earnsEntry,
  };

  const result = await insertPaidOrder(db, {
    checkoutId: row.id,
    paymentIntentId: paymentIntentOf(session),
    rates,
    sizeId: size?.id ?? null,
    colourId: colourName ? (colour?.id ?? null) : null,
    shortfallReason: UNFULFILLABLE_REASONS.soldOut,
    contribution,
    now,
    order: {
      id: orderId,
      orderNumber: number,
      userId: row.userId,
      hostId: row.hostId,
      productId: product.id,
      checkoutSessionId: session.id,
      paymentIntentId: paymentIntentOf(session),
      status: category === "physical" ? "processing" : "paid",
      purchaseMode: "buy-now",
      amountCents: row.amountCents,
      unitPriceCents,
      currency: row.currency,
      quantity,
      sizeName,
      colorName: colourName || null,
      customerEmail: session.customer_details?.email ?? session.customer_email ?? row.customerEmail,
      customerName: session.customer_details?.name ?? null,
      shippingAddress: category === "physical" ? shippingOf(session) : null,
      productName: product.name,
      productImage: found.imageUrl,
      productCategory: category,
      // Digital items and vouchers are delivered at payment: their return window starts now.
      deliveredAt: category === "physical" ? null : now,
      createdAt: now,
      updatedAt: now,
    },
  });
  if (!result.inserted && result.claimed) {
    console.warn("fulfilment: checkout claimed but its order already existed", { checkout: row.id });
  }

  const order = await getOrderForCheckout(db, [session.id]);
  if (!order) throw new Error(`order for checkout ${row.id} is missing after fulfilment`);
  if (order.status === "cancelled" && order.refundReason) {
    // Paid, but the stock ran out (or the variant vanished) between checkout and payment: the batch cancelled the
    // order instead of taking stock; it is refunded in full (resumed by any later delivery), with no voucher,
    // download, earnings or entry.
    await refundUnfulfillable(env, row.id, order.id, order.amountCents, order.refundReason);
    return {
      kind: result.inserted ? "fulfilled" : "already_fulfilled",
      checkoutId: row.id,
      purpose: row.purpose,
      orderId: order.id,
      orderNumber: order.orderNumber,
      poolId: null,
      entryNumber: null,
    };
  }

  if (category === "voucher") {
    await insertOrderVoucher(db, {
      code: voucherCode(order.id),
      orderId: order.id,
      productId: product.id,
      hostId: row.hostId,
      buyerId: row.userId,
      valueCents: product.voucherValueCents ?? unitPriceCents,
      currency: product.currency,
      status: "active",
      expiresAt: product.voucherExpiresAt ?? new Date(now.getTime() + 365 * 24 * 60 * 60 * 1000),
    });
  }

  // The host's share into the earnings ledger, once per order (a resumed delivery books nothing new).
  await bookShopSale(
    db,
    {
      ...order,
      hostId: row.hostId,
      productName: product.name,
      productCategory: category,
      paidAt: row.completedAt ?? now,
    },
    rules.shop_sales,
  );

  let { poolId, entryNumber } = order;
  if (poolId === null) {
    // The reservation made in the order's batch carries these same terms (the first request wins).
    const contributed = await contribute(env, db, contribution);
    poolId = contributed.poolId;
    entryNumber = contributed.entryNumber;
    await setOrderPoolEntry(db, order.id, { poolId, entryNumber });
  }

  return {
    kind: result.inserted ? "fulfilled" : "already_fulfilled",
    checkoutId: row.id,
    purpose: row.purpose,
    orderId: order.id,
    orderNumber: order.orderNumber,
    poolId,
    entryNumber,
  };
}

/** A new order id; for a voucher, one whose voucher code ('VCH-' + last 8) is not taken yet. */
async function freshOrderId(db: Db, needsVoucherCode: boolean): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const id = crypto.randomUUID();
    if (!needsVoucherCode || attempt >= 5) return id;
    if (!(await isVoucherCodeTaken(db, voucherCode(id)))) return id;
  }
}

/** The order number from the session id, unless another checkout's order already has it (then from the order id). */
async function freeOrderNumber(db: Db, sessionId: string, orderId: string): Promise<string> {
  const preferred = orderNumber(sessionId, orderId);
  return (await isOrderNumberTaken(db, preferred, sessionId)) ? orderNumber(null, orderId) : preferred;
}
