import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { Field, FormError, NewPasswordField, SubmitButton } from "~/components/form";
import { getDb } from "~/db/client.server";
import {
  consumeResetToken,
  isResetTokenUsable,
  markEmailConfirmed,
  revokeAccountCredentials,
  setPasswordHash,
} from "~/db/queries/accounts.server";
import { getEnv } from "~/lib/context";
import { sha256Hex } from "~/lib/crypto.server";
import { refusingCommonPasswords } from "~/lib/common-passwords.server";
import { hashPassword } from "~/lib/password.server";
import { flashToastCookie } from "~/lib/toast.server";
import { fieldErrors, ResetPasswordSchema } from "~/lib/validation";
import type { Route } from "./+types/reset-password";

export const LINK_INVALID = "This password reset link is invalid or has expired. Please request a new one.";

export const meta: Route.MetaFunction = () => [{ title: "Choose a new password · Tribe" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const usable =
    token.length >= 20 &&
    token.length <= 200 &&
    (await isResetTokenUsable(getDb(getEnv(context)), await sha256Hex(token), new Date()));
  return data({ token: usable ? token : null }, { status: usable ? 200 : 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const db = getDb(getEnv(context));
  const form = await request.formData();
  const parsed = refusingCommonPasswords(ResetPasswordSchema, "password").safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, { status: 400 });
  const passwordHash = await hashPassword(parsed.data.password);
  const userId = await consumeResetToken(db, await sha256Hex(parsed.data.token), new Date());
  if (!userId) return data({ errors: { form: LINK_INVALID } as Record<string, string> }, { status: 400 });
  await setPasswordHash(db, userId, passwordHash);
  // The link came by e-mail, so opening it proves the address as a confirmation link does.
  await markEmailConfirmed(db, userId, new Date());
  // Every other reset, e-mail-change and confirmation link of the account and every session end (decision 410).
  await revokeAccountCredentials(db, userId, null);
  throw redirect("/signin", {
    headers: {
      "Set-Cookie": flashToastCookie({ message: "Your password has been changed. Please sign in.", type: "success" }),
    },
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors: Record<string, string> = actionData?.errors ?? {};
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8">
        <h1 className="text-2xl font-bold">Choose a new password</h1>
        {loaderData.token ? (
          <Form method="post" className="mt-6 space-y-4">
            <input type="hidden" name="token" value={loaderData.token} />
            <FormError>{errors.form ?? errors.token}</FormError>
            <NewPasswordField label="New password" name="password" error={errors.password} />
            <Field
              label="Confirm new password"
              name="confirmPassword"
              type="password"
              required
              autoComplete="new-password"
              error={errors.confirmPassword}
            />
            <SubmitButton pending={navigation.state === "submitting"}>Change password</SubmitButton>
          </Form>
        ) : (
          <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {LINK_INVALID}
          </p>
        )}
        <p className="mt-6 text-center text-sm">
          <Link to="/forgot-password" className="text-brand-700 underline">
            Request a new link
          </Link>
        </p>
      </div>
    </div>
  );
}
