import type { Db } from "~/db/client.server";
import { claimCheckoutStatement } from "~/db/queries/checkout.server";
import { isAccountSuspended } from "~/db/queries/admin.server";
import {
  getGroupBuyForClose,
  insertPaidGroupBuyOrders,
  listCheckoutOrders,
  withdrawGroupBuySales,
} from "~/db/queries/group-buys.server";
import { cancelUndeliverableOrder, setOrderPoolEntry } from "~/db/queries/orders.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import type { CheckoutSession } from "~/db/schema";
import { convertCents } from "~/domain/currency";
import { GROUP_BUY_CURRENCY, groupBuyEntriesForCheckout } from "~/domain/group-buy";
import { UNFULFILLABLE_REASONS } from "~/domain/payments";
import { FulfilmentDataError, paymentIntentOf, type CheckoutSessionObject } from "../shared/events.server";
import type { FulfilOutcome } from "./fulfil.server";
import { decodeCheckoutLines } from "../shared/checkout-lines.server";
import { settleClosedGroupBuy } from "../refunds/group-buy-close.server";
import { contributionKey, shareBonusKey } from "../shared/payment-records";
import { contribute, orderPoolShareCents } from "./pool-ledger.server";
import { paidLineOrder } from "./order-lines.server";
import { checkPaymentEntry } from "./entry-check.server";
import { refundUnfulfillable } from "../refunds/refund-request.server";

/**
 * A paid group-buy checkout: one batch creates an order per line (each with its RM value, converted at payment with
 * the rate table, and the pool percent in force), takes the stock, and adds the sales and the participant to the
 * group buy, once. Then the pool gets the group-buy share of each order (rounded per order) keyed by the checkout,
 * with one entry, and a second entry when the fan had shared the group buy.
 */
