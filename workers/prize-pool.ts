import { DurableObject } from "cloudflare:workers";

/**
 * One instance per prize pool: the only writer of the pool's amount and entry list.
 * Contributions form an append-only ledger keyed by their source, so a source applied twice counts once.
 */
export class PrizePool extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => {
      this.sql.exec(`CREATE TABLE IF NOT EXISTS contributions (
        source_key TEXT PRIMARY KEY,
        entry_number INTEGER UNIQUE,
        source_type TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        currency TEXT NOT NULL,
        user_id TEXT,
        created_at INTEGER NOT NULL
      )`);
      this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    });
  }

  /** Sum of the ledger in cents and the number of entries issued so far. */
  totals(): { amountCents: number; entries: number } {
    const row = this.sql
      .exec<{ amount: number; entries: number }>(
        "SELECT COALESCE(SUM(amount_cents), 0) AS amount, COUNT(entry_number) AS entries FROM contributions",
      )
      .one();
    return { amountCents: row.amount, entries: row.entries };
  }
}
