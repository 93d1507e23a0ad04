// One D1 round trip for the reads a request issues together.
//
// A page's loaders start their queries side by side (Promise.all), and each query used to be its own call to D1:
// its own request, JSON round trip and result parsing, which cost the Worker about as much CPU as a simple query
// itself (bench/results.md). This wrapper around the request's D1 session holds each read (a SELECT sent with
// raw() or all()) until the jobs queued with it have run, then sends every read held by then as one D1 batch:
// one call instead of several, with the same results. Writes, first(), explicit batches and everything
// else go to D1 at once, as before.
//
// D1's batch returns each row as an object keyed by column name, while drizzle reads its selects as arrays in
// column order (raw()), and a join's columns often share a name ("id", "currency"). A raw() read therefore travels
// in the batch with each unnamed item of its select list given a positional name (c0, c1, …), so no two collide;
// a read this cannot be done for (a `*`, no top-level FROM) is sent alone. Should a row still come back with fewer
// names than columns, or the batch fail, the read is sent again alone, so one query cannot spoil another's result.

type HeldRead = {
  /** The statement as sent in the batch. */
  batched: D1PreparedStatement;
  /** For raw(): how many columns each row has, in order; undefined for all(). */
  columns?: number;
  /** The same read sent on its own. */
  alone: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/** A D1 session whose concurrent reads travel together; what drizzle and the queries see as the request's DB. */
class ReadBatchingSession {
  private held: HeldRead[] = [];
  constructor(readonly session: D1DatabaseSession) {}

  prepare(sql: string): D1PreparedStatement {
    return new HeldStatement(this, sql, []) as unknown as D1PreparedStatement;
  }

  batch<R>(statements: D1PreparedStatement[]): Promise<D1Result<R>[]> {
    return this.session.batch<R>(statements.map((s) => (s instanceof HeldStatement ? s.statement : s)));
  }

  getBookmark() {
    return this.session.getBookmark();
  }

  hold(read: Omit<HeldRead, "resolve" | "reject">): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.held.push({ ...read, resolve, reject }) === 1) afterPendingJobs(() => void this.flush());
    });
  }

  private async flush() {
    const reads = this.held;
    this.held = [];
    if (reads.length === 1) return sendAlone(reads[0]!);
    let results: D1Result[];
    try {
      results = await this.session.batch(reads.map((read) => read.batched));
    } catch {
      reads.forEach(sendAlone);
      return;
    }
    reads.forEach((read, i) => {
      const result = results[i]!;
      if (read.columns === undefined) return read.resolve(result);
      const rows = result.results as Record<string, unknown>[];
      if (rows.length > 0 && Object.keys(rows[0]!).length !== read.columns) return sendAlone(read);
      read.resolve(rows.map((row) => Object.values(row)));
    });
  }
}

function sendAlone(read: HeldRead) {
  read.alone().then(read.resolve, read.reject);
}

/** Stands in for a D1 statement: the same methods, its reads held for the batch. */
class HeldStatement {
  private bound: D1PreparedStatement | undefined;
  constructor(
    private readonly owner: ReadBatchingSession,
    private readonly sql: string,
    private readonly values: unknown[],
  ) {}

  /** The session's own statement. */
  get statement(): D1PreparedStatement {
    this.bound ??= this.prepared(this.sql);
    return this.bound;
  }

  private prepared(sql: string): D1PreparedStatement {
    const statement = this.owner.session.prepare(sql);
    return this.values.length > 0 ? statement.bind(...this.values) : statement;
  }

  bind(...values: unknown[]) {
    return new HeldStatement(this.owner, this.sql, values);
  }

  first<R>(column?: string) {
    return column === undefined ? this.statement.first<R>() : this.statement.first<R>(column);
  }

  run<R>() {
    return this.statement.run<R>();
  }

  all<R>(): Promise<D1Result<R>> {
    if (!isRead(this.sql)) return this.statement.all<R>();
    return this.owner.hold({ batched: this.statement, alone: () => this.statement.all<R>() }) as Promise<D1Result<R>>;
  }

  raw(options?: { columnNames?: boolean }): Promise<unknown[]> {
    if (options?.columnNames) return this.statement.raw({ columnNames: true });
    const plan = isRead(this.sql) ? rawReadPlan(this.sql) : null;
    if (!plan) return this.statement.raw();
    const read = { batched: this.prepared(plan.sql), columns: plan.columns, alone: () => this.statement.raw() };
    return this.owner.hold(read) as Promise<unknown[]>;
  }
}

