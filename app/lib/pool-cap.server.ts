// The per-person cap on a pool's entries (issue 29 item 5): no account holds more than
// max(POOL_CAP_PERCENT of the pool's entries at the moment an entry is earned, POOL_CAP_FLOOR) entries. The pool's
// Durable Object applies it at fulfilment; this answers checkout's question "is an entry expected?".

/** Whether the account already holds as many entries in the host's open pool as one person may. */
export async function entryCapReached(_env: Env, _input: { hostId: string; userId: string }): Promise<boolean> {
  // Filled in by the cap work (issue 29 item 5): reads the open pool's entry counts.
  return false;
}
