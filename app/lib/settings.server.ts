// What /settings does beyond one query: image uploads (R2, old file removed), password and e-mail changes, the
// data export and the deletion of an account.
import { getDb, type Db } from "~/db/client.server";
import {
  collectAccountRecords,
  eraseAccount,
  getOpenPoolId,
  getProfileImageUrls,
  listOrdersKeepingBuyerData,
} from "~/db/queries/account-data.server";
import { countClaimableGuestOrders } from "~/db/queries/orders.server";
import {
  confirmEmailChange,
  createEmailChangeToken,
  getPasswordHash,
  isEmailChangeLinkUsable,
  isEmailTaken,
  setProfileImage,
} from "~/db/queries/settings.server";
import { revokeAccountCredentials, setPasswordHash } from "~/db/queries/accounts.server";
import { getActiveGroupBuyId } from "~/db/queries/profiles.server";
import { toCsv, type CsvCell } from "~/lib/csv";
import { randomToken, sha256Hex } from "~/lib/crypto.server";
import { sendMail } from "~/lib/mail.server";
import { hashPassword, verifyPassword } from "~/lib/password.server";
import { closeGroupBuy } from "~/lib/payments/refunds/group-buy-close.server";
import { closePool } from "~/lib/pools.server";
import { currentSessionId } from "~/lib/session.server";
import { mayMailAccount } from "~/lib/throttle.server";
import { SETTINGS_MESSAGES, type SettingsAccountData } from "~/lib/settings-form";
import { profileImageKey, storeProfileImage, type UploadBody } from "~/lib/uploads.server";
import { zip } from "~/lib/zip";

/** How long an e-mail change link works. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

/** Stores a new avatar or cover, points the profile at it and removes the file it replaced. */
export async function replaceProfileImage(env: Env, userId: string, kind: "avatar" | "cover", body: UploadBody) {
  const stored = await storeProfileImage(env, userId, kind, body);
  const saved = await setProfileImage(getDb(env), userId, kind, stored.url);
  if (!saved) {
    await env.MEDIA.delete(stored.key);
    throw new Error("No authenticated user found");
  }
  const oldKey = saved.previous ? profileImageKey(saved.previous, userId) : null;
  if (oldKey && oldKey !== stored.key) await env.MEDIA.delete(oldKey);
  return { url: stored.url };
}

/** True when `password` is the account's current password. */
export async function isCurrentPassword(env: Env, userId: string, password: string): Promise<boolean> {
  const hash = await getPasswordHash(getDb(env), userId);
  return hash !== null && (await verifyPassword(password, hash));
}

/**
 * Sets a new password and signs out every other device; outstanding reset, e-mail-change and confirmation links of
 * the account stop working (decision 410).
 */
export async function changePassword(env: Env, request: Request, userId: string, newPassword: string): Promise<void> {
  const db = getDb(env);
  await setPasswordHash(db, userId, await hashPassword(newPassword));
  await revokeAccountCredentials(db, userId, await currentSessionId(request));
}

export type EmailChangeRequest = { ok: true } | { ok: false; field: "newEmail"; message: string };

/**
 * Mails a confirmation link to the new address; the address changes only when the link is opened. The answer is the
 * same whether or not another account has the address (its owner is told by e-mail instead), and an address gets at
 * most one mail per window (decision 410), so Settings reveals no addresses.
 */
export async function requestEmailChange(
  env: Env,
  origin: string,
  user: { id: string; email: string },
  newEmail: string,
): Promise<EmailChangeRequest> {
  const db = getDb(env);
  if (newEmail === user.email) return { ok: false, field: "newEmail", message: SETTINGS_MESSAGES.emailSame };
  if (!(await mayMailAccount(db, "email_change", newEmail))) return { ok: true };
  if (await isEmailTaken(db, newEmail, user.id)) {
    // Account mail: sent as it is, to the address it concerns, and kept out of the inbox (it carries a link).
    await sendMail(env, db, {
      to: newEmail,
      subject: "Someone tried to use your email on Tribe",
      text:
        "Someone asked to move another Tribe account to this email address, which already has an account. Nothing has changed.\n\n" +
        `If it was you, sign in with this address instead: ${origin}/signin\n\nIf it wasn't you, ignore this e-mail.`,
    });
    return { ok: true };
  }
  const token = randomToken();
  await createEmailChangeToken(
    db,
    user.id,
    await sha256Hex(token),
    newEmail,
    new Date(Date.now() + EMAIL_CHANGE_TTL_MS),
  );
  const link = `${origin}/settings/confirm-email?token=${encodeURIComponent(token)}`;
  await sendMail(env, db, {
    to: newEmail,
    subject: "Confirm your new Tribe email address",
    text: `Someone (hopefully you) asked to change the email address of a Tribe account to this one.\n\nConfirm the change within 24 hours:\n${link}\n\nIf this wasn't you, ignore this email: nothing changes.`,
  });
  return { ok: true };
}

