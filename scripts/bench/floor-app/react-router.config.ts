import type { Config } from "@react-router/dev/config";

// The bench's stack floor (scripts/bench.mjs, step 4b): built into .wrangler/, never into the repo's build/.
export default {
  ssr: true,
  buildDirectory: "../../../.wrangler/bench-floor-build",
} satisfies Config;
