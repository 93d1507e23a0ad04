import { SELF, env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";

it("serves the home page", async () => {
  const res = await SELF.fetch("https://tribe.test/");
  expect(res.status).toBe(200);
  expect(await res.text()).toMatch(/Home.*1/);
});

it("runs the pool object", async () => {
  const stub = env.PRIZE_POOL.get(env.PRIZE_POOL.idFromName("p1"));
  const totals = await runInDurableObject(stub, (instance: any) => instance.totals());
  expect(totals).toEqual({ amountCents: 0, entries: 0 });
});