/** The request's D1 session with its concurrent reads batched (see the top of this file). */
export function batchingReads(session: D1DatabaseSession): D1Database {
  return new ReadBatchingSession(session) as unknown as D1Database;
}

const SETTLED = Promise.resolve();

/**
 * Runs `task` once the jobs queued so far, and those they queue in turn a few levels deep, have run: the reads of
 * one Promise.all (each started by its own queued job) are all held by then, without waiting for a timer. The jobs
 * are V8's own (a settled promise's reactions), not workerd's queueMicrotask: the runtime keeps a function handed
 * to it alive until a full collection, and with it the request's reads (decision 360).
 */
function afterPendingJobs(task: () => void, depth = 4): void {
  void SETTLED.then(depth === 0 ? task : () => afterPendingJobs(task, depth - 1));
}

/** A statement that only reads: a SELECT, or a WITH that writes nothing. */
export function isRead(sql: string): boolean {
  const head = sql.trimStart().slice(0, 6).toLowerCase();
  if (head === "select") return !/\breturning\b/i.test(sql);
  if (head.startsWith("with")) return !/\b(insert|update|delete|replace|returning)\b/i.test(sql);
  return false;
}

type RawReadPlan = { sql: string; columns: number };

const plans = new Map<string, RawReadPlan | null>();
const PLAN_CACHE_LIMIT = 1000;

/** A raw() read as it travels in a batch (see the top), or null when it must go alone. Kept per SQL text. */
function rawReadPlan(sql: string): RawReadPlan | null {
  let plan = plans.get(sql);
  if (plan === undefined) {
    plan = namedColumnsSql(sql);
    if (plans.size >= PLAN_CACHE_LIMIT) plans.clear();
    plans.set(sql, plan);
  }
  return plan;
}

/**
 * The SELECT with every item of its select list that has no alias of its own named by its position (c0, c1, …), and
 * how many columns it returns; null when the statement is not a plain `select … from …` this reader understands
 * (a `*`, no top-level FROM) or its names would still collide. Other clauses may name a result column by an alias,
 * so existing aliases stay; SQLite resolves any other name in them to the same table column as before.
 */
export function namedColumnsSql(sql: string): RawReadPlan | null {
  const list = selectList(sql);
  if (!list) return null;
  const names: string[] = [];
  const items = list.items.map((item, i) => {
    const expression = item.trim();
    const alias = /\s+as\s+("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*)$/i.exec(expression);
    if (alias) {
      names.push(unquote(alias[1]!));
      return expression;
    }
    names.push(`c${i}`);
    return `${expression} as "c${i}"`;
  });
  if (list.items.some((item) => /^\s*(\*|.*\.\*)\s*$/.test(item))) return null;
  if (new Set(names).size !== names.length || names.some((name) => /^(0|[1-9][0-9]*)$/.test(name))) return null;
  return { sql: `${list.head}${items.join(", ")}${list.tail}`, columns: names.length };
}

/** A SELECT cut into its head ("select ", "select distinct "), the items of its select list and the rest. */
function selectList(sql: string): { head: string; items: string[]; tail: string } | null {
  const start = /^\s*select\s+(distinct\s+|all\s+)?/i.exec(sql);
  // A comment could hide a quote or a comma from this reader.
  if (!start || sql.includes("--") || sql.includes("/*")) return null;
  const items: string[] = [];
  let depth = 0;
  let itemStart = start[0].length;
  for (let i = itemStart; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === "`") {
      const close = endOfQuoted(sql, i, c);
      if (close < 0) return null;
      i = close;
    } else if (c === "[") {
      const close = sql.indexOf("]", i);
      if (close < 0) return null;
      i = close;
    } else if (c === "(") {
      depth += 1;
    } else if (c === ")") {
      depth -= 1;
    } else if (depth === 0 && c === ",") {
      items.push(sql.slice(itemStart, i));
      itemStart = i + 1;
    } else if (depth === 0 && /\s/.test(c) && /^\s+from\b/i.test(sql.slice(i, i + 12))) {
      items.push(sql.slice(itemStart, i));
      return items.some((item) => item.trim() === "") ? null : { head: start[0], items, tail: sql.slice(i) };
    }
  }
  return null;
}

/** The index of the quote closing the one at `open` (a doubled quote is part of the text), or -1. */
function endOfQuoted(text: string, open: number, quote: string): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] !== quote) continue;
    if (text[i + 1] === quote) {
      i += 1;
      continue;
    }
    return i;
  }
  return -1;
}

const unquote = (name: string) => (name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name);
