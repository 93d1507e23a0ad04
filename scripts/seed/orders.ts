// Orders and payments: an order paid through the local provider as a real checkout is (its checkout row, payment
// intent and order number from the app's own functions), its shipping history, its voucher, and its pool entry.
import type * as schema from "../../app/db/schema";
import { convertCents } from "../../app/domain/currency";
import { GROUP_BUY_CURRENCY } from "../../app/domain/group-buy";
import { orderNumber, voucherCode, type OrderStatus as StoredOrderStatus } from "../../app/domain/orders";
import { DEFAULT_REVENUE_RULES, poolContributionCents } from "../../app/domain/revenue";
import {
  contributionKey,
  localPaymentIntentId,
  paidLocalCheckoutRow,
} from "../../app/lib/payments/shared/payment-records";
import { ADDRESSES, CARRIERS, type Size, type Color } from "./content";
import type { Host, Person, SeededProduct, Seed } from "./context";
import { chance, DAY, digits, int, NOW, pick, token } from "./random";

type OrderStatus = "paid" | "processing" | "shipped" | "completed";
type OrderOptions = {
  host: Host;
  buyer: Person;
  product: SeededProduct;
  poolId: string;
  at: Date;
  status?: OrderStatus;
  groupBuyId?: string;
};
/** What was bought: the size, colour and quantity chosen for an order. */
type Choice = { size: Size; colour: Color | null; quantity: number };

let addressNumber = 10;
function addressFor(person: Person): schema.Address {
  const a = ADDRESSES[person.country] ?? ADDRESSES.MY!;
  addressNumber += int(3, 17);
  return {
    name: person.name,
    street: `${addressNumber} ${a.street}`,
    city: a.city,
    state: a.state,
    postal_code: a.postal,
    country: person.country,
  };
}

/** The status an order of this age has reached, unless one is given. */
function statusFor(product: SeededProduct, at: Date): OrderStatus {
  const age = (NOW - at.getTime()) / DAY;
  const category = product.spec.category;
  if (category === "digital") return "completed";
  if (category === "voucher") return age > 10 ? "completed" : "paid";
  if (age > 12) return "completed";
  if (age > 5) return pick(["shipped", "completed"] as const);
  if (age > 2) return pick(["processing", "shipped"] as const);
  return pick(["paid", "processing"] as const);
}

/** What createProductCheckout and createGroupBuyCheckout put in a checkout's metadata. */
function checkoutMetadata(seed: Seed, opts: OrderOptions, choice: Choice): Record<string, string> {
  const { host, buyer, product, groupBuyId } = opts;
  const { spec } = product;
  const { size, colour, quantity } = choice;
  const physical = spec.category === "physical";
  if (groupBuyId) {
    // A group buy's items as encodeCheckoutLines stores them: [product, size, colour, quantity, unit cents].
    return {
      purpose: "group_buy",
      group_buy_id: groupBuyId,
      items: JSON.stringify([[product.id, size[0], colour?.[0] ?? "", quantity, size[1]]]),
      shared: "0",
      user_id: buyer.id,
      host_id: host.id,
      description: `Group buy: ${seed.rows.groupBuys.find((g) => g.id === groupBuyId)?.name ?? spec.name}`,
      ...(physical ? { needs_shipping: "1" } : {}),
    };
  }
  const description = `${spec.name} (${[size[0], colour?.[0]].filter(Boolean).join(", ")})${quantity > 1 ? ` x ${quantity}` : ""}`;
  return {
    purpose: "product",
    product_id: product.id,
    category: spec.category,
    size: size[0],
    ...(colour ? { color: colour[0] } : {}),
    quantity: String(quantity),
    unit_price_cents: String(size[1]),
    user_id: buyer.id,
    host_id: host.id,
    description,
    ...(physical ? { needs_shipping: "1" } : {}),
  };
}

