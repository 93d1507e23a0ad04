// The database's side of the bench's out-of-process D1 (scripts/bench.mjs, step 4b): a Worker with the bench
// state's D1 binding that runs the statements the app posts to it and answers their results. Served in its own
// workerd by scripts/bench/serve.mjs (wrangler.toml next to this file), so SQLite and Miniflare's D1 plumbing
// run in another process than the app, as D1 runs on its own machines in production.
export default {
  async fetch(request, env) {
    if (request.method !== "POST") return new Response("ok");
    const { mode, statements, bookmark } = await request.json();
    const session = env.DB.withSession(bookmark || "first-unconstrained");
    const prepared = statements.map((s) => session.prepare(s.sql).bind(...s.params));
    try {
      let result;
      if (mode === "batch")
        result = (await session.batch(prepared)).map(({ results, meta }) => ({ success: true, results, meta }));
      else if (mode === "raw") result = await prepared[0].raw();
      else if (mode === "all") result = await prepared[0].all();
      else if (mode === "run") result = await prepared[0].run();
      else if (mode === "first") result = await prepared[0].first();
      else return Response.json({ ok: false, error: `unknown mode ${mode}` }, { status: 400 });
      return Response.json({ ok: true, result, bookmark: session.getBookmark() });
    } catch (error) {
      return Response.json({ ok: false, error: String(error?.cause?.message ?? error?.message ?? error) });
    }
  },
};
