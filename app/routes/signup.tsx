import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { Field, FormError, NewPasswordField, SelectField, SubmitButton } from "~/components/form";
import { createAccount } from "~/db/queries/accounts.server";
import { getDb } from "~/db/client.server";
import { SIGNUP_CATEGORIES } from "~/domain/catalog";
import { COUNTRIES, DEFAULT_COUNTRY_CODE } from "~/domain/currency";
import { sendConfirmationMail, sendExistingAccountMail } from "~/lib/account-mail.server";
import { getOptionalUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { refusingCommonPasswords } from "~/lib/common-passwords.server";
import { hashPassword } from "~/lib/password.server";
import { mayMailAccount } from "~/lib/throttle.server";
import { fieldErrors, SignupSchema, typedValues } from "~/lib/validation";
import { SignupSpendLimitSchema } from "~/domain/spend-limits";
import { setSpendLimit } from "~/lib/entry-gate.server";
import type { Route } from "./+types/signup";

const TEXT_FIELDS = ["name", "email", "website", "category", "country", "terms", "spendLimit"] as const;

export const meta: Route.MetaFunction = () => [{ title: "Create Your Account · Tribe" }];

export async function loader({ context }: Route.LoaderArgs) {
  if (await getOptionalUser(context)) throw redirect("/dashboard");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const values = typedValues(form, TEXT_FIELDS);
  const parsed = refusingCommonPasswords(SignupSchema, "password").safeParse(Object.fromEntries(form));
  // The optional monthly spending limit on entries, asked at sign-up (docs/product.md#spend-limits).
  const limit = SignupSpendLimitSchema.safeParse(values.spendLimit || undefined);
  if (!parsed.success || !limit.success) {
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    const limitError = limit.success ? null : limit.error.issues[0]?.message;
    return data({ errors: limitError ? { ...errors, spendLimit: limitError } : errors, values }, { status: 400 });
  }
  const { name, email, password, website, category, country } = parsed.data;
  const env = getEnv(context);
  const db = getDb(env);
  const origin = new URL(request.url).origin;
  const created = await createAccount(db, {
    email,
    passwordHash: await hashPassword(password),
    name,
    category,
    website,
    country,
  });
  if (created && limit.data !== undefined) await setSpendLimit(env, created.userId, limit.data, new Date());
  // The same answer whether or not the address has an account: a new account gets its confirmation link, an
  // existing owner a note saying someone tried, so the form never tells who is registered. An address gets at most
  // one of these mails per window, however often the form is sent (decision 410).
  if (await mayMailAccount(db, "signup", email)) {
    if (created) await sendConfirmationMail(env, db, { userId: created.userId, email }, origin);
    else await sendExistingAccountMail(env, db, email, origin);
  }
  throw redirect("/congratulations");
}

const categoryOptions = SIGNUP_CATEGORIES.map((c) => ({ value: c, label: c }));
const countryOptions = COUNTRIES.map((c) => ({ value: c.code, label: `${c.name} (${c.currency})` }));

export default function Signup({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors: Record<string, string> = actionData?.errors ?? {};
  const values: Record<string, string> = actionData?.values ?? {};
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8">
        <h1 className="text-2xl font-bold">Create Your Account</h1>
        <p className="mt-1 text-sm text-gray-600">
          Open your shop, run Guess &amp; Win games and grow a prize pool with your tribe.
        </p>
        <Form method="post" className="mt-6 space-y-4" noValidate={false}>
          <FormError>{errors.form}</FormError>
          <Field label="Name" name="name" required autoComplete="name" defaultValue={values.name} error={errors.name} />
          <Field
            label="Email"
            name="email"
            type="email"
            required
            autoComplete="email"
            defaultValue={values.email}
            error={errors.email}
          />
          <NewPasswordField label="Password" name="password" error={errors.password} />
          <Field
            label="Confirm Password"
            name="confirmPassword"
            type="password"
            required
            autoComplete="new-password"
            error={errors.confirmPassword}
          />
          <Field
            label="Website (optional)"
            name="website"
            type="url"
            placeholder="https://"
            defaultValue={values.website}
            error={errors.website}
          />
          <SelectField
            label="Category"
            name="category"
            required
            placeholder="Select a category"
            options={categoryOptions}
            defaultValue={values.category ?? ""}
            error={errors.category}
          />
          <SelectField
            label="Country"
            name="country"
            required
            options={countryOptions}
            defaultValue={values.country ?? DEFAULT_COUNTRY_CODE}
            error={errors.country}
          />
          <Field
            label="Monthly spending limit on entries, USD (optional)"
            name="spendLimit"
            inputMode="decimal"
            placeholder="e.g. 50, or 0 for none"
            hint="A limit on paid guesses and purchases that earn prize-pool entries each month. Lower it any time; a raise waits 24 hours."
            defaultValue={values.spendLimit}
            error={errors.spendLimit}
          />
          <div>
            <label className="flex items-start gap-2 text-sm text-gray-700">
              <input
                type="checkbox"
                name="terms"
                required
                defaultChecked={values.terms === "on"}
                className="mt-0.5"
                aria-invalid={errors.terms ? true : undefined}
              />
              <span>
                I agree to the{" "}
                <Link to="/terms" className="text-brand-700 underline">
                  Terms of Service
                </Link>{" "}
                and{" "}
                <Link to="/privacy" className="text-brand-700 underline">
                  Privacy Policy
                </Link>
              </span>
            </label>
            {errors.terms ? <p className="mt-1 text-sm text-red-600">{errors.terms}</p> : null}
          </div>
          <SubmitButton pending={navigation.state === "submitting"}>
            {navigation.state === "submitting" ? "Creating Account..." : "Create Account"}
          </SubmitButton>
        </Form>
        <p className="mt-6 text-center text-sm text-gray-600">
          Already have an account?{" "}
          <Link to="/signin" className="font-medium text-brand-700 underline">
            Sign In
          </Link>
        </p>
      </div>
    </div>
  );
}
