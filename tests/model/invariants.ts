import { env, runInDurableObject } from "cloudflare:test";
import { and, asc, eq, inArray } from "drizzle-orm";
import {
  earningsLedger,
  guessWinParticipants,
  localProviderMovements,
  orders,
  paymentProcessingFees,
  payouts,
  poolContributionKeys,
  prizeClaims,
  prizeDraws,
  prizePools,
  prizeWinners,
  productSizes,
} from "~/db/schema";
import { saleShares, type EarningKind } from "~/domain/earnings";
import { LOCAL_MOVEMENT_SIGN } from "~/domain/payments";
import { PRIZE_SETTLEMENT_DAYS } from "~/domain/pool";
import { UNCLAIMED_VOID_REASON } from "~/domain/prize-claims";
import { distributePool } from "~/domain/revenue";
import { poolStub } from "~/lib/pools.server";
import { db } from "../helpers";
import { deliverHeld } from "./delivery";
import { checkFreeAndPostalEntry } from "./free-invariant";
import { stats, type Model, type ModelCheckout } from "./model";
import { clock, DAY, MINUTE, runCron, type World } from "./world";

// The invariants of the model-based money test (decision 400). Step invariants hold after every command; the
// quiescent ones once every held event is delivered, every group buy has ended and the cron has run.

export class InvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvariantError";
  }
}

function fail(m: Model, message: string): never {
  throw new InvariantError(`${message}\n  steps so far:\n    ${m.log.join("\n    ")}`);
}

/** Rows for many ids, 90 at a time (D1 binds at most 100 parameters a statement; a long run has many checkouts). */
async function byChunks<T>(ids: readonly string[], query: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += 90) rows.push(...(await query(ids.slice(i, i + 90))));
  return rows;
}

type LedgerRow = { source_key: string; source_type: string; amount_cents: number; currency: string };

async function runPools(w: World) {
  return db()
    .select()
    .from(prizePools)
    .where(
      inArray(
        prizePools.hostId,
        w.hosts.map((h) => h.id),
      ),
    );
}

/** A pool's ledger as its Durable Object holds it (the truth the D1 mirror copies). */
async function ledgerOf(poolId: string): Promise<LedgerRow[]> {
  return runInDurableObject(poolStub(env, poolId), (_instance, state) =>
    state.storage.sql.exec<LedgerRow>("SELECT source_key, source_type, amount_cents, currency FROM ledger").toArray(),
  );
}

/**
 * After every step: each pool's amount is its ledger's sum (in the object and in D1's mirror) and never negative;
 * no product's stock is negative; no source key is in a ledger twice, nor a payment in two pools.
 */
export async function checkStep(m: Model, w: World): Promise<void> {
  const pools = await runPools(w);
  const paymentKeys = new Map<string, string>();
  for (const pool of pools) {
    const ledger = await ledgerOf(pool.id);
    const sum = ledger.reduce((s, r) => s + r.amount_cents, 0);
    const state = await poolStub(env, pool.id).state();
    if (state.amountCents !== sum)
      fail(m, `pool ${pool.id}: its amount ${state.amountCents} is not its ledger's sum ${sum}`);
    if (pool.amountCents !== sum) fail(m, `pool ${pool.id}: D1 shows ${pool.amountCents}, its ledger sums to ${sum}`);
    if (sum < 0) fail(m, `pool ${pool.id} is negative: ${sum}`);
    const seen = new Set<string>();
    for (const row of ledger) {
      if (seen.has(row.source_key)) fail(m, `pool ${pool.id}: source key ${row.source_key} applied twice`);
      seen.add(row.source_key);
      if (row.source_key.startsWith("checkout:") && row.amount_cents > 0) {
        const other = paymentKeys.get(row.source_key);
        if (other) fail(m, `payment ${row.source_key} counted in two pools: ${other} and ${pool.id}`);
        paymentKeys.set(row.source_key, pool.id);
      }
    }
  }
  const sizes = await db()
    .select({ productId: productSizes.productId, units: productSizes.availableUnits })
    .from(productSizes)
    .where(
      inArray(
        productSizes.productId,
        w.products.map((p) => p.id),
      ),
    );
  for (const s of sizes) if (s.units < 0) fail(m, `product ${s.productId}: stock ${s.units}`);
  await checkDraws(m, w, pools);
}

