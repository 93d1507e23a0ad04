// The bench's app with D1 in another process (scripts/bench.mjs, step 4b): the built Worker unchanged, its env.DB
// replaced by a client that posts each D1 call (a statement, or a batch) to scripts/bench/d1-host/worker.js over
// the loopback, the way a Worker's D1 binding sends each call to D1's own machines. The client does what the
// binding's client does in the Worker (serialise the statements, one fetch, parse the JSON answer), so the app's
// workerd then spends on D1 what the Worker would, and nothing of SQLite's or Miniflare's D1 work.
// Copied next to the build's index.js by the bench; BENCH_D1_HOST (a var) is the host's URL.
import app, { ChatRoom, PrizePool } from "./index.js";

export { ChatRoom, PrizePool };

async function call(host, mode, statements, session) {
  const response = await fetch(host, {
    method: "POST",
    body: JSON.stringify({ mode, statements, bookmark: session.bookmark }),
  });
  const answer = await response.json();
  if (answer.bookmark) session.bookmark = answer.bookmark;
  if (!answer.ok) throw new Error(`D1_ERROR: ${answer.error}`, { cause: new Error(answer.error) });
  return answer.result;
}

class RemoteStatement {
  constructor(session, sql, params = []) {
    this.session = session;
    this.sql = sql;
    this.params = params;
  }
  bind(...params) {
    return new RemoteStatement(
      this.session,
      this.sql,
      params.map((v) => (typeof v === "boolean" ? Number(v) : v)),
    );
  }
  send(mode) {
    return call(this.session.host, mode, [{ sql: this.sql, params: this.params }], this.session);
  }
  raw(options) {
    if (options?.columnNames) throw new Error("raw({ columnNames }) is not supported by the bench's remote D1");
    return this.send("raw");
  }
  all() {
    return this.send("all");
  }
  run() {
    return this.send("run");
  }
  async first(column) {
    const row = await this.send("first");
    return column && row ? row[column] : row;
  }
}

class RemoteSession {
  constructor(host, constraint) {
    this.host = host;
    this.bookmark = constraint && !constraint.startsWith("first-") ? constraint : null;
  }
  prepare(sql) {
    return new RemoteStatement(this, sql);
  }
  batch(statements) {
    return call(
      this.host,
      "batch",
      statements.map((s) => ({ sql: s.sql, params: s.params })),
      this,
    );
  }
  getBookmark() {
    return this.bookmark;
  }
  withSession(constraint) {
    return new RemoteSession(this.host, constraint);
  }
}

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, { ...env, DB: new RemoteSession(env.BENCH_D1_HOST, null) }, ctx);
  },
};
