// What a checkout's buyer and hosts are told, from the one place each fact becomes true (docs/product.md#notifications):
// an order confirmed and a new order (every purchase mode: buy now, cart, group buy) when fulfilment has run, low
// stock when it took a size or colour to 10 units or fewer, a bank transfer pending, its arrival (told in the
// confirmation) and its failure. Every
// notice is keyed by its fact, so the webhook, the payment page and the cron racing (or a step run three times) tell
// each person once.
import type { Db } from "~/db/client.server";
import {
  getGroupBuySalesAfterCheckout,
  listCheckoutOrders,
  listGroupBuyBuyerIds,
  listGroupBuyTiers,
} from "~/db/queries/group-buys.server";
import { getProductVariants } from "~/db/queries/products.server";
import type { CheckoutSession } from "~/db/schema";
import { groupByHost } from "~/domain/cart";
import { currentTier } from "~/domain/group-buy";
import { productCategory } from "~/domain/catalog";
import { formatCents } from "~/domain/money";
import { crossedLowStock, LOW_STOCK_UNITS } from "~/domain/notifications";
import { voucherCode } from "~/domain/orders";
import { siteOrigin } from "~/lib/config.server";
import { createNotifications, notify } from "~/lib/notify.server";

type CheckoutOrder = Awaited<ReturnType<typeof listCheckoutOrders>>[number];

const MODE_WORDS: Record<string, string> = { "buy-now": "order", "group-buy": "group-buy order" };

/** One line of the buyer's confirmation: the item, and its voucher code or where to download it. */
function orderLine(origin: string, o: CheckoutOrder): string {
  const variant = [o.sizeName, o.colorName].filter(Boolean).join(", ");
  const line = `${o.quantity} x ${o.productName}${variant ? ` (${variant})` : ""}: ${formatCents(o.amountCents, o.currency)}`;
  const category = productCategory(o.productCategory);
  if (category === "voucher")
    return `${line}\n  Voucher code: ${voucherCode(o.id)} (${origin}/voucher/${voucherCode(o.id)})`;
  if (category === "digital") return `${line}\n  Download it from your order: ${origin}/order/${o.orderNumber}`;
  return line;
}

/**
 * A fulfilled checkout's notices: the buyer's confirmation (one per checkout, listing every order), each host's
 * "New order" (group buys included), and low stock. Orders cancelled for want of stock are left out (their refund
 * has its own notice).
 */
export async function tellOrderPlaced(
  env: Env,
  db: Db,
  row: CheckoutSession,
  sessionId: string,
  opts: { fulfilledNow: boolean; transferArrived: boolean },
): Promise<void> {
  const orders = (await listCheckoutOrders(db, sessionId)).filter((o) => o.status !== "cancelled");
  const first = orders[0];
  if (!first) return;
  const origin = siteOrigin(env);
  const mode = (first.metadata as { cart?: boolean } | null)?.cart
    ? "cart"
    : row.purpose === "group_buy"
      ? "group-buy"
      : "buy-now";
  const total = orders.reduce((sum, o) => sum + o.amountCents, 0);
  const what = orders.length === 1 ? first.productName : `${orders.length} items`;
  if (row.userId) {
    await notify(env, row.userId, "order_confirmed", {
      key: `order-confirmed:${row.id}`,
      subject: `${opts.transferArrived ? "Payment received, order" : "Order"} confirmed: ${what}`,
      text:
        (opts.transferArrived ? "Your bank transfer arrived. " : "") +
        `Thank you! Your ${MODE_WORDS[mode] ?? "order"} ${first.orderNumber} is confirmed (${formatCents(total, first.currency)} paid).\n\n` +
        orders.map((o) => orderLine(origin, o)).join("\n") +
        (mode === "group-buy"
          ? "\n\nIf the group buy reaches a higher tier, you are refunded the difference when it ends."
          : "") +
        `\n\nSee your order: ${origin}/order/${first.orderNumber}`,
      url: `/order/${first.orderNumber}`,
    });
  }
  for (const group of groupByHost(orders)) {
    const hostTotal = group.items.reduce((sum, o) => sum + o.amountCents, 0);
    const units = group.items.reduce((sum, o) => sum + o.quantity, 0);
    const lead = group.items[0]!;
    await notify(env, group.hostId, "sale", {
      key: `new-order:${row.id}`,
      subject: `New ${mode === "group-buy" ? "group-buy order" : "order"} ${lead.orderNumber}: ${group.items.map((o) => o.productName).join(", ")}`,
      text:
        `You sold ${units} item${units === 1 ? "" : "s"} (${formatCents(hostTotal, lead.currency)})${mode === "group-buy" ? " in your group buy" : ""}: ` +
        group.items.map((o) => `${o.quantity} x ${o.productName} (${o.orderNumber})`).join(", ") +
        `. ${group.items.length === 1 ? "It is" : "They are"} waiting in Customer Orders.`,
      url: "/orders",
    });
  }
  if (opts.fulfilledNow) await tellLowStock(env, db, orders);
  const groupBuyId = row.purpose === "group_buy" ? row.metadata.group_buy_id : undefined;
  if (groupBuyId) await tellTierReached(env, db, groupBuyId, sessionId);
}

