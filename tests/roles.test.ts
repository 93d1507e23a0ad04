import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { getOrCreateConversation } from "~/db/queries/chat.server";
import { guessWinGames } from "~/db/schema";
import { SOCKET_CLOSE_REASONS, SOCKET_POLICY_CLOSE } from "~/domain/socket-budget";
import { chatSocketPath } from "~/lib/chat-live";
import { openPool } from "~/lib/pools.server";
import { db, makeSignedInUser, ORIGIN, postForm, randomIp, signIn } from "./helpers";
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

// Every page action and API mutation, sent as a visitor, a fan, another host, the owner of the things it names and
// the platform owner (admin): the status is checked, and where a role may not change anything, nothing in D1
// changed. The list of mutations comes from the source (tests/support/mutations.ts): one without a row here fails.

type Role = "visitor" | "fan" | "otherHost" | "owner" | "admin";
const ROLES: Role[] = ["visitor", "fan", "otherHost", "owner", "admin"];

/**
 * Who may change something through the mutation: anyone; any signed-in account (its own things); only the owner of
 * the host's things it names; only the buyer of the order it names (the fan); only the admin; or only someone
 * holding a secret (token, signature, checkout id) the test does not send, so nobody.
 */
type Who = "anyone" | "signed-in" | "owner" | "buyer" | "admin" | "secret";

const RULES: Record<string, Who> = {
  "routes/add-product.tsx": "signed-in",
  "routes/admin.tsx": "admin",
  "routes/buy-now.tsx": "signed-in",
  // A visitor's cart is their cookie; a fan's is their own rows: nobody reaches another's cart.
  "routes/cart.tsx": "anyone",
  "routes/chat.tsx": "signed-in",
  // The currency choice: a visitor's is their cookie, a fan's their own profile row (decision 620).
  "routes/currency.tsx": "anyone",
  "routes/confirm-email.tsx": "secret",
  "routes/create-guess-win.tsx": "signed-in",
  "routes/delete-product.tsx": "owner",
  "routes/edit-game.tsx": "owner",
  "routes/edit-product.tsx": "owner",
  // A free entry: any signed-in account, into someone else's pool (decision 530).
  "routes/enter-free.tsx": "signed-in",
  "routes/forgot-password.tsx": "anyone",
  "routes/group-buy-detail.tsx": "signed-in",
  "routes/group-buy-management.tsx": "owner",
  "routes/group-buy-product-selection.tsx": "signed-in",
  "routes/guess-win-management.tsx": "owner",
  "routes/guess-win.tsx": "signed-in",
  "routes/my-orders.tsx": "buyer",
  // One's own inbox only (another's notification is answered as missing).
  "routes/notifications.tsx": "signed-in",
  "routes/order.tsx": "buyer",
  "routes/orders.tsx": "owner",
  "routes/payment.tsx": "signed-in",
  "routes/payouts-local-onboarding.tsx": "secret",
  "routes/payouts.tsx": "signed-in",
  // The winner's claim of a main prize (decision 540): any other account gets 404 and changes nothing.
  "routes/prize-claim.tsx": "signed-in",
  "routes/prize-pool-management.tsx": "owner",
  "routes/prize-pool-settings.tsx": "signed-in",
  "routes/product.tsx": "signed-in",
  "routes/reset-password.tsx": "secret",
  "routes/revenue-management.tsx": "signed-in",
  "routes/settings/layout.tsx": "signed-in",
  // The button of the e-mail change link mailed to the new address (decision 410): only its token changes anything.
  "routes/settings-confirm-email.tsx": "secret",
  // The button of the link that adds guest orders to the account they were paid with (decision 410).
  "routes/settings-claim-orders.tsx": "secret",
  "routes/signin.tsx": "anyone",
  // The one-time sign-in link mailed past the ceiling of failed sign-ins (decision 410).
  "routes/signin-link.tsx": "secret",
  "routes/signout.tsx": "anyone",
  "routes/signup.tsx": "anyone",
  // A fan's own monthly spending limit on entries (decision 520).
  "routes/spending-limit.tsx": "signed-in",
  "routes/tribe-join.tsx": "signed-in",
  // The signed per-account, per-category URL is the secret.
  "routes/unsubscribe.tsx": "secret",
  "routes/voucher-scanner.tsx": "owner",
  // Remove from one's own wishlist (decision 610): the like removed is always the signed-in fan's.
  "routes/wishlist.tsx": "signed-in",
  "POST /api/webhooks/stripe": "secret",
  "POST /api/webhooks/stripe-connect": "secret",
  "POST /api/local-checkout/:id/pay": "secret",
  "POST /api/local-checkout/:id/bank-transfer": "secret",
  "POST /api/local-checkout/:id/bank-transfer/arrive": "secret",
  "POST /api/local-checkout/:id/cancel": "secret",
  "POST /api/local-checkout/:id/dispute": "secret",
  "POST /api/local-checkout/:id/refund-failure": "secret",
  "POST /api/uploads/image": "signed-in",
  "POST /api/uploads/file": "signed-in",
  "POST /api/uploads/video": "signed-in",
  "PUT /api/uploads/video/:uploadId/parts/:n": "secret",
  "POST /api/uploads/video/:uploadId/complete": "secret",
  "DELETE /api/uploads/video/:uploadId": "secret",
};

