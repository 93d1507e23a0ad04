import { SELF } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITED_MESSAGE } from "~/lib/rate-limit.server";
import { ORIGIN, randomIp } from "./helpers";
import { apiMutations, makeWorld, type Mutation, ownerFields, pageMutations, snapshot, urlOf, type World } from "./support/mutations";

// Property-based fuzzing of every page action and API mutation (the list comes from the source): random fields and
// values, sent by the owner of the things they name (the role with the most rights). Whatever comes in, the answer
// is never a server error, and a refusal (4xx) carries a message and changes nothing.

const mutations = [...pageMutations(), ...apiMutations()];
let world: World;

// Four sign-ins (scrypt) while other test files run: more than the default hook time.
beforeAll(async () => {
  world = await makeWorld();
}, 120_000);

const FIELD_NAMES = ["intent", "id", "productId", "gameId", "groupBuyId", "orderId", "code", "hostId", "status", "name",
  "email", "password", "confirmPassword", "price", "quantity", "size", "color", "answer", "message", "amount", "token",
  "trackingNumber", "description", "category", "country", "website", "redirectTo", "on", "liked", "currency", "terms"];

const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.integer().map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom("", " ", "-1", "0", "1e309", "NaN", "null", "undefined", "true", "[]", "{}", "<script>x</script>", "' OR 1=1 --", "\u0000", "x".repeat(5000)),
);

function fieldsArb(m: Mutation) {
  return fc
    .record({
      base: fc.boolean(),
      intent: m.intents.length ? fc.option(fc.constantFrom(...m.intents), { nil: undefined }) : fc.constant(undefined),
      extra: fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 8 }),
    })
    .map(({ base, intent, extra }) => ({ ...(base ? ownerFields(world, intent) : {}), ...extra, ...(intent ? { intent } : {}) }));
}

async function send(m: Mutation, fields: Record<string, string>, json: boolean): Promise<Response> {
  const headers = new Headers({ Origin: ORIGIN, "CF-Connecting-IP": randomIp(), Cookie: world.owner.cookie });
  let body: string;
  if (json) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(fields);
  } else {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(fields).toString();
  }
  return SELF.fetch(`${ORIGIN}${urlOf(m, world)}`, { method: m.method, headers, body, redirect: "manual" });
}

describe("fuzzing every mutation", () => {
  it(
    "never answers with a server error; a refusal has a message and changes nothing",
    async () => {
      const failures: string[] = [];
      for (const m of mutations) {
        // Signing out would end the session the rest of the run uses; its answer does not depend on fields.
        if (m.key === "routes/signout.tsx") continue;
        await fc.assert(
          fc.asyncProperty(fieldsArb(m), fc.boolean(), async (fields, json) => {
            const before = await snapshot();
            const res = await send(m, fields, json && !m.key.startsWith("routes/"));
            const text = await res.text();
            const label = `${m.key} ${JSON.stringify(fields).slice(0, 300)} → ${res.status}`;
            if (res.status >= 500) failures.push(`${label}: server error ${text.slice(0, 200)}`);
            // A refusal by the coarse rate limit would hide what the route does: the test limit must stay above this run.
            if (res.status === 429 && text.includes(RATE_LIMITED_MESSAGE)) failures.push(`${label}: rate-limited (raise RATE_LIMIT_ACCOUNT in vitest.config.ts)`);
            if (res.status >= 400 && res.status < 500) {
              if (text.trim().length === 0) failures.push(`${label}: refused without a message`);
              if ((await snapshot()) !== before) failures.push(`${label}: refused but changed data`);
            }
          }),
          { numRuns: 4, seed: 20261122 },
        );
      }
      expect(failures).toEqual([]);
    },
    900_000,
  );
});
