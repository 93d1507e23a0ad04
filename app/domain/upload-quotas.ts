// Upload quotas (decision 430): files sent to /api/uploads count against their account per day and in total, and
// only confirmed accounts upload. A file no product, game or profile uses after the grace period is removed by the
// cron.

const MIB = 1_048_576;

/** Bytes one account may upload in any 24 hours (a 500 MB game video and plenty of images). */
export const UPLOAD_DAILY_BYTES = 1_024 * MIB;
/** Files one account may upload in any 24 hours. */
export const UPLOAD_DAILY_FILES = 300;
/** Bytes one account may keep uploaded in all. */
export const UPLOAD_TOTAL_BYTES = 10_240 * MIB;
/** How long an upload may wait to be used by a product, game or profile before the cron removes it. */
export const UPLOAD_GRACE_MS = 24 * 60 * 60 * 1000;
/** The quota's day. */
export const UPLOAD_QUOTA_WINDOW_MS = 24 * 60 * 60 * 1000;

export const UPLOAD_QUOTA_MESSAGES = {
  unconfirmed: "Please confirm your email address before uploading files.",
  daily: "You've reached today's upload limit. Please try again tomorrow.",
  total: "You've reached your storage limit. Please remove files you no longer use.",
} as const;

/** Which quota an upload of `bytes` would break, given what the account uploaded today and keeps in all. */
export function uploadQuotaProblem(
  used: { todayBytes: number; todayFiles: number; totalBytes: number },
  bytes: number,
): "daily" | "total" | null {
  if (used.todayFiles + 1 > UPLOAD_DAILY_FILES || used.todayBytes + bytes > UPLOAD_DAILY_BYTES) return "daily";
  if (used.totalBytes + bytes > UPLOAD_TOTAL_BYTES) return "total";
  return null;
}
