import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";

/**
 * A request answered by the built Worker (vitest.config.ts `main`) with some bindings changed, e.g. the page cache
 * on (PAGE_CACHE_SECONDS) or demo mode's origins, which the test configuration sets once for every other test.
 * Waits for the Worker's background work (the page cache's store) before returning the answer.
 */
export async function builtWorkerFetch(
  request: Request,
  bindings: Partial<Record<keyof Env, string>> = {},
): Promise<Response> {
  const main = "../../build/server/index.js";
  const worker = ((await import(/* @vite-ignore */ main)) as { default: ExportedHandler<Env> }).default;
  const ctx = createExecutionContext();
  const res = await worker.fetch!(
    request as Request<unknown, IncomingRequestCfProperties>,
    { ...env, ...bindings } as Env,
    ctx,
  );
  const body = await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(res.status === 101 ? null : body, res);
}
