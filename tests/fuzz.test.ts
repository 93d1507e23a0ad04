import { env, SELF } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { getOrCreateConversation } from "~/db/queries/chat.server";
import { SOCKET_POLICY_CLOSE } from "~/domain/socket-budget";
import { chatSocketPath } from "~/lib/chat-live";
import { openPool } from "~/lib/pools.server";
import { RATE_LIMITED_MESSAGE } from "~/lib/rate-limit.server";
import { db, ORIGIN, randomIp } from "./helpers";
import { closeAll, openTestSocket, waitForMessages } from "./support/sockets";
import {
  apiMutations,
  makeWorld,
  type Mutation,
  ownerFields,
  pageMutations,
  snapshot,
  urlOf,
  type World,
} from "./support/mutations";

// Property-based fuzzing of every page action and API mutation (the list comes from the source): random fields and
// values, sent by the owner of the things they name (the role with the most rights). Whatever comes in, the answer
// is never a server error, and a refusal (4xx) carries a message and changes nothing.

const mutations = [...pageMutations(), ...apiMutations()];
let world: World;

// Four sign-ins (scrypt) while other test files run: more than the default hook time.
beforeAll(async () => {
  world = await makeWorld();
}, 120_000);

const FIELD_NAMES = [
  "intent",
  "id",
  "productId",
  "gameId",
  "groupBuyId",
  "orderId",
  "code",
  "hostId",
  "status",
  "name",
  "email",
  "password",
  "confirmPassword",
  "price",
  "quantity",
  "size",
  "color",
  "answer",
  "message",
  "amount",
  "token",
  "trackingNumber",
  "description",
  "category",
  "country",
  "website",
  "redirectTo",
  "on",
  "liked",
  "currency",
  "terms",
];

const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.integer().map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom(
    "",
    " ",
    "-1",
    "0",
    "1e309",
    "NaN",
    "null",
    "undefined",
    "true",
    "[]",
    "{}",
    "<script>x</script>",
    "' OR 1=1 --",
    "\u0000",
    "x".repeat(5000),
  ),
);

function fieldsArb(m: Mutation) {
  return fc
    .record({
      base: fc.boolean(),
      intent: m.intents.length ? fc.option(fc.constantFrom(...m.intents), { nil: undefined }) : fc.constant(undefined),
      extra: fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 8 }),
    })
    .map(({ base, intent, extra }) => ({
      ...(base ? ownerFields(world, intent) : {}),
      ...extra,
      ...(intent ? { intent } : {}),
    }));
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
  it("never answers with a server error; a refusal has a message and changes nothing", async () => {
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
          if (res.status === 429 && text.includes(RATE_LIMITED_MESSAGE))
            failures.push(`${label}: rate-limited (raise RATE_LIMIT_ACCOUNT in vitest.config.ts)`);
          if (res.status >= 400 && res.status < 500) {
            if (text.trim().length === 0) failures.push(`${label}: refused without a message`);
            if ((await snapshot()) !== before) failures.push(`${label}: refused but changed data`);
          }
        }),
        { numRuns: 4, seed: 20261122 },
      );
    }
    expect(failures).toEqual([]);
  }, 900_000);
});

// The live sockets take whatever a client sends (decision 430): random text and bytes, in bursts, on a pool socket,
// the page's multiplexed socket and a chat socket. The socket stays open or is closed for its budget (1008), the
// object keeps answering a new socket, and nothing in D1 changes.
describe("fuzzing the live sockets", () => {
  const message = fc.oneof(
    fc.constantFrom("state", "ping", "", " ", "STATE", "state ", "{}", '{"type":"pool"}', "x".repeat(5000)),
    fc.string({ maxLength: 60 }),
    fc.uint8Array({ maxLength: 64 }),
  );

  it("never fails on any message: open, or closed for its budget, and the object still answers", async () => {
    const pool = await openPool(env, { hostId: world.owner.id, targetCents: 10_000_000 });
    const conversationId = await getOrCreateConversation(db(), world.owner.id, world.fan.id);
    const paths = [`/api/pools/${pool.id}/live`, `/api/pools/live?ids=${pool.id}`, chatSocketPath(conversationId)];
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.array(message, { maxLength: 30 }), async (path, messages) => {
        const before = await snapshot();
        const socket = await openTestSocket(path, { address: randomIp(), cookie: world.owner.cookie });
        if (socket.status !== 101) {
          failures.push(`${path}: ${socket.status}`);
          return;
        }
        for (const m of messages) {
          try {
            socket.ws!.send(m);
          } catch {
            break; // Closed for its budget.
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (socket.closedWith && socket.closedWith.code !== SOCKET_POLICY_CLOSE) {
          failures.push(
            `${path} ${JSON.stringify(messages).slice(0, 200)}: closed with ${socket.closedWith.code} ${socket.closedWith.reason}`,
          );
        }
        closeAll([socket]);
        if (!path.startsWith("/api/chat/")) {
          const fresh = await openTestSocket(path, { address: randomIp() });
          await waitForMessages(fresh, 1);
          closeAll([fresh]);
        }
        if ((await snapshot()) !== before)
          failures.push(`${path} ${JSON.stringify(messages).slice(0, 200)}: changed data`);
      }),
      { numRuns: 20, seed: 20261126 },
    );
    expect(failures).toEqual([]);
  }, 300_000);
});
