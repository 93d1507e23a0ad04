import type { Db } from "~/db/client.server";
import {
  createAccountLinkToken,
  createEmailConfirmationToken,
  createPasswordResetToken,
} from "~/db/queries/accounts.server";
import { ORDER_CLAIM_LINK_TTL_MS, SIGN_IN_LINK_TTL_MS } from "~/domain/accounts";
import { randomToken, sha256Hex } from "./crypto.server";
import { sendMail } from "./mail.server";

export const CONFIRM_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_LINK_TTL_MS = 30 * 60 * 1000;

/** The link a new account's owner opens to confirm the e-mail address (works once, for 7 days). */
export async function sendConfirmationMail(
  env: Env,
  db: Db,
  account: { userId: string; email: string },
  origin: string,
) {
  const token = randomToken();
  await createEmailConfirmationToken(
    db,
    account.userId,
    await sha256Hex(token),
    new Date(Date.now() + CONFIRM_LINK_TTL_MS),
  );
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

/** A link to choose a new password (works once, for 30 minutes); the account's older reset links stop working. */
export async function sendResetMail(env: Env, db: Db, account: { userId: string; email: string }, origin: string) {
  const token = randomToken();
  const now = new Date();
  await createPasswordResetToken(
    db,
    account.userId,
    await sha256Hex(token),
    new Date(now.getTime() + RESET_LINK_TTL_MS),
    now,
  );
  const link = `${origin}/reset-password?token=${encodeURIComponent(token)}`;
  await sendMail(env, db, {
    to: account.email,
    subject: "Reset your Tribe password",
    text: `Someone asked to reset the password of your Tribe account.\n\nOpen this link to choose a new password (it works once and expires in 30 minutes):\n${link}\n\nIf this wasn't you, ignore this e-mail: your password stays as it is.`,
  });
}

/**
 * Past the ceiling of failed sign-ins, a password alone no longer signs in to the account: its owner gets this
 * one-time link (works once, for 15 minutes; a newer one revokes it).
 */
export async function sendSignInLinkMail(env: Env, db: Db, account: { userId: string; email: string }, origin: string) {
  const token = randomToken();
  const now = new Date();
  await createAccountLinkToken(
    db,
    {
      userId: account.userId,
      purpose: "sign_in",
      tokenHash: await sha256Hex(token),
      expiresAt: new Date(now.getTime() + SIGN_IN_LINK_TTL_MS),
    },
    now,
  );
  const link = `${origin}/signin/link?token=${encodeURIComponent(token)}`;
  await sendMail(env, db, {
    to: account.email,
    subject: "Your Tribe sign-in link",
    text:
      "There have been many failed attempts to sign in to your Tribe account, so for now signing in needs this link " +
      `(it works once and expires in 15 minutes):\n${link}\n\n` +
      "If the attempts were not yours, your password was not accepted; choosing a new, longer password is a good idea: " +
      `${origin}/forgot-password`,
  });
}

/** A one-time link (works for 24 hours) that adds the guest orders paid with this address to the account. */
export async function sendOrderClaimMail(
  env: Env,
  db: Db,
  account: { userId: string; email: string },
  count: number,
  origin: string,
) {
  const token = randomToken();
  const now = new Date();
  await createAccountLinkToken(
    db,
    {
      userId: account.userId,
      purpose: "order_claim",
      tokenHash: await sha256Hex(token),
      expiresAt: new Date(now.getTime() + ORDER_CLAIM_LINK_TTL_MS),
    },
    now,
  );
  const link = `${origin}/settings/claim-orders?token=${encodeURIComponent(token)}`;
  await sendMail(env, db, {
    to: account.email,
    subject: "Add your guest orders to your Tribe account",
    text:
      `${count} order${count === 1 ? " was" : "s were"} paid as a guest with this email address. Open this link to add ` +
      `${count === 1 ? "it" : "them"} to your Tribe account (it works once and expires in 24 hours):\n${link}\n\n` +
      "If you did not ask for this, ignore this e-mail: nothing changes.",
  });
}