function mayChange(who: Who, role: Role): boolean {
  switch (who) {
    case "anyone":
      return true;
    case "signed-in":
      return role !== "visitor";
    case "owner":
      return role === "owner";
    case "buyer":
      return role === "fan";
    case "admin":
      return role === "admin";
    case "secret":
      return false;
  }
}

const mutations = [...pageMutations(), ...apiMutations()];
let world: World;

// Four sign-ins (scrypt) while other test files run: more than the default hook time.
beforeAll(async () => {
  world = await makeWorld();
}, 120_000);

async function send(m: Mutation, role: Role, fields: Record<string, string>): Promise<Response> {
  const headers = new Headers({ Origin: ORIGIN, "CF-Connecting-IP": randomIp() });
  if (role !== "visitor") headers.set("Cookie", world[role].cookie);
  let body: string;
  if (m.key.startsWith("routes/")) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(fields).toString();
  } else {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(fields);
  }
  return SELF.fetch(`${ORIGIN}${urlOf(m, world)}`, {
    method: m.method,
    headers,
    body: m.method === "GET" ? undefined : body,
    redirect: "manual",
  });
}

describe("every mutation against every role", () => {
  it("finds the app's mutations in the source", () => {
    expect(mutations.length).toBeGreaterThan(30);
    expect(mutations.map((m) => m.key)).toContain("routes/edit-product.tsx");
    expect(mutations.map((m) => m.key)).toContain("POST /api/uploads/image");
  });

  it("has a row for every mutation (a new action needs one)", () => {
    const missing = mutations.map((m) => m.key).filter((key) => !(key in RULES));
    expect(missing, "add these to RULES in tests/roles.test.ts").toEqual([]);
    const stale = Object.keys(RULES).filter((key) => !mutations.some((m) => m.key === key));
    expect(stale, "these mutations no longer exist").toEqual([]);
  });

  it("answers each role as its row says and changes nothing where the role may not: 0 leaks", async () => {
    const leaks: string[] = [];
    for (const m of mutations) {
      const who = RULES[m.key];
      if (!who) continue;
      for (const intent of [undefined, ...m.intents]) {
        for (const role of ROLES) {
          const before = await snapshot();
          const res = await send(m, role, ownerFields(world, intent));
          const after = await snapshot();
          const label = `${m.key}${intent ? ` intent=${intent}` : ""} as ${role}: ${res.status}`;
          if (res.status >= 500) leaks.push(`${label} (server error)`);
          if (!mayChange(who, role)) {
            if (before !== after) leaks.push(`${label} changed data it must not`);
            if (res.status < 300) leaks.push(`${label} answered as if it was allowed`);
            const location = res.headers.get("Location") ?? "";
            if (
              role === "visitor" &&
              who !== "secret" &&
              res.status >= 300 &&
              res.status < 400 &&
              !location.startsWith("/signin")
            ) {
              leaks.push(`${label} redirected a visitor to ${location} instead of sign-in`);
            }
          }
          await res.body?.cancel();
          // Signing out ends the session the next rows need.
          if (m.key === "routes/signout.tsx" && role !== "visitor")
            world[role].cookie = await signIn(world[role].email);
        }
      }
    }
    expect(leaks).toEqual([]);
  }, 600_000);
});

