import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { guessWinGames as games, productImages, products, uploads, userProfiles } from "~/db/schema";
import { UPLOAD_DAILY_BYTES, UPLOAD_DAILY_FILES, UPLOAD_TOTAL_BYTES } from "~/domain/upload-quotas";

/** What an account uploaded since `since` and keeps in all (bytes and files). */
export async function uploadUsage(db: Db, userId: string, since: Date) {
  const [row] = await db
    .select({
      todayBytes: sql<number>`coalesce(sum(case when ${uploads.createdAt} > ${since.getTime()} then ${uploads.bytes} end), 0)`,
      todayFiles: sql<number>`count(case when ${uploads.createdAt} > ${since.getTime()} then 1 end)`,
      totalBytes: sql<number>`coalesce(sum(${uploads.bytes}), 0)`,
    })
    .from(uploads)
    .where(eq(uploads.userId, userId));
  return {
    todayBytes: Number(row?.todayBytes ?? 0),
    todayFiles: Number(row?.todayFiles ?? 0),
    totalBytes: Number(row?.totalBytes ?? 0),
  };
}

/**
 * Records an upload only if it keeps the account within its quotas, in one statement (two uploads at once cannot
 * both squeeze past the limit). Answers whether it was recorded.
 */
export async function reserveUpload(
  db: Db,
  upload: { key: string; userId: string; bytes: number; now: Date; since: Date },
): Promise<boolean> {
  const since = upload.since.getTime();
  const result = await db.run(sql`
    insert into ${uploads} (key, user_id, bytes, created_at)
    select ${upload.key}, ${upload.userId}, ${upload.bytes}, ${upload.now.getTime()}
    where (select count(*) from ${uploads} where user_id = ${upload.userId} and created_at > ${since}) < ${UPLOAD_DAILY_FILES}
      and (select coalesce(sum(bytes), 0) from ${uploads} where user_id = ${upload.userId} and created_at > ${since}) + ${upload.bytes} <= ${UPLOAD_DAILY_BYTES}
      and (select coalesce(sum(bytes), 0) from ${uploads} where user_id = ${upload.userId}) + ${upload.bytes} <= ${UPLOAD_TOTAL_BYTES}`);
  return (result.meta.changes ?? 0) > 0;
}

/** Sets the recorded size of an upload (a video's real size once its parts are in). */
export async function setUploadBytes(db: Db, key: string, bytes: number): Promise<void> {
  await db.update(uploads).set({ bytes }).where(eq(uploads.key, key));
}

/** Forgets uploads whose files are gone (deleted, aborted or refused). */
export async function deleteUploadRows(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(uploads).where(inArray(uploads.key, [...keys]));
}

/** Uploads older than `before` not yet seen in use, oldest first. */
export function unattachedUploadsBefore(db: Db, before: Date, limit: number) {
  return db
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(isNull(uploads.attachedAt), lt(uploads.createdAt, before)))
    .orderBy(uploads.createdAt)
    .limit(limit);
}

/** Which of these keys a product, game or profile uses (as an R2 key or its /media URL). */
export async function uploadKeysInUse(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const urls = keys.map((key) => `/media/${key}`);
  const [images, files, videos, gameImages, avatars, covers] = await db.batch([
    db.select({ v: productImages.url }).from(productImages).where(inArray(productImages.url, urls)),
    db
      .select({ v: products.digitalFileKey })
      .from(products)
      .where(inArray(products.digitalFileKey, [...keys])),
    db
      .select({ v: games.videoKey })
      .from(games)
      .where(inArray(games.videoKey, [...keys])),
    db.select({ v: games.imageUrl }).from(games).where(inArray(games.imageUrl, urls)),
    db.select({ v: userProfiles.avatarUrl }).from(userProfiles).where(inArray(userProfiles.avatarUrl, urls)),
    db.select({ v: userProfiles.coverImageUrl }).from(userProfiles).where(inArray(userProfiles.coverImageUrl, urls)),
  ]);
  const used = new Set<string>();
  for (const { v } of [...images, ...files, ...videos, ...gameImages, ...avatars, ...covers]) {
    if (v) used.add(v.startsWith("/media/") ? v.slice("/media/".length) : v);
  }
  return used;
}

/** Marks uploads as in use: the cron leaves them alone from then on. */
export async function markUploadsAttached(db: Db, keys: readonly string[], now: Date): Promise<void> {
  if (keys.length === 0) return;
  await db
    .update(uploads)
    .set({ attachedAt: now })
    .where(inArray(uploads.key, [...keys]));
}
