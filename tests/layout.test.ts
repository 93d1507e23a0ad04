import { describe, expect, it } from "vitest";

// The codebase's layout rules, checked on the source files themselves (read as text at build time): data access
// only in app/db (the pool object's D1 mirror is the one exception), and nothing in app/ imports workers/.

const appFiles = import.meta.glob<string>("/app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });
const workerFiles = import.meta.glob<string>("/workers/**/*.ts", { query: "?raw", import: "default", eager: true });

/** The PrizePool Durable Object keeps its own D1 mirror (see the decision record on the pool ledger). */
const DRIZZLE_EXCEPTIONS = new Set(["/workers/prize-pool.ts", "/workers/prize-pool-mirror.ts"]);

const IMPORT = /(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? "");
}

const isDrizzle = (spec: string) => spec === "drizzle-orm" || spec.startsWith("drizzle-orm/");
const isWorkers = (spec: string) =>
  /^(?:\.\.\/)+workers\//.test(spec) || spec.startsWith("workers/") || spec.startsWith("/workers/");

export function drizzleOffenders(files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(
      ([path, text]) =>
        !path.startsWith("/app/db/") && !DRIZZLE_EXCEPTIONS.has(path) && importsOf(text).some(isDrizzle),
    )
    .map(([path]) => path)
    .sort();
}

export function workersImporters(files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(([, text]) => importsOf(text).some(isWorkers))
    .map(([path]) => path)
    .sort();
}

describe("layout", () => {
  it("reads the source tree", () => {
    expect(Object.keys(appFiles)).toContain("/app/db/schema/index.ts");
    expect(Object.keys(workerFiles)).toContain("/workers/app.ts");
  });

  it("imports drizzle-orm only in app/db (and the pool object's D1 mirror)", () => {
    expect(drizzleOffenders({ ...appFiles, ...workerFiles })).toEqual([]);
  });

  it("never imports workers/ from app/", () => {
    expect(workersImporters(appFiles)).toEqual([]);
  });

  it("catches an offender (the check can fail)", () => {
    const bad = {
      "/app/lib/x.server.ts": 'import { eq } from "drizzle-orm";\n',
      "/app/components/y.ts": 'import type { T } from "../../workers/prize-pool";\n',
      "/app/db/queries/z.server.ts": 'import { eq } from "drizzle-orm";\n',
    };
    expect(drizzleOffenders(bad)).toEqual(["/app/lib/x.server.ts"]);
    expect(workersImporters(bad)).toEqual(["/app/components/y.ts"]);
  });
});
