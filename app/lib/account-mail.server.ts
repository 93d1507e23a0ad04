import type { Db } from "~/db/client.server";
import { createEmailConfirmationToken } from "~/db/queries/accounts.server";
import { randomToken, sha256Hex } from "./crypto.server";
import { sendMail } from "./mail.server";

export const CONFIRM_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The link a new account's owner opens to confirm the e-mail address (works once, for 7 days). */
export async function sendConfirmationMail(env: Env, db: Db, account: { userId: string; email: string }, origin: string) {
  const token = randomToken();
  await createEmailConfirmationToken(db, account.userId, await sha256Hex(token), new Date(Date.now() + CONFIRM_LINK_TTL_MS));
  const link = `${origin}/confirm-email?token=${encodeURIComponent(token)}`;
  await sendMail(env, db, {
    to: account.email,
    subject: "Confirm your Tribe account",
    text:
      `Welcome to Tribe!\n\nOpen this link to confirm your email address (it works once and expires in 7 days):\n${link}\n\n` +
      "Free guesses count and prizes are paid only to confirmed accounts.\n\n" +
      "If you did not sign up, ignore this e-mail: nothing happens without the confirmation.",
  });
}

/**
 * Sign-up with an address that already has an account answers like a new sign-up (so the form reveals no
 * addresses); the owner hears about it by e-mail instead.
 */
export async function sendExistingAccountMail(env: Env, db: Db, email: string, origin: string) {
  await sendMail(env, db, {
    to: email,
    subject: "Someone tried to sign up with your email",
    text:
      "Someone tried to create a Tribe account with this email address, which already has an account.\n\n" +
      `If it was you, sign in instead: ${origin}/signin\nForgot your password? Choose a new one: ${origin}/forgot-password\n\n` +
      "If it wasn't you, ignore this e-mail: your account has not changed.",
  });
}
