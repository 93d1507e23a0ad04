import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The Worker module the tests run against (vitest.config.ts: the build; vitest.source.config.ts: the source). */
    testedWorker: string;
  }
}

/**
 * The Worker the tests run against: the built one (vitest.config.ts `main`, what CI tests) or the source
 * (vitest.source.config.ts, `npm run test:source`). Each config provides its path as `testedWorker`; it is
 * loaded by path so the type checker leaves the bundle alone, and it is the same module instance `SELF` answers from.
 */
export async function testedWorker(): Promise<ExportedHandler<Env>> {
  return ((await import(/* @vite-ignore */ inject("testedWorker"))) as { default: ExportedHandler<Env> }).default;
}

/**
 * A request answered by the Worker under test (testedWorker) with some bindings changed, e.g. the page cache
 * on (PAGE_CACHE_SECONDS) or demo mode's origins, which the test configuration sets once for every other test.
 * Waits for the Worker's background work (the page cache's store) before returning the answer.
 */
export async function builtWorkerFetch(
  request: Request,
  bindings: Partial<Record<keyof Env, string>> = {},
): Promise<Response> {
  const worker = await testedWorker();
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