export async function fulfilGroupBuy(
  env: Env,
  db: Db,
  row: CheckoutSession,
  session: CheckoutSessionObject,
): Promise<FulfilOutcome> {
  const meta = row.metadata;
  const lines = decodeCheckoutLines(meta);
  const groupBuyId = meta.group_buy_id;
  if (!lines || lines.length === 0 || !groupBuyId || !row.hostId) {
    throw new FulfilmentDataError(`checkout ${row.id} lacks the group buy, its lines or the host`);
  }
  // Whatever became of the group buy, the payment ends fulfilled or refunded in full (decision 370): gone (deleted
  // before deleting waited for open checkouts) or its host suspended before the payment arrived, it is refunded
  // with the reason the buyer reads (fulfil.server.ts); ended or cancelled, it is booked and settled below.
  const groupBuy = await getGroupBuyForClose(db, groupBuyId);
  if (!groupBuy)
    throw new FulfilmentDataError(
      `group buy ${groupBuyId} of checkout ${row.id} no longer exists`,
      UNFULFILLABLE_REASONS.groupBuyGone,
    );
  if (row.paymentStatus === "unpaid" && (await isAccountSuspended(db, row.hostId))) {
    throw new FulfilmentDataError(
      `host ${row.hostId} of checkout ${row.id} is suspended`,
      UNFULFILLABLE_REASONS.hostSuspended,
    );
  }
  const rates = row.rates ?? (await getRevenueRules(db));
  const poolPercent = rates.group_buy_sales.prizePoolPercent;
  const now = new Date();
  const paymentIntentId = paymentIntentOf(session);

  let salesRmCents = 0;
  const orderLines = [];
  for (const [index, [productId, sizeName, colourName, quantity, unitCents]] of lines.entries()) {
    const line = await paidLineOrder(
      db,
      row,
      session,
      { index, productId, sizeName, colourName, quantity, unitCents },
      now,
    );
    const rm = convertCents(line.order.amountCents, "USD", GROUP_BUY_CURRENCY);
    salesRmCents += rm;
    orderLines.push({
      ...line,
      order: {
        ...line.order,
        hostId: row.hostId,
        groupBuyId,
        purchaseMode: "group-buy" as const,
        salesRmCents: rm,
        // The split its pool share and its sale row are booked with (recordedGroupBuyRule).
        metadata: { pool_percent: poolPercent, platform_fee_percent: rates.group_buy_sales.platformFeePercent },
      },
    });
  }

  // Every entry check asked again now the payment is in (decision 520): past a limit the join still counts, with no
  // entry (nor the share bonus's).
  const entry = await checkPaymentEntry(env, row, session, {
    hostId: row.hostId,
    amountCents: row.amountCents,
    route: "entry_purchase",
  });
  // The pool's share of each order at the recorded rate, and the share bonus's second entry: reserved in the batch.
  const reserved = {
    hostId: row.hostId,
    sourceType: "group_buy_entry" as const,
    currency: row.currency,
    userId: row.userId,
    earnsEntry: entry.earnsEntry,
  };
  const contributions = [
    {
      ...reserved,
      sourceKey: contributionKey(session.id),
      amountCents: orderLines.reduce((sum, l) => sum + orderPoolShareCents("group_buy", l.order, rates), 0),
    },
    ...(groupBuyEntriesForCheckout(meta.shared === "1") === 2
      ? [{ ...reserved, sourceKey: shareBonusKey(session.id), amountCents: 0 }]
      : []),
  ];
  const result = await insertPaidGroupBuyOrders(db, {
    claim: claimCheckoutStatement(db, row.id, { paymentIntentId, now, rates }),
    groupBuyId,
    userId: row.userId,
    salesRmCents,
    lines: orderLines,
    contributions,
  });
  if (result.inserted) {
    for (const { orderId, taken } of result.stockTaken) {
      if (taken) continue;
      // Paid for, but the stock ran out between checkout and payment: cancelled with the reason the buyer reads and
      // taken out of the group buy's sales (once), then refunded in full below.
      console.warn("fulfilment: group-buy order paid without enough stock", { orderId, checkout: row.id });
      if (await cancelUndeliverableOrder(db, orderId, UNFULFILLABLE_REASONS.soldOut)) {
        const line = orderLines.find((l) => l.order.id === orderId);
        if (line) await withdrawGroupBuySales(db, groupBuyId, line.order.salesRmCents);
      }
    }
  }
  const orders = await listCheckoutOrders(db, session.id);
  const first = orders[0];
  if (!first) throw new Error(`orders of checkout ${row.id} are missing after fulfilment`);

  let { poolId, entryNumber } = first;
  if (poolId === null) {
    const contribution = await contribute(env, db, {
      hostId: row.hostId,
      sourceType: "group_buy_entry",
      sourceKey: contributionKey(session.id),
      amountCents: orders.reduce((sum, o) => sum + orderPoolShareCents("group_buy", o, rates), 0),
      currency: first.currency,
      userId: row.userId,
      earnsEntry: entry.earnsEntry,
    });
    poolId = contribution.poolId;
    entryNumber = contribution.entryNumber;
    if (groupBuyEntriesForCheckout(meta.shared === "1") === 2) {
      await contribute(env, db, {
        hostId: row.hostId,
        sourceType: "group_buy_entry",
        sourceKey: shareBonusKey(session.id),
        amountCents: 0,
        currency: first.currency,
        userId: row.userId,
        earnsEntry: entry.earnsEntry,
      });
    }
    for (const o of orders)
      await setOrderPoolEntry(db, o.id, { poolId, entryNumber: o.id === first.id ? entryNumber : null });
  } else if (meta.shared === "1") {
    // A delivery after a crash between the two contributions: the share's entry (idempotent by its key) is added.
    await contribute(env, db, {
      hostId: row.hostId,
      sourceType: "group_buy_entry",
      sourceKey: shareBonusKey(session.id),
      amountCents: 0,
      currency: first.currency,
      userId: row.userId,
      earnsEntry: entry.earnsEntry,
    });
  }

  // Each undeliverable order's automatic refund (idempotent by its key, so a later delivery resumes a failed one). It
  // runs after the contribution so that its pool share is reversed from the pool that holds it.
  for (const o of orders) {
    if (o.status === "cancelled" && o.refundReason)
      await refundUnfulfillable(env, row.id, o.id, o.amountCents, o.refundReason);
  }

  // A payment that arrived after the group buy closed (an open session, a late bank transfer): its orders get what
  // every order got at the close, by the same code: the final tier's refund and the host's share once finalised, or,
  // after a cancellation, a refund in full. Every step is keyed by order, so a repeated delivery changes nothing.
  const closed = await getGroupBuyForClose(db, groupBuyId);
  if (closed && (closed.status === "completed" || closed.status === "cancelled"))
    await settleClosedGroupBuy(env, closed);

  return {
    kind: result.inserted ? "fulfilled" : "already_fulfilled",
    checkoutId: row.id,
    purpose: row.purpose,
    orderId: first.id,
    orderNumber: first.orderNumber,
    poolId,
    entryNumber,
  };
}
