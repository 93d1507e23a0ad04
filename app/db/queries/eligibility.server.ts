// Entry eligibility (issue 29): the facts entryRefusal reads about an account, the excluded places setting, dates of
// birth and regions, and self-exclusions (docs/product.md#eligibility).
import { and, eq, gt, inArray, isNull, max, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { adminAuditLog, platformSettings, selfExclusions, userProfiles, users } from "~/db/schema";
import { EXCLUDED_PLACES_SETTING_KEY, resolveExcludedPlaces, type AccountEntryFacts } from "~/domain/eligibility";
import type { SelfExclusionKeyKind } from "~/domain/self-exclusion";

/** An account's entry facts, with what finds a self-exclusion of its person (e-mail and name). */
export interface EntryFacts extends AccountEntryFacts {
  email: string;
  name: string;
}

const excludedPlacesRead = (db: Db) =>
  db
    .select({ value: platformSettings.settingValue })
    .from(platformSettings)
    .where(eq(platformSettings.settingKey, EXCLUDED_PLACES_SETTING_KEY))
    .limit(1);

/** An account's facts entryRefusal needs and the excluded places, in one D1 round trip (null: no such account). */
export async function readEntryFacts(
  db: Db,
  userId: string,
): Promise<{ facts: EntryFacts | null; excludedPlaces: string[] }> {
  const [accounts, setting] = await db.batch([
    db
      .select({
        role: users.role,
        email: users.email,
        dateOfBirth: users.dateOfBirth,
        deletedAt: users.deletedAt,
        name: userProfiles.creatorName,
        country: userProfiles.country,
        region: userProfiles.region,
      })
      .from(users)
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .where(eq(users.id, userId))
      .limit(1),
    excludedPlacesRead(db),
  ]);
  const row = accounts[0];
  const excludedPlaces = resolveExcludedPlaces(setting[0]?.value);
  if (!row) return { facts: null, excludedPlaces };
  return {
    facts: {
      role: row.role,
      email: row.email,
      dateOfBirth: row.dateOfBirth,
      deleted: row.deletedAt !== null,
      name: row.name ?? "",
      country: row.country ?? "",
      region: row.region,
    },
    excludedPlaces,
  };
}

/** The stored excluded places setting as it is (null when never set), for a change compared against it. */
export async function getExcludedPlacesSetting(db: Db): Promise<unknown> {
  const [row] = await excludedPlacesRead(db);
  return row?.value ?? null;
}

/**
 * Replaces the excluded places with `next` if the stored setting is still `previous` (so two admins' changes never
 * overwrite each other), and writes the audit row in the same batch, only when the change applied. False when the
 * setting changed meanwhile.
 */
export async function saveExcludedPlaces(
  db: Db,
  change: { adminId: string; previous: unknown; next: string[]; detail: Record<string, unknown> },
  now = new Date(),
): Promise<boolean> {
  const nextJson = JSON.stringify(change.next);
  const write =
    change.previous === null
      ? db
          .insert(platformSettings)
          .values({ settingKey: EXCLUDED_PLACES_SETTING_KEY, settingValue: change.next, updatedAt: now })
          .onConflictDoNothing()
          .returning({ key: platformSettings.settingKey })
      : db
          .update(platformSettings)
          .set({ settingValue: change.next, updatedAt: now })
          .where(
            and(
              eq(platformSettings.settingKey, EXCLUDED_PLACES_SETTING_KEY),
              eq(platformSettings.settingValue, change.previous),
            ),
          )
          .returning({ key: platformSettings.settingKey });
  const [written] = await db.batch([
    write,
    // The audit row is written only by the statement that changed the setting (SQLite's changes() counts the rows
    // the previous statement of this batch changed).
    db.insert(adminAuditLog).select(
      db
        .select({
          id: sql<string>`${crypto.randomUUID()}`.as("id"),
          adminId: sql<string>`${change.adminId}`.as("admin_id"),
          action: sql<string>`'excluded_places_updated'`.as("action"),
          targetUserId: sql<null>`null`.as("target_user_id"),
          targetGameId: sql<null>`null`.as("target_game_id"),
          detail: sql<string>`${JSON.stringify(change.detail)}`.as("detail"),
          createdAt: sql<number>`${now.getTime()}`.as("created_at"),
        })
        .from(platformSettings)
        .where(
          and(
            eq(platformSettings.settingKey, EXCLUDED_PLACES_SETTING_KEY),
            sql`${platformSettings.settingValue} = ${nextJson}`,
            sql`changes() = 1`,
          ),
        ),
    ),
  ]);
  return written.length === 1;
}

/** Sets the account's date of birth if it has none yet (it is set once); false when one was already set. */
export async function setDateOfBirthOnce(db: Db, userId: string, dateOfBirth: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ dateOfBirth, updatedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.dateOfBirth), isNull(users.deletedAt)))
    .returning({ id: users.id });
  return rows.length === 1;
}

/** Sets (or clears) the region beside the profile's country. */
export async function setProfileRegion(db: Db, userId: string, region: string | null): Promise<void> {
  await db.update(userProfiles).set({ region, updatedAt: new Date() }).where(eq(userProfiles.userId, userId));
}

/** When the latest self-exclusion kept under any of these keys ends, if it has not ended by `now`. */
export async function selfExclusionEndOf(db: Db, keyHashes: string[], now: Date): Promise<Date | null> {
  if (keyHashes.length === 0) return null;
  const [row] = await db
    .select({ endsAt: max(selfExclusions.endsAt) })
    .from(selfExclusions)
    .where(and(inArray(selfExclusions.keyHash, keyHashes), gt(selfExclusions.endsAt, now)));
  return row?.endsAt ?? null;
}

/** Which of these key hashes are kept under a self-exclusion that has not ended by `now` (100 keys a statement). */
export async function selfExcludedKeyHashes(db: Db, keyHashes: readonly string[], now: Date): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keyHashes.length; i += 99) {
    const rows = await db
      .select({ keyHash: selfExclusions.keyHash })
      .from(selfExclusions)
      .where(and(inArray(selfExclusions.keyHash, keyHashes.slice(i, i + 99)), gt(selfExclusions.endsAt, now)));
    for (const row of rows) found.add(row.keyHash);
  }
  return found;
}

/**
 * Keeps a self-exclusion under each key until `endsAt`: a key already kept until later keeps its later end (an
 * exclusion is extended, never shortened), in one batch.
 */
export async function extendSelfExclusion(
  db: Db,
  keys: { keyHash: string; kind: SelfExclusionKeyKind }[],
  endsAt: Date,
  now = new Date(),
): Promise<void> {
  const [first, ...rest] = keys.map((key) =>
    db
      .insert(selfExclusions)
      .values({ ...key, endsAt, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: selfExclusions.keyHash,
        set: { endsAt, updatedAt: now },
        setWhere: sql`${selfExclusions.endsAt} < ${endsAt.getTime()}`,
      }),
  );
  if (!first) return;
  await db.batch([first, ...rest]);
}
