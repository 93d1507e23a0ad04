// Pure builders of pool ledger source keys (a contribution's key counts it once in its pool's ledger and in D1's
// reservation table, app/db/queries/contribution-keys.server.ts).

/** The ledger key of a drawn pool's main prize nobody claimed after its redraw, carried to the host's next pool. */
export function unclaimedPrizeKey(poolId: string): string {
  return `unclaimed:${poolId}`;
}

/** The ledger keys of a no-entry pool's amount moving out of it and into the host's next pool. */
export function carryOverKey(poolId: string, direction: "out" | "in"): string {
  return `carry:${poolId}:${direction}`;
}
