import { describe, expect, it } from "vitest";

// The codebase's layout rules, checked on the source files themselves (read as text at build time): data access
// only in app/db, nothing in app/ imports workers/, and payments as one pipeline in folders by step
// (app/lib/payments/README.md maps each step to its files).

const appFiles = import.meta.glob<string>("/app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });
const workerFiles = import.meta.glob<string>("/workers/**/*.ts", { query: "?raw", import: "default", eager: true });
const paymentsReadme = import.meta.glob<string>("/app/lib/payments/README.md", {
  query: "?raw",
  import: "default",
  eager: true,
})["/app/lib/payments/README.md"];

const IMPORT = /(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? "");
}

const isDrizzle = (spec: string) => spec === "drizzle-orm" || spec.startsWith("drizzle-orm/");
const isWorkers = (spec: string) =>
  /^(?:\.\.\/)+workers\//.test(spec) || spec.startsWith("workers/") || spec.startsWith("/workers/");

export function drizzleOffenders(files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(([path, text]) => !path.startsWith("/app/db/") && importsOf(text).some(isDrizzle))
    .map(([path]) => path)
    .sort();
}

export function workersImporters(files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(([, text]) => importsOf(text).some(isWorkers))
    .map(([path]) => path)
    .sort();
}

const PAYMENTS = "/app/lib/payments/";
/** The pipeline's steps, a folder each, and `shared` for what several steps read. */
const PAYMENT_STEPS = ["checkout", "providers", "webhook", "fulfil", "refunds", "connect", "shared"] as const;
/** Leaves: they import no other payments file, so a provider and the code that picks it never import each other. */
const PAYMENT_LEAVES = [`${PAYMENTS}shared/`, `${PAYMENTS}providers/types.ts`, `${PAYMENTS}connect/connect-types.ts`];
/** The providers: they hand their events back to their caller and never import the webhook. */
const PROVIDERS = [`${PAYMENTS}providers/local.server.ts`, `${PAYMENTS}providers/stripe.server.ts`];

/** The file an import names, from the file importing it ("~/" is app/), or null for a package. */
function resolveImport(from: string, spec: string): string | null {
  if (spec.startsWith("~/")) return `/app/${spec.slice(2)}`;
  if (!spec.startsWith(".")) return null;
  const parts = from.split("/").slice(0, -1);
  for (const part of spec.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

/** Payments files outside a step's folder (the README aside). */
export function paymentsOutsideSteps(files: Record<string, string>): string[] {
  return Object.keys(files)
    .filter((path) => path.startsWith(PAYMENTS))
    .filter((path) => !PAYMENT_STEPS.some((step) => path.startsWith(`${PAYMENTS}${step}/`)))
    .sort();
}

/** Payments files the README does not name (by their path under app/lib/payments). */
export function paymentsNotInReadme(files: Record<string, string>, readme: string): string[] {
  return Object.keys(files)
    .filter((path) => path.startsWith(PAYMENTS) && !readme.includes(`\`${path.slice(PAYMENTS.length)}\``))
    .sort();
}

/** Imports that break the pipeline's rules: a leaf importing payments, a provider importing the webhook, import(). */
export function paymentsRuleBreaks(files: Record<string, string>): string[] {
  const breaks: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    if (!path.startsWith(PAYMENTS)) continue;
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? "";
      if (m[2] !== undefined) breaks.push(`${path}: import("${spec}")`);
      const target = resolveImport(path, spec);
      if (!target?.startsWith(PAYMENTS)) continue;
      if (PAYMENT_LEAVES.some((leaf) => path.startsWith(leaf)) && !target.startsWith(`${PAYMENTS}shared/`))
        breaks.push(`${path}: a leaf imports ${spec}`);
      if (PROVIDERS.includes(path) && target.startsWith(`${PAYMENTS}webhook/`))
        breaks.push(`${path}: a provider imports ${spec}`);
    }
  }
  return breaks.sort();
}

describe("layout", () => {
  it("reads the source tree", () => {
    expect(Object.keys(appFiles)).toContain("/app/db/schema/index.ts");
    expect(Object.keys(workerFiles)).toContain("/workers/app.ts");
  });

  it("imports drizzle-orm only in app/db", () => {
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

  it("keeps every payments file in its step's folder, named in the payments README", () => {
    expect(paymentsReadme).toBeDefined();
    expect(paymentsOutsideSteps(appFiles)).toEqual([]);
    expect(paymentsNotInReadme(appFiles, paymentsReadme!)).toEqual([]);
  });

  it("keeps the payments leaves leaves, and the providers away from the webhook, with no dynamic import", () => {
    expect(paymentsRuleBreaks(appFiles)).toEqual([]);
  });

  it("catches a payments file out of place (the checks can fail)", () => {
    const bad = {
      "/app/lib/payments/flat.server.ts": "",
      "/app/lib/payments/checkout/quote.server.ts": 'import { x } from "../providers/provider.server";\n',
      "/app/lib/payments/providers/types.ts": 'import type { T } from "../checkout/quote.server";\n',
      "/app/lib/payments/providers/local.server.ts":
        'import { y } from "~/lib/payments/webhook/webhook.server";\nconst z = await import("./local-events.server");\n',
    };
    expect(paymentsOutsideSteps(bad)).toEqual(["/app/lib/payments/flat.server.ts"]);
    expect(paymentsNotInReadme(bad, "`checkout/quote.server.ts` `providers/types.ts`")).toEqual([
      "/app/lib/payments/flat.server.ts",
      "/app/lib/payments/providers/local.server.ts",
    ]);
    expect(paymentsRuleBreaks(bad)).toEqual([
      "/app/lib/payments/providers/local.server.ts: a provider imports ~/lib/payments/webhook/webhook.server",
      '/app/lib/payments/providers/local.server.ts: import("./local-events.server")',
      "/app/lib/payments/providers/types.ts: a leaf imports ../checkout/quote.server",
    ]);
  });
});
