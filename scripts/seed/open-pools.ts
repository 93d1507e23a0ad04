// The hosts' open pools: each pool with its host's deposit (most hosts), the buy-now orders and the Guess & Win games
// in it, and at the end its entries numbered and totals set.
import type { ProductSpec } from "./content";
import type { Seed } from "./context";
import { addGame } from "./games";
import { addAwaitingBankTransfer, addOrder, buyerFor } from "./orders";
import { chance, daysAgo, daysAhead, HOUR, int, NOW, pick, random } from "./random";

/** Opens every host's pool; returns the pool id by host id. */
export function openPools(seed: Seed): Map<string, string> {
  const pools = new Map<string, string>();
  for (const host of seed.hosts) {
    const startAt = daysAgo(int(8, 24));
    const poolId = seed.pools.open(host, startAt, daysAhead(host === seed.demoHost ? 18 : int(5, 40)));
    pools.set(host.id, poolId);
    if (chance(0.7) || host === seed.demoHost)
      seed.pools.hostDeposit(poolId, host, int(20, 120) * 1000, new Date(startAt.getTime() + 3 * HOUR));
  }
  return pools;
}

/** Buy-now orders in the open pools: the demo fan has one of each kind from the demo host, and every host has some. */
export function addBuyNowOrders(seed: Seed, pools: Map<string, string>): void {
  const { demoHost, demoFan, hosts } = seed;
  const poolId = pools.get(demoHost.id)!;
  const byCategory = (c: ProductSpec["category"]) => demoHost.products.find((p) => p.spec.category === c)!;
  const demo = { host: demoHost, buyer: demoFan, poolId };
  addOrder(seed, { ...demo, product: demoHost.products[0]!, at: daysAgo(7.5), status: "shipped" });
  addOrder(seed, { ...demo, product: byCategory("voucher"), at: daysAgo(4.2), status: "paid" });
  addOrder(seed, { ...demo, product: byCategory("digital"), at: daysAgo(2.1), status: "completed" });
  addOrder(seed, {
    host: hosts[4]!,
    buyer: demoFan,
    product: hosts[4]!.products[1]!,
    poolId: pools.get(hosts[4]!.id)!,
    at: daysAgo(1.3),
    status: "paid",
  });
  // A bank transfer on its way: "Awaiting payment" on the demo fan's /my-orders until it arrives.
  addAwaitingBankTransfer(seed, { ...demo, product: demoHost.products[1] ?? demoHost.products[0]!, at: daysAgo(0.4) });
  for (const host of hosts) {
    const hostPoolId = pools.get(host.id)!;
    const pool = seed.rows.prizePools.find((p) => p.id === hostPoolId)!;
    const count = host === demoHost ? 5 : int(2, 3);
    for (let n = 0; n < count; n++) {
      const startMs = pool.startAt!.getTime();
      const at = new Date(startMs + random() * (NOW - startMs - HOUR));
      addOrder(seed, { host, buyer: buyerFor(seed, host), product: pick(host.products), poolId: hostPoolId, at });
    }
  }
}

/**
 * Guess & Win games with guesses in the open pools; the demo fan has shared (a free guess) and liked the first, and
 * saved an open game of the demo host and one of another host (their "Saved" tab on /guess-win).
 */
export function addOpenGames(seed: Seed, pools: Map<string, string>): void {
  const { rows, demoHost, demoFan } = seed;
  for (const host of seed.hosts) {
    host.spec.games.forEach((spec, index) =>
      addGame(
        seed,
        host,
        spec,
        pools.get(host.id)!,
        daysAgo(int(2, 12) + index),
        new Date(NOW - HOUR),
        "active",
        int(3, 7),
      ),
    );
  }
  const first = rows.guessWinGames.find((g) => g.hostId === demoHost.id)!;
  rows.gameShares.push({ userId: demoFan.id, gameId: first.id!, hostId: demoHost.id, createdAt: daysAgo(1) });
  first.sharesCount! += 1;
  rows.gameLikes.push({ userId: demoFan.id, gameId: first.id!, createdAt: daysAgo(1) });
  first.likesCount! += 1;
  // Saved: an open game of the demo host and one of another host (games of drawn pools have ended).
  const open = rows.guessWinGames.filter((g) => g.status === "active");
  const saved = [open.find((g) => g.hostId === demoHost.id), open.find((g) => g.hostId !== demoHost.id)];
  saved.forEach((game, i) => {
    if (game) rows.gameSaves.push({ userId: demoFan.id, gameId: game.id!, createdAt: daysAgo(2 - i) });
  });
}

/** Numbers the open pools' entries and sets their totals, once everything in them is added. */
export function finishOpenPools(seed: Seed, pools: Map<string, string>): void {
  for (const host of seed.hosts) seed.pools.finish(pools.get(host.id)!, host);
}
