import { env } from "cloudflare:workers";
import { eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { batchingReads, isRead, namedColumnsSql } from "~/db/read-batch.server";
import { userProfiles, users } from "~/db/schema";
import { countingSession, makeUser } from "../helpers";

// A request's concurrent reads travel to D1 as one batch (app/db/read-batch.server.ts): the same results as one
// call each, fewer calls, and one bad query cannot spoil another's answer.

/** A join whose result has two columns named created_at (users and user_profiles). */
const accountRows = (db: ReturnType<typeof drizzle>, ids: string[]) =>
  db
    .select({
      id: users.id,
      email: users.email,
      joined: users.createdAt,
      name: userProfiles.creatorName,
      profileCreated: userProfiles.createdAt,
    })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(inArray(users.id, ids))
    .orderBy(users.email);

describe("reads batched per request", () => {
  it("answers reads started together with one D1 call and the same rows as separate calls", async () => {
    const a = await makeUser({ name: "Batch Reader A" });
    const b = await makeUser({ name: "Batch Reader B" });
    const plain = drizzle(env.DB);
    const { session, counter } = countingSession();
    const batched = drizzle(batchingReads(session));

    const [joined, emails, count] = await Promise.all([
      accountRows(batched, [a.id, b.id]),
      batched.select({ email: users.email }).from(users).where(eq(users.id, a.id)),
      batched.all<{ n: number }>(sql`select count(*) as n from ${users} where ${users.id} in (${a.id}, ${b.id})`),
    ]);

    expect(counter.calls).toBe(1);
    expect(joined).toEqual(await accountRows(plain, [a.id, b.id]));
    expect(joined.map((row) => row.name).sort()).toEqual(["Batch Reader A", "Batch Reader B"]);
    expect(joined[0]!.joined).toBeInstanceOf(Date);
    expect(joined[0]!.profileCreated).toBeInstanceOf(Date);
    expect(emails).toEqual([{ email: a.email }]);
    expect(count).toEqual([{ n: 2 }]);
  });

  it("a read that fails gets its own error; the reads batched with it still get their rows", async () => {
    const a = await makeUser({ name: "Batch Survivor" });
    const { session } = countingSession();
    const batched = drizzle(batchingReads(session));
    const [good, bad] = await Promise.allSettled([
      batched.select({ email: users.email }).from(users).where(eq(users.id, a.id)),
      batched.all(sql`select missing_column from ${users}`),
    ]);
    expect(good).toEqual({ status: "fulfilled", value: [{ email: a.email }] });
    expect(bad.status).toBe("rejected");
    expect(String((bad as PromiseRejectedResult).reason?.cause ?? (bad as PromiseRejectedResult).reason)).toContain(
      "missing_column",
    );
  });

  it("sends a write at once and a read after it sees the write", async () => {
    const a = await makeUser({ name: "Batch Writer" });
    const { session } = countingSession();
    const batched = drizzle(batchingReads(session));
    await batched.update(userProfiles).set({ creatorName: "Renamed Writer" }).where(eq(userProfiles.userId, a.id));
    const [row] = await batched
      .select({ name: userProfiles.creatorName })
      .from(userProfiles)
      .where(eq(userProfiles.userId, a.id));
    expect(row).toEqual({ name: "Renamed Writer" });
  });
});

describe("which statements are held, and how a select travels in a batch", () => {
  it("holds only reads", () => {
    expect(isRead('select "id" from "users"')).toBe(true);
    expect(isRead("  SELECT 1 from t")).toBe(true);
    expect(isRead("with x as (select 1) select * from x")).toBe(true);
    expect(isRead('insert into "users" ("id") values (?)')).toBe(false);
    expect(isRead('update "users" set "email" = ? where "id" = ? returning "id"')).toBe(false);
    expect(isRead("with x as (select 1) delete from t where id in x")).toBe(false);
    expect(isRead('select "id" from "users" returning "id"')).toBe(false);
  });

  it("names every unnamed column by its position and keeps existing aliases", () => {
    expect(
      namedColumnsSql(
        'select "users"."id", "user_profiles"."id", count(*), (select max("x") from "t") as "top" from "users" where "a" = ?',
      ),
    ).toEqual({
      sql: 'select "users"."id" as "c0", "user_profiles"."id" as "c1", count(*) as "c2", (select max("x") from "t") as "top" from "users" where "a" = ?',
      columns: 4,
    });
    expect(namedColumnsSql('select distinct "name" from "products"')).toEqual({
      sql: 'select distinct "name" as "c0" from "products"',
      columns: 1,
    });
  });

  it("is not fooled by commas and the word from inside strings, quotes or parentheses", () => {
    expect(namedColumnsSql(`select 'a, from b' , "odd ""from"" name", coalesce("x", 'y,z') from "t"`)).toEqual({
      sql: `select 'a, from b' as "c0", "odd ""from"" name" as "c1", coalesce("x", 'y,z') as "c2" from "t"`,
      columns: 3,
    });
  });

  it("sends alone what it cannot name safely", () => {
    expect(namedColumnsSql('select * from "users"')).toBeNull();
    expect(namedColumnsSql('select "users".* from "users"')).toBeNull();
    expect(namedColumnsSql("select 1")).toBeNull();
    expect(namedColumnsSql('select "a" -- a comment, with a comma\n from "t"')).toBeNull();
    expect(namedColumnsSql('select "a" as "x", "b" as "x" from "t"')).toBeNull();
    expect(namedColumnsSql('select "a" as "1" from "t"')).toBeNull();
    expect(namedColumnsSql('insert into "t" values (1)')).toBeNull();
  });
});
