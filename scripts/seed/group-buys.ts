// The demo host's group buy: active, with the default tiers, four products, some group-buy orders and a share.
import { DEFAULT_GROUP_BUY_TIERS, GROUP_BUY_CURRENCY } from "../../app/domain/group-buy";
import type { Seed } from "./context";
import { addOrder } from "./orders";
import { DAY, daysAgo, daysAhead, HOUR, int, pick, sample } from "./random";

export function addGroupBuy(seed: Seed, openPoolId: string): void {
  const { rows, demoHost, demoFan } = seed;
  const groupBuyId = crypto.randomUUID();
  const startAt = daysAgo(6);
  rows.groupBuys.push({
    id: groupBuyId,
    hostId: demoHost.id,
    name: "Raya Open House Group Buy",
    description:
      "Dress the whole house for Hari Raya together: the more the tribe buys, the bigger everyone's discount. You pay the normal price today and get the difference back automatically when we unlock a higher tier.",
    status: "active",
    targetCents: 1_000_000,
    currency: GROUP_BUY_CURRENCY,
    endAt: daysAhead(12),
    createdAt: startAt,
    updatedAt: startAt,
  });
  DEFAULT_GROUP_BUY_TIERS.forEach(({ salesThresholdCents, discountPercent }, position) =>
    rows.groupBuyTiers.push({ groupBuyId, salesThresholdCents, discountPercent, position }),
  );
  const linked = [demoHost.products[0]!, demoHost.products[1]!, demoHost.products[2]!, demoHost.products[5]!];
  for (const product of linked) rows.groupBuyProducts.push({ groupBuyId, productId: product.id });
  const buyers = [
    demoFan,
    ...sample(
      demoHost.members.filter((m) => m !== demoFan),
      4,
    ),
  ];
  let sales = 0;
  buyers.forEach((buyer, n) => {
    const order = addOrder(seed, {
      host: demoHost,
      buyer,
      product: pick(linked),
      poolId: openPoolId,
      at: new Date(startAt.getTime() + (n + 1) * 0.9 * DAY + int(1, 10) * HOUR),
      status: n === 0 ? "processing" : pick(["paid", "processing"] as const),
      groupBuyId,
    });
    sales += order.salesRmCents ?? 0;
  });
  const groupBuy = rows.groupBuys[0]!;
  groupBuy.currentSalesCents = sales;
  groupBuy.currentParticipants = new Set(buyers.map((b) => b.id)).size;
  rows.groupBuyShares.push({ userId: buyers[1]!.id, groupBuyId, createdAt: daysAgo(2) });
}
