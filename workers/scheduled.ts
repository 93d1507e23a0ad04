/** The cron trigger: runs every minute (see wrangler.toml). */
export async function runScheduled(_env: Env, _now: Date): Promise<void> {
  // Pool closing, block fetching and draws are added with the prize-pool work.
}
