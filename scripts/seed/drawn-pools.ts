// Historical drawn pools on real Bitcoin blocks (the demo host's and one other host's): their orders, game and
// deposit, the draw (winner by the draw rule, entries digest, the commitment record), the winner's prize, mail and
// payout, the mini prizes and the host's 25%.
//
// Each drawn pool closed just before its block was mined and is fully settled and paid. The commitment each records
// is the one the fixture can show: tests/fixtures/bitcoin-blocks.json holds no headers below a drawn block, so the
// only tip it provably descends from is its parent (hash = the block's previous-block hash). The tip's header time
// is recorded where it is public and known to us (block 839,999: 2024-04-20 00:05:33 UTC, its header rebuilt to its
// hash), else left out. A commitment at the parent is 1 block past the tip, not 3: the verification page's margin
// check says so for these two pools (decision 390); every other check passes.
import type * as schema from "../../app/db/schema";
import { blockHeaderFields, entriesDigest, pickWinner } from "../../app/domain/draw";
import { commitmentHash, GENESIS_LOG_HASH } from "../../app/domain/draw-commitment";
import { poolShareEarning } from "../../app/domain/earnings";
import { drawMiniPrizes, miniPrizeCandidates } from "../../app/domain/mini-prizes";
import { formatCents } from "../../app/domain/money";
import { winnerMail } from "../../app/domain/payouts";
import { claimDeadline } from "../../app/domain/prize-claims";
import { POOL_CURRENCY, PRIZE_SETTLEMENT_DAYS } from "../../app/domain/pool";
import { distributePool } from "../../app/domain/revenue";
import bitcoinBlocks from "../../tests/fixtures/bitcoin-blocks.json" with { type: "json" };
import { PAST_GAMES } from "./content";
import type { Host, Seed } from "./context";
import { addGame } from "./games";
import { addFreeAndPostalEntries } from "./free-entries";
import { addOrder, buyerFor } from "./orders";
import { DAY, int, pick } from "./random";

const HISTORICAL_DRAWS = [
  {
    height: 840_000,
    closedAt: new Date(Date.UTC(2024, 3, 19, 23, 50)),
    committedAt: new Date(Date.UTC(2024, 3, 20, 0, 6)),
    tipTime: 1_713_571_533,
  },
  {
    height: 503_252,
    closedAt: new Date(Date.UTC(2018, 0, 8, 23, 40)),
    committedAt: new Date(Date.UTC(2018, 0, 8, 23, 59)),
    tipTime: null,
  },
] as const;

type Historical = (typeof HISTORICAL_DRAWS)[number];
type Block = (typeof bitcoinBlocks.blocks)[number];
type Entry = { entryNumber: number; sourceKey: string; userId: string | null };
/** A pool once drawn: its block, entries, winner and when. */
type Drawn = {
  host: Host;
  poolId: string;
  miniPrizeId: string;
  block: Block;
  entries: Entry[];
  amount: number;
  winner: Entry;
  winnerName: string;
  drawnAt: Date;
};

/** The pool's round: the pool, its first mini prize, 3 or 4 orders, a completed game and the host's deposit. */
function addRound(seed: Seed, host: Host, index: number, historical: Historical) {
  const targetReached = index === 1;
  const endAt = historical.closedAt;
  const startAt = new Date(endAt.getTime() - 36 * DAY);
  const targetCents = targetReached ? 300_000 : 1_000_000;
  const poolId = seed.pools.add({
    id: crypto.randomUUID(),
    hostId: host.id,
    status: "open",
    targetCents,
    currency: POOL_CURRENCY,
    autoRenew: true,
    startAt,
    endAt,
    createdAt: startAt,
  });
  const miniPrizeId = crypto.randomUUID();
  const [name, amountText, quantityText] = host.spec.miniPrizes[0]!;
  seed.rows.prizeMiniPrizes.push({
    id: miniPrizeId,
    poolId,
    hostId: host.id,
    name,
    amountText,
    quantityText,
    createdAt: startAt,
  });
  const span = endAt.getTime() - startAt.getTime();
  const orderCount = int(3, 4);
  for (let n = 0; n < orderCount; n++) {
    const at = new Date(startAt.getTime() + ((n + 0.5) / (orderCount + 1)) * span * (targetReached ? 0.5 : 1));
    addOrder(seed, {
      host,
      buyer: buyerFor(seed, host),
      product: pick(host.products),
      poolId,
      at,
      status: "completed",
    });
  }
  addGame(
    seed,
    host,
    PAST_GAMES[index]!,
    poolId,
    new Date(startAt.getTime() + 2 * DAY),
    new Date(startAt.getTime() + span * (targetReached ? 0.55 : 0.9)),
    "completed",
    int(7, 9),
  );
  // The host's own deposit, rounded so that the pool is a whole multiple of 5 cents (60% of it is exact).
  const fromOrders = seed.pools.contributedCents(poolId);
  let deposit = targetReached ? targetCents - fromOrders + int(500, 2500) : int(150_000, 320_000);
  deposit += (5 - ((fromOrders + deposit) % 5)) % 5;
  seed.pools.hostDeposit(poolId, host, deposit, new Date(startAt.getTime() + span * 0.05));
  return { poolId, miniPrizeId, targetReached, closedAt: endAt };
}

