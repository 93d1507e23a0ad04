// Free and postal entries (issue 29, decision 530): a few fans' free entries through the form (one a day each, from
// their own addresses) and a postal card the platform owner recorded, in a pool's ledger like any entry (0 cents).
import { freeEntryKey, postalEntryKey, utcDay } from "../../app/domain/free-entries";
import type { Host, Seed } from "./context";

/**
 * Adds `free` free entries and `postal` postal entries to the pool between `from` and `to`, by fans other than the
 * host and the demo fan (who is left to try the form), chosen in turn from `offset`. No random draws: the rest of
 * the demo data stays as it was.
 */
export function addFreeAndPostalEntries(
  seed: Seed,
  host: Host,
  poolId: string,
  window: { from: Date; to: Date },
  counts: { free: number; postal: number; offset: number },
): void {
  const fans = seed.fans.filter((fan) => fan.id !== host.id && fan.id !== seed.demoFan.id);
  const span = window.to.getTime() - window.from.getTime();
  const total = counts.free + counts.postal;
  for (let i = 0; i < total; i++) {
    const fan = fans[(counts.offset + i) % fans.length]!;
    const at = new Date(window.from.getTime() + Math.round(((i + 1) / (total + 1)) * span));
    const day = utcDay(at);
    if (i < counts.free) {
      const row: (typeof seed.rows.freeEntries)[number] = {
        poolId,
        hostId: host.id,
        userId: fan.id,
        entryDay: day,
        // Documentation addresses (RFC 5737 TEST-NET-3).
        address: `203.0.113.${((counts.offset + i) % 250) + 1}`,
        sourceKey: freeEntryKey(poolId, fan.id, day),
        createdAt: at,
      };
      seed.rows.freeEntries.push(row);
      seed.pools.event(poolId, {
        at,
        userId: fan.id,
        sourceType: "free_entry",
        sourceKey: row.sourceKey,
        contributionCents: 0,
        earnsEntry: true,
        onEntry: (entryNumber) => {
          row.entryNumber = entryNumber;
        },
      });
    } else {
      const cardReference = `PC-${day.replaceAll("-", "")}-${poolId.slice(0, 6).toUpperCase()}-${i}`;
      const row: (typeof seed.rows.postalEntries)[number] = {
        cardReference,
        hostId: host.id,
        poolId,
        userId: fan.id,
        receivedOn: day,
        recordedBy: seed.admin.id,
        sourceKey: postalEntryKey(cardReference),
        createdAt: at,
      };
      seed.rows.postalEntries.push(row);
      seed.pools.event(poolId, {
        at,
        userId: fan.id,
        sourceType: "postal_entry",
        sourceKey: row.sourceKey,
        contributionCents: 0,
        earnsEntry: true,
        onEntry: (entryNumber) => {
          row.entryNumber = entryNumber;
        },
      });
    }
  }
}

/** The open pools' free routes: the demo host's pool has three free entries and a card, another host's one free entry. */
export function addOpenPoolFreeEntries(seed: Seed, pools: Map<string, string>): void {
  const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000);
  const plan = [
    { host: seed.demoHost, free: 3, postal: 1, offset: 3 },
    { host: seed.hosts[1]!, free: 1, postal: 0, offset: 9 },
  ];
  for (const { host, ...counts } of plan) {
    const poolId = pools.get(host.id)!;
    const pool = seed.rows.prizePools.find((p) => p.id === poolId)!;
    const from = new Date(new Date(pool.startAt!).getTime() + 24 * 60 * 60 * 1000);
    addFreeAndPostalEntries(seed, host, poolId, { from, to: yesterday }, counts);
  }
}
