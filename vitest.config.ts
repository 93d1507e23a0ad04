import { availableParallelism } from "node:os";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { createLogger, type PluginOption } from "vite";
import { defineConfig, type ViteUserConfig } from "vitest/config";

// The workerd tests run against the built Worker (`npm run build` first), so pages, loaders and actions are
// exercised exactly as they are deployed: this is what `npm test` and CI run. vitest.source.config.ts runs the same
// tests against the source instead, for a fast loop while working (`npm run test:source`, no build). Pure modules
// under app/ are imported directly by the tests.
export default defineConfig(() => workerdTests({ main: "./build/server/index.js" }));

/** The tests only the built Worker can pass: they check what the build plugins and the built page cache do. */
export const BUILT_ONLY_TESTS = [
  "tests/fizz-text-chunks.test.ts",
  "tests/react-router-route-tables.test.ts",
  "tests/page-cache.test.ts",
];

/** The workerd test configuration, given the Worker module to run (`main`) and what else it needs. */
export async function workerdTests(options: {
  main: string;
  plugins?: PluginOption[];
  exclude?: string[];
}): Promise<ViteUserConfig> {
  const migrations = await readD1Migrations("./migrations");
  return {
    resolve: { tsconfigPaths: true },
    customLogger: quietSourcemaps(),
    plugins: [
      ...(options.plugins ?? []),
      cloudflareTest({
        main: options.main,
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            DEMO_MODE: "true",
            // Demo mode serves only on localhost or a listed origin: the tests' own (tests/demo-mode.test.ts).
            DEMO_ORIGINS: "https://tribe.test",
            SESSION_SECRET: "test-session-secret",
            SELF_EXCLUSION_SECRET: "test-self-exclusion-secret",
            // The origin the tests send their requests to (tests/helpers.ts ORIGIN), for the links in mail.
            SITE_ORIGIN: "https://tribe.test",
            // Tests change data and read pages back at once: no page cache (tests/page-cache.test.ts covers it).
            PAGE_CACHE_SECONDS: "0",
            // The local push service of tests/push*.test.ts (honoured in demo mode only; decision 430).
            PUSH_TEST_HOST: "push.test",
            // The operator's postal entry address (shown in the rules; tests/responsible-play.test.ts).
            POSTAL_ENTRY_ADDRESS: "Tribe Prize Draws, PO Box 4021, Bristol BS1 9XY, United Kingdom",
          },
          // Mutation rate limits (production values in wrangler.toml). Tests send each request from a random address
          // unless they say otherwise (at most 31 from one, the sign-in throttle's test); the fuzz test sends every
          // mutation four times from one account (about 180). tests/security.test.ts goes over both.
          ratelimits: {
            RATE_LIMIT_ADDRESS: { namespace_id: "1201", simple: { limit: 40, period: 60 } },
            RATE_LIMIT_ACCOUNT: { namespace_id: "1202", simple: { limit: 400, period: 60 } },
          },
        },
      }),
    ],
    test: {
      include: ["tests/**/*.test.ts"],
      exclude: ["tests/e2e/**", ...(options.exclude ?? [])],
      setupFiles: ["./tests/setup/apply-migrations.ts"],
      // The Worker the tests call directly (tests/support/built-worker.ts testedWorker), the module `SELF` runs.
      provide: { testedWorker: options.main.replace(/^\./, "") },
      // Password hashing is deliberately slow (scrypt), so flows with many sign-ins need room.
      testTimeout: 30_000,
      // Some files sign several accounts up before their tests (tests/vouchers.test.ts): the same room.
      hookTimeout: 30_000,
      // Vitest runs one file at a time on two cores (its default is one worker fewer than the cores). A file's time is
      // mostly one workerd thread's CPU, so two files at once on two cores take about 0.63 of the time (measured on
      // ten files: 74 s against 47 s); more cores take one worker fewer, as the default.
      maxWorkers: Math.max(2, availableParallelism() - 1),
    },
  };
}

/** Vite's logger without the warnings about dependencies that ship source maps without their sources (stripe). */
function quietSourcemaps() {
  const logger = createLogger();
  const missingSources = /Sourcemap for .* points to missing source files/;
  const { warn, warnOnce } = logger;
  logger.warn = (message, options) => {
    if (!missingSources.test(message)) warn(message, options);
  };
  logger.warnOnce = (message, options) => {
    if (!missingSources.test(message)) warnOnce(message, options);
  };
  return logger;
}