/** The tracking history of a shipped order, up to now. */
function addShippingUpdates(seed: Seed, order: schema.NewOrder, opts: OrderOptions, carrier: string): void {
  const { host, buyer, at } = opts;
  const buyerCity = (ADDRESSES[buyer.country] ?? ADDRESSES.MY!).city;
  // A null status is a tracking update the host wrote on /orders (description, location, time).
  const steps: [number, StoredOrderStatus | null, string, string | null][] = [
    [0.05, "paid", "Order confirmed and payment received", null],
    [1, "processing", "Packed and labelled at the studio", host.spec.city],
    [1.6, "shipped", `Handed to ${carrier}`, host.spec.city],
    [3.2, null, "In transit: arrived at the sorting hub", buyerCity],
    [4.8, null, "Arrived at the local delivery office", buyerCity],
  ];
  if (order.status === "completed") steps.push([5.5, "delivered", "Delivered and signed for", buyerCity]);
  for (const [day, stepStatus, description, location] of steps) {
    const when = new Date(at.getTime() + day * DAY);
    if (when.getTime() < NOW) {
      seed.rows.shippingUpdates.push({
        orderId: order.id!,
        status: stepStatus,
        description,
        location,
        createdAt: when,
      });
      order.updatedAt = when;
      // Shipped and Delivered stamp the order as the host's status changes do (decision 580).
      if (stepStatus === "shipped") order.shippedAt ??= when;
      if (stepStatus === "delivered") order.deliveredAt ??= when;
    }
  }
}

function addVoucher(seed: Seed, order: schema.NewOrder, opts: OrderOptions, size: Size): void {
  const { host, buyer, product, at } = opts;
  const redeemed = order.status === "completed" && chance(0.5);
  seed.rows.vouchers.push({
    code: voucherCode(order.id!),
    orderId: order.id!,
    productId: product.id,
    hostId: host.id,
    buyerId: buyer.id,
    valueCents: product.spec.voucherValueCents ?? size[1],
    currency: "USD",
    status: redeemed ? "redeemed" : "active",
    expiresAt: seed.productRow.get(product.id)!.voucherExpiresAt!,
    redeemedAt: redeemed ? new Date(at.getTime() + 6 * DAY) : null,
    redeemedBy: redeemed ? host.id : null,
    createdAt: at,
  });
}

/** A paid order with its checkout, activity, shipping history, voucher and pool entry. */
export function addOrder(seed: Seed, opts: OrderOptions): schema.NewOrder {
  const { host, buyer, product, poolId, at, groupBuyId } = opts;
  const { rows } = seed;
  const spec = product.spec;
  const inStock = spec.sizes.filter((s) => s[2] > 0);
  const size = pick(inStock.length ? inStock : spec.sizes);
  const colour = spec.colors?.length ? pick(spec.colors) : null;
  const quantity = spec.category === "physical" && chance(0.3) ? int(2, 3) : 1;
  const amountCents = size[1] * quantity;
  const orderId = crypto.randomUUID();
  const sessionId = `cs_local_${token(24)}`;
  const reference = `chk_${token(24)}`;
  const status = opts.status ?? statusFor(product, at);
  const physical = spec.category === "physical";
  const tracked = physical && (status === "shipped" || status === "completed");
  const carrier = CARRIERS[host.country] ?? "DHL";
  const purchaseMode = groupBuyId ? "group-buy" : "buy-now";
  const order: schema.NewOrder = {
    id: orderId,
    orderNumber: orderNumber(sessionId, orderId),
    userId: buyer.id,
    hostId: host.id,
    productId: product.id,
    groupBuyId: groupBuyId ?? null,
    salesRmCents: groupBuyId ? convertCents(amountCents, "USD", GROUP_BUY_CURRENCY) : null,
    checkoutSessionId: sessionId,
    paymentIntentId: localPaymentIntentId(sessionId),
    status,
    purchaseMode,
    amountCents,
    unitPriceCents: size[1],
    currency: "USD",
    quantity,
    sizeName: size[0],
    colorName: colour?.[0] ?? null,
    customerEmail: buyer.email,
    customerName: buyer.name,
    shippingAddress: physical ? addressFor(buyer) : null,
    billingAddress: null,
    productName: spec.name,
    productImage: product.imageUrls[0] ?? null,
    productCategory: spec.category,
    trackingNumber: tracked ? `TRK-${digits(10)}` : null,
    carrier: tracked ? carrier : null,
    estimatedDeliveryAt: tracked ? new Date(at.getTime() + 7 * DAY) : null,
    poolId,
    metadata: { purchase_mode: purchaseMode, product_name: spec.name, customer_name: buyer.name },
    createdAt: at,
    updatedAt: at,
  };
  rows.orders.push(order);
  rows.checkoutSessions.push(
    paidLocalCheckoutRow({
      sessionId,
      reference,
      purpose: groupBuyId ? "group_buy" : "product",
      userId: buyer.id,
      hostId: host.id,
      amountCents,
      customerEmail: buyer.email,
      metadata: checkoutMetadata(seed, opts, { size, colour, quantity }),
      origin: seed.siteOrigin,
      cancelPath: groupBuyId ? `/group-buy-product-selection/${groupBuyId}` : `/buy-now/${product.id}`,
      paidAt: at,
      rates: DEFAULT_REVENUE_RULES,
    }),
  );
  rows.userActivity.push({
    userId: buyer.id,
    activityType: "order_placed",
    activityData: { order_number: order.orderNumber, amount: amountCents },
    createdAt: at,
  });
  product.salesCount += quantity;
  product.revenueCents += amountCents;
  if (tracked) addShippingUpdates(seed, order, opts, carrier);
  if (spec.category === "voucher") addVoucher(seed, order, opts, size);
  seed.pools.event(poolId, {
    at,
    userId: buyer.id,
    sourceType: groupBuyId ? "group_buy_entry" : "product_purchase",
    sourceKey: contributionKey(sessionId),
    contributionCents: poolContributionCents(groupBuyId ? "group_buy_sales" : "shop_sales", amountCents),
    earnsEntry: true,
    onEntry: (n) => {
      order.entryNumber = n;
    },
  });
  return order;
}

