/** Demo mode (seeded demo accounts, "Try the demo", the dev outbox): on locally, off in production. */
export function isDemoMode(env: Pick<Env, "DEMO_MODE">): boolean {
  return env.DEMO_MODE === "true";
}