/** Closes and draws the pool on its block: the pool's draw fields, its commitment record and its draw row. */
async function draw(seed: Seed, host: Host, index: number, historical: Historical): Promise<Drawn> {
  const block = bitcoinBlocks.blocks.find((candidate) => candidate.height === historical.height)!;
  const { poolId, miniPrizeId, targetReached, closedAt } = addRound(seed, host, index, historical);
  // The later pool took free and postal entries and was frozen in entries.txt form 2 (each entry's source named);
  // the earlier one keeps form 1, as a list frozen before the free routes did (decision 530).
  const format = index === 0 ? 2 : 1;
  if (format === 2) {
    const from = new Date(closedAt.getTime() - 30 * DAY);
    addFreeAndPostalEntries(
      seed,
      host,
      poolId,
      { from, to: new Date(closedAt.getTime() - DAY) },
      {
        free: 2,
        postal: 1,
        offset: 15,
      },
    );
  }
  const { pool, entries, amount } = seed.pools.finish(poolId, host);
  // Drawn once the block had its 6 confirmations.
  const drawnAt = new Date(block.timestamp * 1000 + 70 * 60 * 1000);
  const winningNumber = pickWinner(
    entries.map((e) => ({ entryNumber: e.entryNumber, voided: false })),
    block.id,
  ).entryNumber;
  const winner = entries[winningNumber]!;
  Object.assign(pool, {
    status: "drawn",
    closedAt,
    closeReason: targetReached ? "target_reached" : "timer_expired",
    entriesDigest: await entriesDigest(entries, format),
    entriesFormat: format,
    drawBlockHeight: block.height,
    drawBlockHash: block.id,
    drawBlockHeader: blockHeaderFields(block),
    winnerEntryNumber: winningNumber,
    winnerUserId: winner.userId,
    drawnAt,
    updatedAt: drawnAt,
  } satisfies Partial<schema.NewPrizePool>);
  const commitment = {
    poolId,
    seq: 0,
    kind: "commit" as const,
    blockHeight: block.height,
    tipHeight: block.height - 1,
    tipHash: block.previousblockhash,
    tipTime: historical.tipTime,
    highestTip: block.height - 1,
    reason: null,
    createdAt: historical.committedAt.getTime(),
  };
  seed.rows.drawCommitments.push({
    ...commitment,
    createdAt: historical.committedAt,
    prevHash: GENESIS_LOG_HASH,
    hash: await commitmentHash(GENESIS_LOG_HASH, commitment),
  });
  seed.rows.prizeDraws.push({
    poolId,
    attempt: 0,
    blockHeight: block.height,
    blockHash: block.id,
    blockHeader: pool.drawBlockHeader!,
    chainHeaders: [],
    commitmentSeq: 0,
    winnerEntryNumber: winningNumber,
    winnerUserId: winner.userId,
    drawnAt,
  });
  const winnerName = seed.personById.get(winner.userId ?? "")?.name ?? "Anonymous";
  return { host, poolId, miniPrizeId, block, entries, amount, winner, winnerName, drawnAt };
}

/**
 * The main prize: its winner row, the winner's activity and mail, the claim (confirmed with the winner's legal name,
 * the ID check recorded by the admin; the second pool's winner objected to publication, so /winners withholds their
 * name) and the payout made after the settlement period.
 */