/** The run's checkout behind a pool entry: checkout:<session> (a cart's: checkout:<session>:host:<host>), or guess:<id>. */
async function checkoutOfEntry(sourceKey: string): Promise<string | null> {
  if (sourceKey.startsWith("checkout:")) return sourceKey.split(":")[1] ?? null;
  if (!sourceKey.startsWith("guess:")) return null;
  const [participant] = await db()
    .select({ paymentKey: guessWinParticipants.paymentKey })
    .from(guessWinParticipants)
    .where(eq(guessWinParticipants.id, sourceKey.slice("guess:".length)));
  return participant?.paymentKey ?? null;
}

/**
 * After every step, the draws (decision 390): a drawn pool has exactly one standing draw and one main prize, its
 * winner a valid entry (not voided when drawn, never an earlier voided winner), the prize its 60% of the pool when
 * drawn, and (within the settlement period) one pending prize payout of that amount to the winner. A draw the model
 * saw that is voided was voided by a reversal the buyer obtained (a lost dispute or a dashboard refund with no
 * metadata: never the host's refund), its pending payout is cancelled and the pool waits for a fresh commitment; a
 * redraw is on a later commitment than the voided draw.
 */
async function checkDraws(m: Model, w: World, pools: Awaited<ReturnType<typeof runPools>>): Promise<void> {
  for (const pool of pools) {
    const draws = await db()
      .select()
      .from(prizeDraws)
      .where(eq(prizeDraws.poolId, pool.id))
      .orderBy(asc(prizeDraws.attempt));
    const standing = draws.filter((d) => d.voidedAt === null);
    const known = m.draws.get(pool.id);
    if (known && !standing.some((d) => d.id === known.drawId)) {
      // The draw the model saw was voided.
      const voided = draws.find((d) => d.id === known.drawId);
      if (!voided?.voidedAt) fail(m, `pool ${pool.id}: its draw ${known.drawId} is gone without a void`);
      const checkout = m.checkouts.find((c) => c.id === known.checkoutId);
      if (voided.voidReason === UNCLAIMED_VOID_REASON) {
        // Issue 29: a main prize nobody claimed within the claim window is redrawn (once).
        const [claim] = await db()
          .select()
          .from(prizeClaims)
          .where(and(eq(prizeClaims.poolId, pool.id), eq(prizeClaims.entryNumber, known.entryNumber)));
        if (!claim || claim.confirmedAt !== null || claim.claimBy.getTime() > clock.now)
          fail(
            m,
            `pool ${pool.id}: the draw of entry ${known.entryNumber} was voided as unclaimed within its claim window`,
          );
      } else if (!checkout || checkout.buyerReversals.length === 0) {
        fail(
          m,
          `pool ${pool.id}: the draw of entry ${known.entryNumber} was voided (${voided.voidReason}), but its payment ${known.checkoutId} had no lost dispute or dashboard refund`,
        );
      }
      if (known.payoutId) {
        const [payout] = await db().select().from(payouts).where(eq(payouts.id, known.payoutId));
        if (payout?.status !== "cancelled")
          fail(
            m,
            `pool ${pool.id}: the draw was voided, its prize payout ${known.payoutId} is ${payout?.status}, not cancelled`,
          );
      }
      if (pool.status === "drawn" && standing.length === 0)
        fail(m, `pool ${pool.id} shows drawn with its only draw voided`);
      m.draws.delete(pool.id);
      stats.voided += 1;
      m.log.push(`  draw of pool ${pool.id} voided: ${voided.voidReason}`);
    }
    if (pool.status !== "drawn") {
      if (standing.length > 0) fail(m, `pool ${pool.id} is ${pool.status} with a standing draw`);
      continue;
    }
    if (standing.length !== 1) fail(m, `pool ${pool.id}: drawn with ${standing.length} standing draws`);
    const draw = standing[0]!;
    const winners = await db()
      .select()
      .from(prizeWinners)
      .where(and(eq(prizeWinners.poolId, pool.id), eq(prizeWinners.prizeType, "main")));
    if (winners.length !== 1) fail(m, `pool ${pool.id}: drawn with ${winners.length} main winners`);
    const winner = winners[0]!;
    if (
      pool.winnerEntryNumber !== draw.winnerEntryNumber ||
      winner.userId !== pool.winnerUserId ||
      draw.winnerUserId !== pool.winnerUserId
    ) {
      fail(
        m,
        `pool ${pool.id}: the pool (entry ${pool.winnerEntryNumber}), its draw (entry ${draw.winnerEntryNumber}) and its prize row disagree on the winner`,
      );
    }
    const entries = await poolStub(env, pool.id).entries();
    const entry = entries.find((e) => e.entryNumber === draw.winnerEntryNumber);
    if (!entry)
      fail(m, `pool ${pool.id}: winning entry ${draw.winnerEntryNumber} is not one of its ${entries.length} entries`);
    if (entry.userId !== pool.winnerUserId)
      fail(m, `pool ${pool.id}: the winner ${pool.winnerUserId} does not hold entry ${entry.entryNumber}`);
    const earlier = draws.filter((d) => d.voidedAt !== null);
    if (earlier.some((d) => d.winnerEntryNumber === entry.entryNumber))
      fail(m, `pool ${pool.id}: entry ${entry.entryNumber} won again after its draw was voided`);
    if (
      earlier.some(
        (d) => d.commitmentSeq !== null && draw.commitmentSeq !== null && d.commitmentSeq >= draw.commitmentSeq,
      )
    ) {
      fail(m, `pool ${pool.id}: redrawn on commitment ${draw.commitmentSeq}, not a fresh one after the voided draws'`);
    }
    const drawnAt = draw.drawnAt.getTime();
    const prizePayouts = await db().select().from(payouts).where(eq(payouts.prizeWinnerId, winner.id));
    const unsettled = clock.now < drawnAt + PRIZE_SETTLEMENT_DAYS * DAY;
    if (unsettled) {
      const payout = prizePayouts[0];
      if (
        prizePayouts.length !== 1 ||
        payout?.status !== "pending" ||
        payout.userId !== pool.winnerUserId ||
        payout.amountCents !== winner.prizeAmountCents
      ) {
        fail(
          m,
          `pool ${pool.id}: drawn ${Math.round((clock.now - drawnAt) / MINUTE)} min ago, its prize payouts are ${JSON.stringify(prizePayouts.map((p) => [p.status, p.amountCents]))}, not one pending ${winner.prizeAmountCents} to the winner`,
        );
      }
    }
    if (known?.drawId !== draw.id) {
      // A new draw (this step's cron): the winner was a valid entry, the prize is the pool's 60% now.
      if (entry.voided) fail(m, `pool ${pool.id}: drawn on entry ${entry.entryNumber}, whose payment was reversed`);
      const sum = (await ledgerOf(pool.id)).reduce((total, row) => total + row.amount_cents, 0);
      if (winner.prizeAmountCents !== distributePool(sum).mainPrize)
        fail(m, `pool ${pool.id}: prize ${winner.prizeAmountCents} is not 60% of the pool's ${sum}`);
      m.draws.set(pool.id, {
        drawId: draw.id,
        poolId: pool.id,
        entryNumber: entry.entryNumber,
        checkoutId: await checkoutOfEntry(entry.sourceKey),
        drawnAt,
        payoutId: prizePayouts[0]?.id ?? null,
      });
      stats.drawn += 1;
      m.log.push(
        `  pool ${pool.id} drawn: entry ${entry.entryNumber} of ${entries.length}, prize ${winner.prizeAmountCents}`,
      );
    }
  }
}

