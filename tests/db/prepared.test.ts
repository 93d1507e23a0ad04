import { env } from "cloudflare:workers";
import { and, eq, gt, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { getDb, openDbSession } from "~/db/client.server";
import { columnPlaceholder, preparedRead } from "~/db/prepared.server";
import { getSessionAccount } from "~/db/queries/sessions.server";
import { batchingReads } from "~/db/read-batch.server";
import { sessions, userProfiles, users } from "~/db/schema";
import { countingSession, makeUser, signIn } from "../helpers";

// Reads prepared once per isolate (app/db/prepared.server.ts) answer exactly as the same query built on every call,
// on whichever request's D1 session runs them, and still travel in that request's read batch.

type Db = ReturnType<typeof drizzle>;

/** Accounts with their profile as a nested object: left-joined, so an account without one reads profile: null. */
const accountsQuery = (
  db: Db,
  since: Date | ReturnType<typeof columnPlaceholder>,
  email: string | ReturnType<typeof sql.placeholder>,
) =>
  db
    .select({
      id: users.id,
      joined: users.createdAt,
      confirmed: sql<boolean>`${users.emailConfirmedAt} is not null`.mapWith(Boolean),
      profile: { name: userProfiles.creatorName, created: userProfiles.createdAt },
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(and(gt(users.createdAt, since), eq(users.email, email)));

describe("reads prepared once per isolate", () => {
  it("answer as the query built per call: dates, mapped expressions, nested and left-joined objects", async () => {
    const a = await makeUser({ name: "Prepared Reader" });
    const plain = drizzle(env.DB);
    // An account with no profile row: its nested profile must read as null, as drizzle reads it.
    await plain.delete(userProfiles).where(eq(userProfiles.userId, a.id));
    const b = await makeUser({ name: "Prepared Host" });
    const since = new Date(Date.now() - 60_000);
    const read = preparedRead((db) =>
      accountsQuery(db, columnPlaceholder(users.createdAt, "since"), sql.placeholder("email")).prepare(),
    );

    for (const who of [a, b]) {
      const expected = await accountsQuery(plain, since, who.email);
      expect(expected).toHaveLength(1);
      expect(await read(plain).all({ since, email: who.email })).toEqual(expected);
      expect(await read(plain).get({ since, email: who.email })).toEqual(expected[0]);
    }
    const [withoutProfile] = await read(plain).all({ since, email: a.email });
    expect(withoutProfile!.profile).toBeNull();
    expect(withoutProfile!.joined).toBeInstanceOf(Date);
    expect(withoutProfile!.confirmed).toBe(true);
    expect(await read(plain).get({ since: new Date(), email: b.email })).toBeUndefined();
  });

  it("build each shape once and run on the session of the request that asks", async () => {
    const a = await makeUser({ name: "Prepared Twice" });
    let builds = 0;
    const read = preparedRead(
      (db, shape: { byEmail: boolean }) => {
        builds += 1;
        return db
          .select({ name: userProfiles.creatorName })
          .from(userProfiles)
          .innerJoin(users, eq(users.id, userProfiles.userId))
          .where(shape.byEmail ? eq(users.email, sql.placeholder("key")) : eq(users.id, sql.placeholder("key")))
          .prepare();
      },
      (shape) => (shape.byEmail ? "email" : "id"),
    );
    const first = drizzle(batchingReads(env.DB.withSession("first-primary")));
    expect(await read(first, { byEmail: true }).all({ key: a.email })).toEqual([{ name: "Prepared Twice" }]);
    // Another request renames the account; the next request's run of the same prepared read sees it.
    await drizzle(env.DB)
      .update(userProfiles)
      .set({ creatorName: "Renamed Twice" })
      .where(eq(userProfiles.userId, a.id));
    const second = drizzle(batchingReads(env.DB.withSession("first-primary")));
    expect(await read(second, { byEmail: true }).all({ key: a.email })).toEqual([{ name: "Renamed Twice" }]);
    expect(await read(second, { byEmail: false }).all({ key: a.id })).toEqual([{ name: "Renamed Twice" }]);
    expect(await read(second, { byEmail: false }).all({ key: a.id })).toEqual([{ name: "Renamed Twice" }]);
    expect(builds).toBe(2);
  });

  it("travel in the request's read batch with its other reads", async () => {
    const a = await makeUser({ name: "Prepared Batch" });
    const { session, counter } = countingSession();
    const db = drizzle(batchingReads(session));
    const read = preparedRead((db) =>
      db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, sql.placeholder("id")))
        .prepare(),
    );
    const [prepared, built] = await Promise.all([
      read(db).all({ id: a.id }),
      db.select({ name: userProfiles.creatorName }).from(userProfiles).where(eq(userProfiles.userId, a.id)),
    ]);
    expect(counter.calls).toBe(1);
    expect(prepared).toEqual([{ email: a.email }]);
    expect(built).toEqual([{ name: "Prepared Batch" }]);
  });
});

describe("the prepared reads every signed-in page makes", () => {
  it("the session's account: found while the session lasts, gone once it has expired", async () => {
    const fan = await makeUser({ name: "Prepared Session" });
    await signIn(fan.email);
    const db = getDb(openDbSession(env, new Request("https://tribe.test/")).env);
    const [row] = await drizzle(env.DB)
      .select({ id: sessions.id, expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(eq(sessions.userId, fan.id));
    expect(await getSessionAccount(db, row!.id, new Date())).toMatchObject({
      id: fan.id,
      email: fan.email,
      creatorName: "Prepared Session",
      cartItems: 0,
    });
    expect(await getSessionAccount(db, row!.id, new Date(row!.expiresAt.getTime() + 1000))).toBeUndefined();
  });
});
