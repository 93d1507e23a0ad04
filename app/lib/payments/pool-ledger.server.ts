import type { Db } from "~/db/client.server";
import { findRecordedSource } from "~/db/queries/pools.server";
import { addContribution } from "~/lib/pools.server";

// The pipeline's pool-ledger step: money in (a contribution keyed by the payment) and, for refunds and lost
// disputes, money back (see refunds.server.ts). The pool module decides everything inside the pool.

type ContributionInput = Parameters<typeof addContribution>[1];

/** addContribution, with the ledger's own record as the answer when a repeat does not report the entry. */
export async function contribute(env: Env, db: Db, input: ContributionInput): Promise<{ poolId: string; entryNumber: number | null }> {
  const result = await addContribution(env, input);
  if (!result.duplicate || result.entryNumber !== null || !input.earnsEntry) return result;
  return (await findRecordedSource(db, input.sourceKey)) ?? result;
}