/** Delivers every held event (retrying refused ones as the provider would), ends every group buy, runs the cron. */
export async function settle(m: Model, w: World): Promise<void> {
  for (let guard = 0; m.held.length > 0 && guard < 500; guard++) await deliverHeld(m, m.held.shift()!);
  const ends = m.groupBuys.filter((g) => g.state === "active").map((g) => g.endAt);
  clock.set(Math.max(clock.now, ...ends) + MINUTE);
  for (const g of m.groupBuys) if (g.state === "active") g.state = "ended";
  await runCron();
  clock.advance(MINUTE);
  await runCron();
  await checkStep(m, w);
  await checkQuiescent(m, w);
}

/** Earnings kinds that book money fans paid (their parts: the host's and the platform's; the pool's is in its ledger). */
const PAID_KINDS: readonly EarningKind[] = ["shop_sale", "group_buy_sale", "guess_entry", "refund"];

/**
 * At a quiescent point: every checkout the provider captured is fulfilled or refunded in full; per currency, what
 * the provider holds (captured less refunds and dispute withdrawals, from its own records) equals the hosts'
 * earnings plus the pools' ledgers plus the platform's fees of the run, each row split at its recorded rates; every
 * entry belongs to a payment made before its pool closed.
 */
export async function checkQuiescent(m: Model, w: World): Promise<void> {
  const ids = m.checkouts.map((c) => c.id);
  const movements = await byChunks(ids, (chunk) =>
    db().select().from(localProviderMovements).where(inArray(localProviderMovements.checkoutSessionId, chunk)),
  );
  const net = new Map<string, number>();
  const captureAt = new Map<string, number>();
  const held = new Map<string, number>();
  for (const mv of movements) {
    const signed = LOCAL_MOVEMENT_SIGN[mv.kind] * mv.amountCents;
    net.set(mv.checkoutSessionId, (net.get(mv.checkoutSessionId) ?? 0) + signed);
    held.set(mv.currency, (held.get(mv.currency) ?? 0) + signed);
    if (mv.kind === "capture") captureAt.set(mv.checkoutSessionId, mv.createdAt.getTime());
  }

  // Every captured checkout: fulfilled as promised, or refunded in full.
  const placed = await byChunks(ids, (chunk) =>
    db().select().from(orders).where(inArray(orders.checkoutSessionId, chunk)),
  );
  const guesses = await byChunks(ids, (chunk) =>
    db().select().from(guessWinParticipants).where(inArray(guessWinParticipants.paymentKey, chunk)),
  );
  const keys = await byChunks(ids, (chunk) =>
    db()
      .select()
      .from(poolContributionKeys)
      .where(
        inArray(
          poolContributionKeys.sourceKey,
          chunk.map((id) => `checkout:${id}`),
        ),
      ),
  );
  const fulfilled = (c: ModelCheckout): boolean => {
    if (c.purpose === "guess_entry") return guesses.some((g) => g.paymentKey === c.id);
    if (c.purpose === "host_deposit")
      return keys.some((k) => k.sourceKey === `checkout:${c.id}` && k.appliedAt !== null);
    return placed.filter((o) => o.checkoutSessionId === c.id).length === c.lines;
  };
  for (const c of m.checkouts) {
    if (!captureAt.has(c.id)) continue;
    const left = net.get(c.id) ?? 0;
    if (!fulfilled(c) && left !== 0) {
      const count = placed.filter((o) => o.checkoutSessionId === c.id).length;
      fail(
        m,
        `checkout ${c.id} (${c.purpose}, ${c.lines} lines) was captured and is neither fulfilled (${count} orders) nor refunded in full (the provider still holds ${left})`,
      );
    }
  }

  // Conservation, per currency.
  const hostIds = w.hosts.map((h) => h.id);
  const ledger = await db().select().from(earningsLedger).where(inArray(earningsLedger.hostId, hostIds));
  const booked = new Map<string, { host: number; platform: number; pools: number }>();
  const at = (currency: string) => {
    const entry = booked.get(currency) ?? { host: 0, platform: 0, pools: 0 };
    booked.set(currency, entry);
    return entry;
  };
  for (const row of ledger) {
    if (row.amountCents + row.poolCents + row.platformCents !== row.grossCents) {
      fail(
        m,
        `earnings row ${row.sourceKey}: host ${row.amountCents} + pool ${row.poolCents} + platform ${row.platformCents} is not its gross ${row.grossCents}`,
      );
    }
    if ((row.kind === "shop_sale" || row.kind === "guess_entry") && row.rates) {
      const parts = saleShares(row.grossCents, row.rates);
      if (
        parts.hostCents !== row.amountCents ||
        parts.poolCents !== row.poolCents ||
        parts.platformCents !== row.platformCents
      ) {
        fail(m, `earnings row ${row.sourceKey} is not split at its recorded rates: ${JSON.stringify(parts)} expected`);
      }
    }
    if (!PAID_KINDS.includes(row.kind)) continue;
    at(row.currency).host += row.amountCents;
    at(row.currency).platform += row.platformCents;
  }
  const pools = await runPools(w);
  for (const pool of pools)
    for (const row of await ledgerOf(pool.id)) at(row.currency.toUpperCase()).pools += row.amount_cents;
  const fees = await byChunks(ids, (chunk) =>
    db().select().from(paymentProcessingFees).where(inArray(paymentProcessingFees.checkoutSessionId, chunk)),
  );
  const feeCents = fees.reduce((s, f) => s + f.feeCents, 0);
  for (const currency of new Set([...held.keys(), ...booked.keys()])) {
    const provider = held.get(currency) ?? 0;
    const parts = booked.get(currency) ?? { host: 0, platform: 0, pools: 0 };
    const total = parts.host + parts.platform + parts.pools;
    if (provider !== total) {
      fail(
        m,
        `money not conserved in ${currency}: the provider holds ${provider} (captured less refunds and disputes), ` +
          `the books hold ${total} (host earnings ${parts.host} + pool ledgers ${parts.pools} + platform fees ${parts.platform}; ` +
          `processing fees ${feeCents} reported apart), ${total - provider > 0 ? "created" : "lost"} ${Math.abs(total - provider)}`,
      );
    }
  }

  // Every entry belongs to a payment made before its pool closed, or to a free entry or postal card of that pool
  // (decision 530): 0 cents, counted once, void only by the platform owner's void.
  const participants = await db()
    .select({ id: guessWinParticipants.id, paymentKey: guessWinParticipants.paymentKey })
    .from(guessWinParticipants)
    .where(
      inArray(
        guessWinParticipants.userId,
        w.fans.map((f) => f.id),
      ),
    );
  const paymentOfGuess = new Map(participants.map((p) => [p.id, p.paymentKey]));
  for (const pool of pools) {
    const amounts = new Map((await ledgerOf(pool.id)).map((row) => [row.source_key, row.amount_cents]));
    for (const entry of await poolStub(env, pool.id).entries()) {
      if (!entry.sourceKey.startsWith("checkout:") && !entry.sourceKey.startsWith("guess:")) {
        const failure = await checkFreeAndPostalEntry(pool, entry, amounts.get(entry.sourceKey));
        if (failure) fail(m, failure);
        continue;
      }
      if (pool.closedAt === null) continue;
      // checkout:<session> (a cart's: checkout:<session>:host:<host>), or guess:<guess id>.
      const session = entry.sourceKey.startsWith("checkout:")
        ? entry.sourceKey.split(":")[1]
        : paymentOfGuess.get(entry.sourceKey.slice("guess:".length));
      if (!session) continue;
      const paidAt = captureAt.get(session);
      if (paidAt === undefined)
        fail(
          m,
          `pool ${pool.id}: entry ${entry.entryNumber} (${entry.sourceKey}) has no payment the provider captured`,
        );
      if (paidAt > pool.closedAt.getTime()) {
        fail(
          m,
          `pool ${pool.id}: entry ${entry.entryNumber} (${entry.sourceKey}) is for a payment made ${Math.round((paidAt - pool.closedAt.getTime()) / MINUTE)} min after the pool closed`,
        );
      }
    }
  }
  // A full lost dispute or dashboard refund of a winning payment, made after its draw and within the settlement
  // period (every event now delivered), voided that draw (decision 390).
  for (const draw of m.draws.values()) {
    const checkout = m.checkouts.find((c) => c.id === draw.checkoutId);
    const reversal = checkout?.buyerReversals.find(
      (r) => r.full && r.at >= draw.drawnAt && r.at < draw.drawnAt + PRIZE_SETTLEMENT_DAYS * DAY,
    );
    if (reversal) {
      fail(
        m,
        `pool ${draw.poolId}: the winning payment ${draw.checkoutId} was reversed in full by its buyer ${Math.round((reversal.at - draw.drawnAt) / MINUTE)} min after the draw, and the draw stands`,
      );
    }
  }
  m.log.push(`  quiescent: provider holds ${JSON.stringify(Object.fromEntries(held))}, processing fees ${feeCents}`);
}