describe("a refused post keeps the signed-in header", () => {
  it("shows the signed-in account in the header of a 403 answered to a POST (route without its own error boundary)", async () => {
    const fan = await makeSignedInUser({ name: "Header Fan" });
    const res = await postForm(
      "/admin",
      { intent: "status", userId: fan.id, status: "suspended" },
      { cookie: fan.cookie },
    );
    expect(res.status).toBe(403);
    const html = await res.text();
    expect(html).toContain("Header Fan");
    expect(html).toContain("Sign Out");
    expect(html).not.toContain('href="/signin"');
    expect(html).toContain("<title>Access denied · Tribe</title>");
  });

  it("and on a route with its own error boundary", async () => {
    const host = await makeSignedInUser({ name: "Owner Host" });
    const other = await makeSignedInUser({ name: "Other Header Host" });
    const [game] = await db()
      .insert(guessWinGames)
      .values({ hostId: host.id, question: "Whose game?", options: ["A", "B"], correctAnswer: "A", entryFeeCents: 300 })
      .returning();
    const res = await postForm(`/edit-game/${game!.id}`, { question: "Hijacked" }, { cookie: other.cookie });
    expect(res.status).toBe(403);
    const html = await res.text();
    expect(html).toContain("Other Header Host");
    expect(html).not.toContain('href="/signin"');
  });
});

// The live sockets (decision 430), for every role: pool sockets are public and budgeted for everyone; a chat socket
// opens for the conversation's two parties only (the owner and the fan here), never for another host or the admin.
describe("every socket against every role", () => {
  const CHAT_RULE: Record<Role, number> = { visitor: 401, fan: 101, otherHost: 404, owner: 101, admin: 404 };

  it("opens pool sockets for every role within the same budget, and a chat socket only for its two parties", async () => {
    const pool = await openPool(env, { hostId: world.owner.id, targetCents: 10_000_000 });
    const conversationId = await getOrCreateConversation(db(), world.owner.id, world.fan.id);
    const problems: string[] = [];
    for (const role of ROLES) {
      const cookie = role === "visitor" ? null : world[role].cookie;
      for (const path of [`/api/pools/${pool.id}/live`, `/api/pools/live?ids=${pool.id}`]) {
        const socket = await openTestSocket(path, { address: randomIp(), cookie });
        if (socket.status !== 101) {
          problems.push(`${path} as ${role}: ${socket.status}`);
          continue;
        }
        await waitForMessages(socket, 1);
        for (let i = 0; i < 50; i++) socket.ws!.send("state");
        const closed = await socket.closed;
        if (closed.code !== SOCKET_POLICY_CLOSE || closed.reason !== SOCKET_CLOSE_REASONS.tooManyMessages) {
          problems.push(`${path} as ${role}: a flood was closed with ${closed.code} ${closed.reason}`);
        }
      }
      const chat = await openTestSocket(chatSocketPath(conversationId), { address: randomIp(), cookie });
      if (chat.status !== CHAT_RULE[role])
        problems.push(`chat socket as ${role}: ${chat.status}, expected ${CHAT_RULE[role]}`);
      closeAll([chat]);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
