import { env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { freeEntries, users } from "~/db/schema";
import { LOCAL_BOT_CHECK_TOKEN } from "~/domain/free-entries";
import { enterForFree, recordPostalEntry, voidFreeEntry } from "~/lib/free-entries.server";
import type { SessionUser } from "~/lib/session.server";
import { db, makeUser, sessionUserOf } from "../helpers";
import { checkStep } from "./invariants";
import { pick, stats, type Model } from "./model";
import { clock, DAY, type World } from "./world";

// The free routes in the model-based money test (issue 29, decision 530): a fan's free entry, a postal card the
// platform owner records (the same card may come twice), and the owner's void of a free entry. Each goes through
// the code the Worker runs; their entries are 0-cent rows of the same ledger, so conservation must still hold, and
// the entry invariant (free-invariant.ts) accounts for every one of them.

/** The run's platform owner, made when a command first needs one. */
const admins = new WeakMap<World, SessionUser>();
async function adminOf(w: World): Promise<SessionUser> {
  let admin = admins.get(w);
  if (!admin) {
    const made = await makeUser({ role: "admin", name: "Model Admin" });
    admin = { ...sessionUserOf(made, "Model Admin"), role: "admin" };
    admins.set(w, admin);
  }
  return admin;
}

abstract class FreeStep implements fc.AsyncCommand<Model, World> {
  abstract describe(): string;
  abstract act(m: Model, w: World): Promise<string>;
  check(): boolean {
    return true;
  }
  async run(m: Model, w: World): Promise<void> {
    m.log.push(`${this.describe()} -> ${await this.act(m, w)}`);
    await checkStep(m, w);
  }
  toString(): string {
    return this.describe();
  }
}

export class FreeEntry extends FreeStep {
  constructor(
    readonly fan: number,
    readonly host: number,
  ) {
    super();
  }
  describe() {
    return `FreeEntry(fan ${this.fan}, host ${this.host})`;
  }
  async act(_m: Model, w: World) {
    const fan = pick(w.fans, this.fan)!;
    const host = pick(w.hosts, this.host)!;
    // The model's accounts are made at the run's start; the free route needs one a day old.
    await db()
      .update(users)
      .set({ createdAt: new Date(clock.now - 2 * DAY) })
      .where(eq(users.id, fan.id));
    const form = new FormData();
    form.set("botToken", LOCAL_BOT_CHECK_TOKEN);
    const result = await enterForFree(env, {
      user: fan,
      hostId: host.id,
      form,
      address: `10.0.0.${this.fan % w.fans.length}`,
      now: new Date(clock.now),
    });
    if (!result.ok) return `refused ${result.status}: ${result.message}`;
    stats.freeEntries += 1;
    return `entry ${result.entryNumber} in ${result.poolId}`;
  }
}

export class PostalEntry extends FreeStep {
  constructor(
    readonly fan: number,
    readonly host: number,
    readonly card: number,
    readonly daysAgo: number,
  ) {
    super();
  }
  describe() {
    return `PostalEntry(fan ${this.fan}, host ${this.host}, card ${this.card}, received ${this.daysAgo} days ago)`;
  }
  async act(_m: Model, w: World) {
    const fan = pick(w.fans, this.fan)!;
    const host = pick(w.hosts, this.host)!;
    const form = new FormData();
    form.set("hostEmail", host.email);
    form.set("entrantEmail", fan.email);
    // Card references are unique per run; the same card index is the same card arriving twice.
    form.set("cardReference", `CARD-${w.hosts[0]!.id.slice(0, 8)}-${this.card}`);
    form.set("receivedOn", new Date(clock.now - this.daysAgo * DAY).toISOString().slice(0, 10));
    const result = await recordPostalEntry(env, await adminOf(w), form, new Date(clock.now));
    if (!result.ok) return `refused ${result.status}: ${result.message}`;
    stats.postalEntries += 1;
    return result.message;
  }
}

export class VoidFreeEntry extends FreeStep {
  constructor(readonly entry: number) {
    super();
  }
  describe() {
    return `VoidFreeEntry(${this.entry})`;
  }
  async act(_m: Model, w: World) {
    const rows = await db()
      .select({ id: freeEntries.id })
      .from(freeEntries)
      .where(
        inArray(
          freeEntries.hostId,
          w.hosts.map((h) => h.id),
        ),
      )
      .orderBy(freeEntries.createdAt);
    const chosen = pick(rows, this.entry);
    if (!chosen) return "no free entry yet";
    const form = new FormData();
    form.set("freeEntryId", chosen.id);
    form.set("reason", "Model: a duplicate account");
    const result = await voidFreeEntry(env, await adminOf(w), form);
    if (!result.ok) return `refused ${result.status}: ${result.message}`;
    stats.freeVoids += 1;
    return result.message;
  }
}

export const FREE_ARBITRARIES = {
  freeEntry: fc.tuple(fc.nat(1), fc.nat(1)).map(([f, h]) => new FreeEntry(f, h)),
  postalEntry: fc
    .tuple(fc.nat(1), fc.nat(1), fc.nat(3), fc.constantFrom(0, 0, 1, 40))
    .map(([f, h, c, d]) => new PostalEntry(f, h, c, d)),
  voidFreeEntry: fc.nat(10).map((i) => new VoidFreeEntry(i)),
};