function awardMainPrize(seed: Seed, drawn: Drawn, withholdName: boolean): void {
  const { rows } = seed;
  const { poolId, winner, winnerName, drawnAt, block } = drawn;
  const mainPrize = distributePool(drawn.amount).mainPrize;
  const prizeWinnerId = crypto.randomUUID();
  rows.prizeWinners.push({
    id: prizeWinnerId,
    poolId,
    userId: winner.userId,
    winnerName,
    prizeAmountCents: mainPrize,
    currency: POOL_CURRENCY,
    prizeType: "main",
    entryNumber: winner.entryNumber,
    blockHash: block.id,
    createdAt: drawnAt,
  });
  if (!winner.userId) return;
  rows.userActivity.push({
    userId: winner.userId,
    activityType: "prize_won",
    activityData: { amount: mainPrize, pool_id: poolId },
    createdAt: drawnAt,
  });
  // The mail the draw sent the winner at the time (the outbox keeps what would have been sent).
  const settledAt = new Date(drawnAt.getTime() + PRIZE_SETTLEMENT_DAYS * DAY);
  const claimBy = claimDeadline(drawnAt);
  const mail = winnerMail(winnerName, formatCents(mainPrize, POOL_CURRENCY), settledAt.toISOString().slice(0, 10), {
    url: `/prize-claim/${poolId}`,
    by: claimBy.toISOString().slice(0, 10),
  });
  rows.mailOutbox.push({
    toAddress: seed.personById.get(winner.userId)!.email,
    subject: mail.subject,
    textBody: mail.text,
    createdAt: drawnAt,
  });
  const paidAt = new Date(settledAt.getTime() + DAY);
  const payoutId = crypto.randomUUID();
  const confirmedAt = new Date(drawnAt.getTime() + 3 * DAY);
  rows.prizeClaims.push({
    poolId,
    entryNumber: winner.entryNumber,
    userId: winner.userId,
    payoutId,
    prizeAmountCents: mainPrize,
    currency: POOL_CURRENCY,
    noticedAt: drawnAt,
    claimBy,
    confirmedAt,
    legalName: winnerName,
    withholdName,
    idCheckedAt: new Date(confirmedAt.getTime() + 2 * DAY),
    idCheckedBy: seed.admin.id,
    idCheckNote: "Passport seen by video call; date of birth checked (18+).",
    createdAt: drawnAt,
  });
  rows.payouts.push({
    id: payoutId,
    userId: winner.userId,
    amountCents: mainPrize,
    currency: POOL_CURRENCY,
    payoutType: "prize_winner",
    prizeWinnerId,
    status: "completed",
    manualNote: "Paid by bank transfer after the settlement period.",
    payableAt: settledAt,
    completedAt: paidAt,
    createdAt: drawnAt,
    updatedAt: paidAt,
  });
}

/** The mini prize, drawn from the same block by the rule (domain/mini-prizes.ts), as the cron does. */
async function awardMiniPrizes(seed: Seed, drawn: Drawn): Promise<void> {
  const { host, poolId, miniPrizeId, block, entries, winner, drawnAt } = drawn;
  const miniAwards = await drawMiniPrizes(
    block.id,
    [{ quantityText: host.spec.miniPrizes[0]![2] }],
    miniPrizeCandidates(entries, winner.userId),
  );
  for (const award of miniAwards) {
    seed.rows.miniPrizeWinners.push({
      miniPrizeId,
      poolId,
      userId: award.userId,
      entryNumber: award.entryNumber,
      // The other hosts delivered theirs; the demo host still has theirs to mark delivered.
      deliveredAt: host === seed.demoHost ? null : new Date(drawnAt.getTime() + 5 * DAY),
      createdAt: drawnAt,
    });
  }
}

export async function addDrawnPools(seed: Seed): Promise<void> {
  const drawnHosts = [seed.demoHost, seed.hosts[1]!];
  for (const [index, host] of drawnHosts.entries()) {
    const drawn = await draw(seed, host, index, HISTORICAL_DRAWS[index]!);
    const { poolId, amount, drawnAt } = drawn;
    // The host's 25% is booked once the settlement period is over.
    const settledAt = new Date(drawnAt.getTime() + PRIZE_SETTLEMENT_DAYS * DAY);
    awardMainPrize(seed, drawn, index === 1);
    await awardMiniPrizes(seed, drawn);
    seed.rows.earningsLedger.push(
      poolShareEarning({ id: poolId, hostId: host.id, amountCents: amount, currency: POOL_CURRENCY, settledAt }),
    );
  }
}
