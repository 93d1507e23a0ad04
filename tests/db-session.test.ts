import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DB_BOOKMARK_COOKIE, openDbSession } from "~/db/client.server";
import { cookieFrom, get, makeUser, ORIGIN, postForm, signIn } from "./helpers";

// Reads go through D1's Sessions API with the browser's bookmark (app/db/client.server.ts, used by workers/app.ts).

/** An Env whose DB records how sessions were opened. */
function recordingEnv(options: { reject?: string } = {}) {
  const opened: string[] = [];
  const DB = {
    withSession(constraint: string) {
      if (constraint === options.reject) throw new Error("D1_ERROR: invalid bookmark");
      opened.push(constraint);
      return { prepare: () => null, batch: async () => [], getBookmark: () => "00000001-00000002-00000003-abcdef" };
    },
  };
  return { env: { ...env, DB } as unknown as Env, opened };
}

const request = (path: string, cookie?: string) =>
  new Request(`${ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

describe("the D1 session of a request", () => {
  it("starts from the browser's bookmark, so a read after the fan's own write sees it on any replica", () => {
    const { env: fake, opened } = recordingEnv();
    const session = openDbSession(fake, request("/my-orders", `${DB_BOOKMARK_COOKIE}=0000000a-0000000b-0000000c-ffee`));
    expect(opened).toEqual(["0000000a-0000000b-0000000c-ffee"]);
    expect(session.constraint).toBe("0000000a-0000000b-0000000c-ffee");
    // The session moved on (its own write or a newer replica): the browser gets the newer bookmark.
    expect(session.bookmarkCookie()).toMatch(
      new RegExp(`^${DB_BOOKMARK_COOKIE}=00000001-00000002-00000003-abcdef; Path=/; HttpOnly; Secure`),
    );
  });

  it("reads the page after a payment from the primary: the webhook, not the browser, wrote the order", () => {
    const { env: fake, opened } = recordingEnv();
    openDbSession(fake, request("/payment/success?session_id=cs_1", `${DB_BOOKMARK_COOKIE}=0000000a-ffee`));
    expect(opened).toEqual(["first-primary"]);
  });

  it("a new browser starts anywhere; a malformed or refused bookmark is ignored, never an error", () => {
    const a = recordingEnv();
    openDbSession(a.env, request("/shop"));
    openDbSession(a.env, request("/shop", `${DB_BOOKMARK_COOKIE}=${encodeURIComponent("<script>")}`));
    expect(a.opened).toEqual(["first-unconstrained", "first-unconstrained"]);
    const b = recordingEnv({ reject: "0000dead-beef" });
    expect(openDbSession(b.env, request("/shop", `${DB_BOOKMARK_COOKIE}=0000dead-beef`)).constraint).toBe(
      "first-unconstrained",
    );
  });

  it("a signed-in fan's pages carry the session's bookmark back; a visitor's shared pages never do", async () => {
    const fan = await makeUser({ name: "Bookmark Fan" });
    const signin = await postForm("/signin", { email: fan.email, password: "correct-horse-battery" });
    expect(cookieFrom(signin, DB_BOOKMARK_COOKIE)).not.toBeNull();
    const cookie = await signIn(fan.email);
    const page = await get("/my-orders", { cookie });
    expect(page.status).toBe(200);
    const bookmark = cookieFrom(page, DB_BOOKMARK_COOKIE);
    expect(bookmark).not.toBeNull();
    // Sent back, it is where the next request starts; the browser only ever gets a bookmark at least as new
    // (D1 bookmarks order as strings).
    const again = await get("/my-orders", { cookie: `${cookie}; ${bookmark}` });
    expect(again.status).toBe(200);
    const next = cookieFrom(again, DB_BOOKMARK_COOKIE);
    if (next !== null) expect(next > bookmark!).toBe(true);

    const visitor = await get("/shop");
    expect(visitor.status).toBe(200);
    expect(cookieFrom(visitor, DB_BOOKMARK_COOKIE)).toBeNull();
    const forged = await get("/my-orders", { cookie: `${cookie}; ${DB_BOOKMARK_COOKIE}=not-a-real-bookmark` });
    expect(forged.status).toBe(200);
  });
});
