// A few inbox entries for the demo accounts, as the pipeline would have made them (decision 570): the demo fan's
// latest order confirmations, the demo host's latest "New order" notices and their drawn pool. Older ones are read;
// the newest of each is unread, so the bell shows a count.
import { formatCents } from "../../app/domain/money";
import type { Seed } from "./context";
import { HOUR } from "./random";

export function addNotifications(seed: Seed): void {
  const { rows, demoFan, demoHost, siteOrigin } = seed;
  const byTime = [...rows.orders].sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0));
  const fanOrders = byTime.filter((o) => o.userId === demoFan.id && o.status !== "cancelled").slice(0, 3);
  const hostOrders = byTime.filter((o) => o.hostId === demoHost.id && o.status !== "cancelled").slice(0, 4);
  fanOrders.forEach((o, i) => {
    const amount = formatCents(o.amountCents, o.currency ?? "USD");
    rows.notifications.push({
      userId: demoFan.id,
      key: `order-confirmed:${o.checkoutSessionId}`,
      kind: "order_confirmed",
      subject: `Order confirmed: ${o.productName}`,
      text: `Thank you! Your order ${o.orderNumber} is confirmed (${amount} paid).\n\n${o.quantity} x ${o.productName}: ${amount}\n\nSee your order: ${siteOrigin}/order/${o.orderNumber}`,
      url: `/order/${o.orderNumber}`,
      createdAt: o.createdAt,
      readAt: i === 0 ? null : new Date(o.createdAt!.getTime() + HOUR),
    });
  });
  hostOrders.forEach((o, i) => {
    const groupBuy = o.purchaseMode === "group-buy";
    rows.notifications.push({
      userId: demoHost.id,
      key: `new-order:${o.checkoutSessionId}`,
      kind: "sale",
      subject: `New ${groupBuy ? "group-buy order" : "order"} ${o.orderNumber}: ${o.productName}`,
      text: `You sold ${o.quantity} item${o.quantity === 1 ? "" : "s"} (${formatCents(o.amountCents, o.currency ?? "USD")})${groupBuy ? " in your group buy" : ""}: ${o.quantity} x ${o.productName} (${o.orderNumber}). It is waiting in Customer Orders.`,
      url: "/orders",
      createdAt: o.createdAt,
      readAt: i < 2 ? null : new Date(o.createdAt!.getTime() + HOUR),
    });
  });
  const drawn = rows.prizePools.find((p) => p.hostId === demoHost.id && p.status === "drawn" && p.drawnAt);
  if (drawn) {
    rows.notifications.push({
      userId: demoHost.id,
      key: `pool-drawn:${drawn.id}`,
      kind: "pool_drawn",
      subject: "Your prize pool was drawn",
      text: `Your prize pool was drawn: entry #${drawn.winnerEntryNumber} won the main prize. ${siteOrigin}/winner-selection/${drawn.id}`,
      url: `/winner-selection/${drawn.id}`,
      createdAt: drawn.drawnAt ?? undefined,
      readAt: drawn.drawnAt,
    });
  }
}