/** A buyer for a host: mostly its tribe, some outsiders; people the host ships to. */
export function buyerFor(seed: Seed, host: Host): Person {
  const shipsTo = new Set(host.spec.shipsTo);
  const pool = chance(0.8) && host.members.length ? host.members : seed.fans;
  const local = pool.filter((f) => shipsTo.has(f.country));
  return pick(local.length ? local : pool);
}

/**
 * A Buy Now checkout paid by bank transfer that has not arrived yet (complete, unpaid): /my-orders shows it as
 * "Awaiting payment", and the local checkout page offers "Simulate bank transfer arrival".
 */
export function addAwaitingBankTransfer(
  seed: Seed,
  opts: Omit<OrderOptions, "poolId" | "status" | "groupBuyId">,
): void {
  const { host, buyer, product, at } = opts;
  const size = product.spec.sizes.find((s) => s[2] > 0) ?? product.spec.sizes[0]!;
  const colour = product.spec.colors?.[0] ?? null;
  // Not from the seeded random source: the rest of the demo data stays as it was.
  const sessionId = `cs_local_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
  const metadata = checkoutMetadata(seed, { ...opts, poolId: "" }, { size, colour, quantity: 1 });
  if (product.spec.category === "physical") {
    const a = ADDRESSES[buyer.country] ?? ADDRESSES.MY!;
    metadata.local_shipping = JSON.stringify({
      name: buyer.name,
      street: `21 ${a.street}`,
      city: a.city,
      state: a.state,
      postal_code: a.postal,
      country: buyer.country,
    });
  }
  seed.rows.checkoutSessions.push({
    ...paidLocalCheckoutRow({
      sessionId,
      reference: `chk_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`,
      purpose: "product",
      userId: buyer.id,
      hostId: host.id,
      amountCents: size[1],
      customerEmail: buyer.email,
      metadata,
      origin: seed.siteOrigin,
      cancelPath: `/buy-now/${product.id}`,
      paidAt: at,
      rates: DEFAULT_REVENUE_RULES,
    }),
    paymentStatus: "unpaid",
    paymentIntentId: null,
    rates: null,
    completedAt: null,
  });
}
