import type { Db } from "~/db/client.server";
import { isAccountSuspended } from "~/db/queries/admin.server";
import { getProductVariants } from "~/db/queries/products.server";
import type { CheckoutSession, NewOrder } from "~/db/schema";
import { productCategory } from "~/domain/catalog";
import { orderNumber } from "~/domain/orders";
import { UNFULFILLABLE_REASONS } from "~/domain/payments";
import { FulfilmentDataError, paymentIntentOf, shippingOf, type CheckoutSessionObject } from "../shared/events.server";

/** One line of a multi-item checkout (a cart's or a group buy's) as its metadata carries it. */
export type PaidLine = {
  index: number;
  productId: string;
  sizeName: string;
  colourName: string;
  quantity: number;
  unitCents: number;
};

/**
 * The order a paid line of a multi-item checkout becomes, with the size and colour rows whose stock it takes; the
 * caller adds what its purpose records (purchase mode, group buy, metadata). The first line's order number is the
 * checkout's, the others get `-2`, `-3`, … Digital items and vouchers are delivered at payment: their return window
 * starts then.
 */
export async function paidLineOrder(
  db: Db,
  row: CheckoutSession,
  session: CheckoutSessionObject,
  line: PaidLine,
  now: Date,
) {
  const found = await getProductVariants(db, line.productId);
  if (!found)
    throw new FulfilmentDataError(
      `product ${line.productId} of checkout ${row.id} no longer exists`,
      UNFULFILLABLE_REASONS.gone,
    );
  const size = found.sizes.find((s) => s.name === line.sizeName);
  const colour = line.colourName ? found.colours.find((c) => c.name === line.colourName) : undefined;
  const category = productCategory(found.product.category);
  const id = crypto.randomUUID();
  const number = orderNumber(session.id, id);
  return {
    sizeId: size?.id ?? null,
    colourId: line.colourName ? (colour?.id ?? null) : null,
    order: {
      id,
      orderNumber: line.index === 0 ? number : `${number}-${line.index + 1}`,
      line: line.index,
      userId: row.userId,
      hostId: found.product.hostId,
      productId: line.productId,
      checkoutSessionId: session.id,
      paymentIntentId: paymentIntentOf(session),
      status: category === "physical" ? ("processing" as const) : ("paid" as const),
      amountCents: line.unitCents * line.quantity,
      unitPriceCents: line.unitCents,
      currency: row.currency,
      quantity: line.quantity,
      sizeName: line.sizeName,
      colorName: line.colourName || null,
      customerEmail: session.customer_details?.email ?? session.customer_email ?? row.customerEmail,
      customerName: session.customer_details?.name ?? null,
      shippingAddress: category === "physical" ? shippingOf(session) : null,
      productName: found.product.name,
      productImage: found.imageUrl,
      productCategory: category,
      deliveredAt: category === "physical" ? null : now,
      createdAt: now,
      updatedAt: now,
    } satisfies Partial<NewOrder>,
  };
}

/** Which of these hosts are suspended now: their paid orders cannot be delivered and are refunded in full. */
export async function suspendedHosts(db: Db, hostIds: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(hostIds)];
  const flags = await Promise.all(unique.map((id) => isAccountSuspended(db, id)));
  return new Set(unique.filter((_, i) => flags[i]));
}