/** True while an e-mail change link can still be used (its page then shows the button that applies it). */
export async function isEmailChangeTokenUsable(env: Env, token: string): Promise<boolean> {
  if (token.length < 20 || token.length > 200) return false;
  return isEmailChangeLinkUsable(getDb(env), await sha256Hex(token), new Date());
}

/**
 * Applies a confirmed e-mail change (the button of the link's page; opening the link changes nothing), tells the
 * old address, and revokes the account's other links and sessions (all but the request's own).
 */
export async function applyEmailChange(env: Env, request: Request, token: string) {
  if (token.length < 20 || token.length > 200) return { ok: false as const, reason: "invalid" as const };
  const db = getDb(env);
  const outcome = await confirmEmailChange(db, await sha256Hex(token), new Date());
  if (outcome.ok) {
    await revokeAccountCredentials(db, outcome.userId, await currentSessionId(request));
    await sendMail(env, db, {
      to: outcome.oldEmail,
      subject: "Your Tribe email address was changed",
      text: `The email address of your Tribe account is now ${outcome.newEmail}. If you did not make this change, reset your password at once.`,
    });
  }
  return outcome;
}

// --- data export -------------------------------------------------------------------------------------------------

function cell(value: unknown): CsvCell {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return JSON.stringify(value);
}

/** Every record of the account: one JSON document, or a ZIP with one CSV per table. */
export async function exportAccount(env: Env, userId: string, format: "json" | "zip", now = new Date()) {
  const records = await collectAccountRecords(getDb(env), userId);
  const stamp = now.toISOString().slice(0, 10);
  if (format === "json") {
    const body = JSON.stringify({ exportedAt: now.toISOString(), userId, records }, null, 2);
    return {
      body: new TextEncoder().encode(body),
      contentType: "application/json; charset=utf-8",
      fileName: `tribe-data-${stamp}.json`,
    };
  }
  const files = Object.entries(records).map(([table, rows]) => {
    const header = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    return {
      name: `${table}.csv`,
      data: toCsv(
        header,
        rows.map((row) => header.map((key) => cell(row[key]))),
      ),
    };
  });
  return { body: await zip(files, now), contentType: "application/zip", fileName: `tribe-data-${stamp}.zip` };
}

// --- account deletion --------------------------------------------------------------------------------------------

/**
 * Deletes an account: erases its personal data and ends its sessions (eraseAccount), removes its images, and for a
 * host closes the open pool now so it is drawn as usual, without opening a next one (auto-renew is off), and
 * cancels the running group buy with full refunds.
 */
export async function deleteAccount(env: Env, userId: string, now = new Date()): Promise<boolean> {
  const db = getDb(env);
  const [images, openPoolId, groupBuyId] = await Promise.all([
    getProfileImageUrls(db, userId),
    getOpenPoolId(db, userId),
    getActiveGroupBuyId(db, userId, now),
  ]);
  const erased = await eraseAccount(db, userId, now);
  if (!erased) return false;
  const keys = images.map((url) => profileImageKey(url, userId)).filter((key): key is string => key !== null);
  if (keys.length > 0) await env.MEDIA.delete(keys);
  // The open pool closes now and is drawn as usual (auto-renew is off, so no next pool opens).
  if (openPoolId) await closePool(env, openPoolId, "closed_early");
  // The running group buy is cancelled by its own rule: every fan who joined is refunded in full (the cron resumes
  // unfinished refunds if this stops half-way).
  if (groupBuyId) {
    try {
      await closeGroupBuy(env, groupBuyId, { mode: "cancel", hostId: userId, now });
    } catch (error) {
      console.error("account deletion: group buy cancellation will be resumed by the cron", {
        userId,
        groupBuyId,
        error,
      });
    }
  }
  return true;
}

/** What the account section shows besides the profile: the open orders that keep the account's details until they
 * close (decision 410) and the guest orders paid with its address that it may claim through a mailed link. */
export async function loadAccountSection(db: Db, userId: string): Promise<SettingsAccountData> {
  const [openOrders, guestOrders] = await Promise.all([
    listOrdersKeepingBuyerData(db, userId),
    countClaimableGuestOrders(db, userId),
  ]);
  return {
    openOrders: openOrders.map((o) => ({ orderNumber: o.orderNumber, productName: o.productName, status: o.status })),
    guestOrders,
  };
}