/**
 * A join that took a group buy's sales to a new tier: everyone holding an order of it is told, once per tier (their
 * refund of the difference follows when it ends). Created in bulk; the cron delivers the mail and pushes in chunks.
 */
async function tellTierReached(env: Env, db: Db, groupBuyId: string, sessionId: string): Promise<void> {
  const [sales, tiers] = await Promise.all([
    getGroupBuySalesAfterCheckout(db, groupBuyId, sessionId),
    listGroupBuyTiers(db, groupBuyId),
  ]);
  if (!sales) return;
  const now = currentTier(tiers, sales.currentSalesCents);
  const before = currentTier(tiers, sales.currentSalesCents - sales.checkoutSalesCents);
  if (!now || now.salesThresholdCents === before?.salesThresholdCents) return;
  const buyers = await listGroupBuyBuyerIds(db, groupBuyId);
  await createNotifications(
    env,
    "group_buy",
    buyers.map((userId) => ({
      userId,
      key: `group-buy-tier:${groupBuyId}:${now.salesThresholdCents}`,
      subject: `Group buy "${sales.name}" reached ${now.discountPercent}% off`,
      text:
        `The group buy "${sales.name}" reached the ${now.discountPercent}% tier. When it ends you are refunded the ` +
        `difference to the final tier's price.\n\n${siteOrigin(env)}/group-buy-detail/${groupBuyId}`,
      url: `/group-buy-detail/${groupBuyId}`,
    })),
  );
}

/**
 * Each size or colour these orders took from above 10 units to 10 or fewer: its host is told once per crossing. The
 * crossing is named by the order that made it (`low-stock:<size or colour id>:<order id>`): selling down past the
 * line again after a restock is a new crossing.
 */
async function tellLowStock(env: Env, db: Db, orders: readonly CheckoutOrder[]): Promise<void> {
  for (const o of orders) {
    if (productCategory(o.productCategory) !== "physical" && productCategory(o.productCategory) !== "voucher") continue;
    const found = await getProductVariants(db, o.productId);
    if (!found) continue;
    const variants = [
      found.sizes.find((s) => s.name === o.sizeName),
      o.colorName ? found.colours.find((c) => c.name === o.colorName) : undefined,
    ];
    for (const variant of variants) {
      if (!variant || !crossedLowStock(variant.availableUnits, o.quantity)) continue;
      await notify(env, o.hostId, "low_stock", {
        key: `low-stock:${variant.id}:${o.id}`,
        subject: `Low stock: ${found.product.name} (${variant.name})`,
        text: `${found.product.name} (${variant.name}) has ${variant.availableUnits} unit${variant.availableUnits === 1 ? "" : "s"} left (${LOW_STOCK_UNITS} or fewer). Add stock from your shop: ${siteOrigin(env)}/edit-product/${found.product.id}`,
        url: `/edit-product/${found.product.id}`,
      });
    }
  }
}

/** A bank transfer's checkout completed unpaid: the buyer is told the order waits for the payment. */
export async function tellPaymentPending(env: Env, row: CheckoutSession): Promise<void> {
  if (!row.userId) return;
  await notify(env, row.userId, "payment_pending", {
    key: `payment-pending:${row.id}`,
    subject: "Awaiting your bank transfer",
    text:
      `We are waiting for your bank transfer of ${formatCents(row.amountCents, row.currency)}. ` +
      `Your order is confirmed as soon as it arrives; you will hear from us then, or if it fails.\n\n${siteOrigin(env)}/my-orders`,
    url: "/my-orders",
  });
}

/** A pending bank transfer failed: nothing was bought and nothing is charged. */
export async function tellPaymentFailed(env: Env, row: CheckoutSession): Promise<void> {
  if (!row.userId) return;
  await notify(env, row.userId, "payment_result", {
    key: `payment-failed:${row.id}`,
    subject: "Your bank transfer did not go through",
    text:
      `Your bank transfer of ${formatCents(row.amountCents, row.currency)} did not go through, so nothing was bought ` +
      `and nothing is charged. You can order again at any time.\n\n${siteOrigin(env)}/my-orders`,
    url: "/my-orders",
  });
}
