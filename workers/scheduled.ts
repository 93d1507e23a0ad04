import { getDb } from "~/db/client.server";
import { eraseClosedOrdersOfDeletedAccounts } from "~/db/queries/account-data.server";
import { purgeExpiredAuthRows } from "~/db/queries/accounts.server";
import { runPoolCron } from "~/lib/draw.server";
import { resumeUnfinishedFulfilments } from "~/lib/payments/fulfil/fulfil.server";
import { runGroupBuyCron } from "~/lib/payments/refunds/group-buy-close.server";
import { applyHeldPaymentEvents } from "~/lib/payments/webhook/webhook.server";
import { runPrizeCron } from "~/lib/payments/connect/prizes.server";
import { runUnclaimedPrizeCron } from "~/lib/prize-claims.server";
import { removeUnattachedUploads } from "~/lib/uploads.server";
import { deliverDueNotifications } from "~/lib/notify.server";
import { tellPoolEntrants } from "~/lib/pool-notices.server";

/**
 * The cron trigger: runs every minute (see wrangler.toml). Each step catches its own failure so one broken step
 * never stops the others; whatever failed is retried on the next run.
 */
export async function runScheduled(env: Env, now: Date): Promise<void> {
  // Paid carts whose fulfilment was cut off before their pool contributions: resumed from what we recorded.
  try {
    const resumed = await resumeUnfinishedFulfilments(env, now);
    if (resumed.resumed.length + resumed.errors.length > 0)
      console.log("cron: fulfilments resumed", JSON.stringify(resumed));
  } catch (error) {
    console.error("cron: fulfilment recovery step failed", error);
  }

  // Refund and dispute events that arrived before their payment, now known (decision 380).
  try {
    const applied = await applyHeldPaymentEvents(env, null);
    if (applied > 0) console.log("cron: held payment events applied", applied);
  } catch (error) {
    console.error("cron: held payment events step failed", error);
  }

  // Prize pools: re-apply contributions the pool objects never confirmed, close expired pools, commit their draws
  // to a future Bitcoin block, draw the confirmed ones.
  try {
    const pools = await runPoolCron(env, now);
    if (
      pools.gamesEnded +
        pools.reapplied.length +
        pools.closed.length +
        pools.committed.length +
        pools.drawn.length +
        pools.errors.length >
      0
    ) {
      console.log("cron: pools", JSON.stringify(pools));
    }
  } catch (error) {
    console.error("cron: pools step failed", error);
  }

  // Expired sessions, password-reset links and e-mail confirmation links; deleted accounts' orders that have closed
  // lose their buyer data (decision 410).
  try {
    await purgeExpiredAuthRows(getDb(env), now);
    await eraseClosedOrdersOfDeletedAccounts(getDb(env), now);
  } catch (error) {
    console.error("cron: purge step failed", error);
  }

  // Uploads nothing uses after the grace period: removed from R2 (decision 430).
  try {
    const swept = await removeUnattachedUploads(env, now);
    if (swept.removed > 0) console.log("cron: unattached uploads removed", JSON.stringify(swept));
  } catch (error) {
    console.error("cron: uploads step failed", error);
  }

  // Group buys: finalise those past their end date (final tier, refunds, pool reversals) and resume unfinished ones.
  try {
    const groupBuys = await runGroupBuyCron(env, now);
    if (groupBuys.closed.length + groupBuys.errors.length > 0)
      console.log("cron: group buys", JSON.stringify(groupBuys));
  } catch (error) {
    console.error("cron: group buys step failed", error);
  }

  // Main prizes nobody claimed within 30 days of the winner notice: redrawn once, then carried over (decision 540).
  try {
    const unclaimed = await runUnclaimedPrizeCron(env, now);
    if (unclaimed.redrawn.length + unclaimed.carried.length + unclaimed.voided > 0)
      console.log("cron: unclaimed prizes", JSON.stringify(unclaimed));
  } catch (error) {
    console.error("cron: unclaimed prizes step failed", error);
  }
  // Closed and drawn pools: their entrants (and host) told, a chunk of accounts per run (decision 570).
  try {
    const notices = await tellPoolEntrants(env, now);
    if (notices.pools > 0) console.log("cron: pool notices", JSON.stringify(notices));
  } catch (error) {
    console.error("cron: pool notices step failed", error);
  }

  // Winners paid: draw mini prizes, announce new main prizes, transfer those past the settlement period, book the
  // hosts' 25%.
  try {
    const prizes = await runPrizeCron(env, now);
    if (prizes.announced + prizes.paid + prizes.hostShares + prizes.miniPrizeWinners > 0)
      console.log("cron: prizes", JSON.stringify(prizes));
  } catch (error) {
    console.error("cron: prizes step failed", error);
  }

  // Notifications: the due e-mails and pushes (new ones not sent at once, and retries with backoff), a bounded
  // chunk per run. Last, so the steps above have made theirs.
  try {
    const delivered = await deliverDueNotifications(env, now);
    if (delivered.claimed > 0) console.log("cron: notifications delivered", JSON.stringify(delivered));
  } catch (error) {
    console.error("cron: notification delivery step failed", error);
  }
}
