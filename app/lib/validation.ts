import { z } from "zod";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT } from "~/domain/accounts";
import { SIGNUP_CATEGORIES } from "~/domain/catalog";
import { isCountryCode } from "~/domain/currency";

/** Field schemas shared by the account forms. Messages are what the user reads. */
export const EmailSchema = z
  .string({ error: "Please enter your email address" })
  .trim()
  .min(1, "Please enter your email address")
  .max(254, "Please enter a valid email address")
  .pipe(z.email({ error: "Please enter a valid email address" }))
  .transform((v) => v.toLowerCase());

/** A new password's length rule (the browser checks it too); the server also refuses common ones (password.server). */
export const PasswordSchema = z
  .string({ error: "Please enter a password" })
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const WebsiteSchema = z
  .string()
  .trim()
  .max(300, "Please enter a valid website URL (including https://)")
  .refine(
    (v) => v === "" || /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(v),
    "Please enter a valid website URL (including https://)",
  )
  .transform((v) => (v === "" ? null : v));

export const SignupSchema = z
  .object({
    name: z
      .string({ error: "Please enter your name" })
      .trim()
      .min(1, "Please enter your name")
      .max(80, "Name must be at most 80 characters"),
    email: EmailSchema,
    password: PasswordSchema,
    confirmPassword: z.string({ error: "Please confirm your password" }).min(1, "Please confirm your password"),
    website: WebsiteSchema.optional().default(""),
    category: z.enum(SIGNUP_CATEGORIES, { error: "Please choose a category" }),
    country: z.string({ error: "Please choose your country" }).refine(isCountryCode, "Please choose your country"),
    terms: z.literal("on", { error: "Please accept the Terms of Service and Privacy Policy" }),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "Passwords do not match!" });

export const ResetPasswordSchema = z
  .object({
    token: z.string().min(20).max(200),
    password: PasswordSchema,
    confirmPassword: z.string({ error: "Please confirm your password" }).min(1, "Please confirm your password"),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "Passwords do not match!" });

/** First message per field, for rendering next to the inputs. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

/** The form's text values (never passwords), to put back into the inputs after an error. */
export function typedValues(form: FormData, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = form.get(name);
    if (typeof v === "string") out[name] = v.slice(0, 500);
  }
  return out;
}

/** A text field of a submitted form, at most `max` characters; null when absent or a file. */
export function formText(form: FormData, name: string, max = 2000): string | null {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, max) : null;
}

export type Submission<T> =
  | { ok: true; value: T }
  | { ok: false; fieldErrors: Record<string, string>; formError: string | null; values: Record<string, string> };

/**
 * The one way an action reads a form: the named text fields through a zod schema. Success gives the typed value;
 * failure gives the first message per field, a form-level message (an issue with no field, or `formMessage`), and
 * the typed text to put back into the inputs.
 */
export function parseSubmission<S extends z.ZodType>(
  schema: S,
  form: FormData,
  names: readonly string[],
  formMessage: string | null = null,
): Submission<z.output<S>> {
  const values = typedValues(form, names);
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors = fieldErrors(parsed.error);
  const { form: formLevel, ...fields } = errors;
  return { ok: false, fieldErrors: fields, formError: formLevel ?? formMessage, values };
}

/** A one-time token from a mailed link or its page's form: a plausible length, or null. */
export function linkTokenOf(value: FormDataEntryValue | string | null): string | null {
  return typeof value === "string" && value.length >= 20 && value.length <= 200 ? value : null;
}
