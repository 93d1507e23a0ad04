// Pools and contributions: what feeds each pool or earns an entry is gathered per pool as events, then numbered
// 0..n-1 by time and written as contributions and entries, and the pool's totals set from them.
import type * as schema from "../../app/db/schema";
import { DEFAULT_PROFILE_POOL_TARGET_CENTS, POOL_CURRENCY } from "../../app/domain/pool";
import type { Host, PoolEvent, Rows } from "./context";
import { token } from "./random";

export class PoolLedger {
  private readonly events = new Map<string, PoolEvent[]>();

  constructor(private readonly rows: Rows) {}

  /** Adds a pool row (open) whose events are gathered from now on; returns its id. */
  add(pool: schema.NewPrizePool & { id: string }): string {
    this.events.set(pool.id, []);
    this.rows.prizePools.push(pool);
    return pool.id;
  }

  /** An open pool of the host's with the host's mini prizes. */
  open(host: Host, startAt: Date, endAt: Date): string {
    const id = this.add({
      id: crypto.randomUUID(),
      hostId: host.id,
      status: "open",
      targetCents: DEFAULT_PROFILE_POOL_TARGET_CENTS,
      currency: POOL_CURRENCY,
      autoRenew: true,
      startAt,
      endAt,
      createdAt: startAt,
      updatedAt: startAt,
    });
    for (const [name, amountText, quantityText] of host.spec.miniPrizes) {
      this.rows.prizeMiniPrizes.push({
        poolId: id,
        hostId: host.id,
        name,
        amountText,
        quantityText,
        createdAt: startAt,
      });
    }
    return id;
  }

  event(poolId: string, event: PoolEvent): void {
    this.events.get(poolId)!.push(event);
  }

  /** The cents the pool's events so far contribute. */
  contributedCents(poolId: string): number {
    return this.events.get(poolId)!.reduce((sum, e) => sum + e.contributionCents, 0);
  }

  /** The host's own deposit through a (local) checkout: 100% to the pool, no entry. */
  hostDeposit(poolId: string, host: Host, cents: number, at: Date): void {
    this.event(poolId, {
      at,
      userId: host.id,
      sourceType: "host_deposit",
      sourceKey: `cs_local_${token(24)}`,
      contributionCents: cents,
      earnsEntry: false,
    });
  }

  /** Numbers the entries 0..n-1 by time, writes contributions and entries, and sets the pool's totals. */
  finish(poolId: string, host: Host) {
    const events = this.events.get(poolId)!.sort((a, b) => a.at.getTime() - b.at.getTime());
    const entries: { entryNumber: number; sourceKey: string; userId: string | null; sourceType: string }[] = [];
    let amount = 0;
    for (const event of events) {
      let entryNumber: number | null = null;
      if (event.earnsEntry) {
        entryNumber = entries.length;
        entries.push({ entryNumber, sourceKey: event.sourceKey, userId: event.userId, sourceType: event.sourceType });
        this.rows.prizeEntries.push({
          poolId,
          entryNumber,
          userId: event.userId,
          sourceType:
            event.sourceType === "host_deposit" ? null : (event.sourceType as schema.NewPrizeEntry["sourceType"]),
          sourceKey: event.sourceKey,
          createdAt: event.at,
        });
        event.onEntry?.(entryNumber);
      }
      // A free or postal entry is a 0-cent row of the ledger, as the pool object writes it (decision 530).
      if (event.contributionCents > 0 || event.sourceType === "free_entry" || event.sourceType === "postal_entry") {
        amount += event.contributionCents;
        this.rows.prizePoolContributions.push({
          poolId,
          hostId: host.id,
          sourceType: event.sourceType,
          sourceKey: event.sourceKey,
          amountCents: event.contributionCents,
          currency: POOL_CURRENCY,
          userId: event.userId,
          entryNumber,
          createdAt: event.at,
        });
      }
    }
    const pool = this.rows.prizePools.find((p) => p.id === poolId)!;
    pool.amountCents = amount;
    pool.entriesCount = entries.length;
    return { pool, entries, amount };
  }
}
