import { asc, eq } from "drizzle-orm";
import { authThrottle, mailOutbox } from "~/db/schema";
import { db, uniqueEmail } from "../helpers";

// Helpers of the account tests (decision 410): the mail an address got, the links in it, a valid sign-up form.

/** The mail sent to an address, oldest first. */
export async function mailsTo(address: string) {
  return db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, address)).orderBy(asc(mailOutbox.createdAt));
}

/** The token of the newest link to `path` mailed to `address`. */
export async function mailedToken(address: string, path: string): Promise<string> {
  const mails = await mailsTo(address);
  for (const mail of mails.reverse()) {
    const match = mail.textBody
      .match(/https?:\/\/\S+/g)
      ?.map((link) => new URL(link))
      .find((url) => url.pathname === path);
    if (match) return match.searchParams.get("token")!;
  }
  throw new Error(`no ${path} link mailed to ${address}`);
}

/** Lets the next account mail of a kind go to the address at once, as if its window had passed. */
export async function endMailWindow(kind: string, address: string): Promise<void> {
  await db()
    .delete(authThrottle)
    .where(eq(authThrottle.key, `mail:${kind}:${address.toLowerCase()}`));
}

export const signupFields = (overrides: Record<string, string> = {}) => ({
  name: "Nur Aina",
  email: uniqueEmail("nur"),
  password: "a-long-password",
  confirmPassword: "a-long-password",
  website: "",
  category: "Food & Cooking",
  country: "MY",
  terms: "on",
  ...overrides,
});
