import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { userProfiles } from "~/db/schema";
import { formatCount } from "~/domain/money";
import { db, get, makeUser, pageText } from "./helpers";

// Issue 27: the tribe member count (followers_count) showed on / and was sent in /profile/{id}.data with
// "Show followers" off. A hidden count is now never read out of the database for a page (shownTribeMemberCount,
// decision 420).

async function hostWithTribeMembers(show: boolean) {
  const name = `Follo${crypto.randomUUID().slice(0, 6)} Host`;
  const host = await makeUser({ name });
  // Far above every other test's host, so this one is among the home page's three featured hosts.
  const count = 9_000_000 + Math.floor(Math.random() * 900_000);
  await db()
    .update(userProfiles)
    .set({ followersCount: count, showFollowers: show })
    .where(eq(userProfiles.userId, host.id));
  return { ...host, name, count };
}

describe("a host's tribe member count", () => {
  it("is not sent anywhere when Show followers is off: profile, its data, explore, home", async () => {
    const host = await hostWithTribeMembers(false);
    const digits = String(host.count);
    const profile = await get(`/profile/${host.id}`);
    expect(profile.status).toBe(200);
    const profileText = await pageText(profile);
    expect(profileText).toContain(host.name);
    expect(profileText).not.toContain(digits);
    expect(profileText).not.toMatch(/\d tribes/);
    const data = await (await get(`/profile/${host.id}.data`)).text();
    expect(data).toContain(host.name);
    expect(data).not.toContain(digits);
    const explore = await get(`/explore.data?q=${encodeURIComponent(host.name)}`);
    const exploreData = await explore.text();
    expect(exploreData).toContain(host.name);
    expect(exploreData).not.toContain(digits);
    const home = await pageText(await get("/"));
    expect(home).toContain(host.name);
    expect(home).not.toContain(`${formatCount(host.count)} tribes`);
    expect(home).not.toContain(digits);
    const homeData = await (await get("/_root.data")).text();
    expect(homeData).not.toContain(digits);
    await db().update(userProfiles).set({ followersCount: 0 }).where(eq(userProfiles.userId, host.id));
  });

  it("shows when Show followers is on", async () => {
    const host = await hostWithTribeMembers(true);
    const profile = await pageText(await get(`/profile/${host.id}`));
    expect(profile).toContain(`${host.count} tribes`);
    const home = await pageText(await get("/"));
    expect(home).toContain(`· ${formatCount(host.count)} tribes`);
    await db().update(userProfiles).set({ followersCount: 0 }).where(eq(userProfiles.userId, host.id));
  });
});
