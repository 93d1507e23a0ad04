import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { Field, FormError, SubmitButton } from "~/components/form";
import { getDb } from "~/db/client.server";
import { createPasswordResetToken, findUserByEmail, hasRecentResetToken } from "~/db/queries/accounts.server";
import { getEnv } from "~/lib/context";
import { randomToken, sha256Hex } from "~/lib/crypto.server";
import { sendMail } from "~/lib/mail.server";
import { EmailSchema } from "~/lib/validation";
import type { Route } from "./+types/forgot-password";

export const RESET_LINK_TTL_MS = 60 * 60 * 1000;
const RESEND_AFTER_MS = 60 * 1000;
export const RESET_SENT = "If an account exists for that email, we have sent a link to reset your password. The link works once and expires in 1 hour.";

export const meta: Route.MetaFunction = () => [{ title: "Forgot Password · Tribe" }];

export async function action({ request, context }: Route.ActionArgs) {
  const env = getEnv(context);
  const db = getDb(env);
  const form = await request.formData();
  const parsed = EmailSchema.safeParse(form.get("email") ?? "");
  if (!parsed.success) {
    return data({ error: parsed.error.issues[0]?.message ?? "Please enter a valid email address", sent: false, email: String(form.get("email") ?? "") }, { status: 400 });
  }
  const email = parsed.data;
  const user = await findUserByEmail(db, email);
  const now = new Date();
  // The answer is the same whether or not the account exists, so the form reveals no e-mail addresses.
  if (user && !(await hasRecentResetToken(db, user.id, now, RESEND_AFTER_MS))) {
    const token = randomToken();
    await createPasswordResetToken(db, user.id, await sha256Hex(token), new Date(now.getTime() + RESET_LINK_TTL_MS));
    const link = `${new URL(request.url).origin}/reset-password?token=${encodeURIComponent(token)}`;
    await sendMail(env, db, {
      to: email,
      subject: "Reset your Tribe password",
      text: `Someone asked to reset the password of your Tribe account.\n\nOpen this link to choose a new password (it works once and expires in 1 hour):\n${link}\n\nIf this wasn't you, ignore this e-mail: your password stays as it is.`,
    });
  }
  return { error: null, sent: true, email };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8">
        <h1 className="text-2xl font-bold">Forgot your password?</h1>
        <p className="mt-1 text-sm text-gray-600">Enter your account's email and we'll send you a link to choose a new one.</p>
        {actionData?.sent ? (
          <p role="status" className="mt-6 rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-800">
            {RESET_SENT}
          </p>
        ) : (
          <Form method="post" className="mt-6 space-y-4">
            <FormError>{actionData?.error}</FormError>
            <Field label="Email" name="email" type="email" required autoComplete="email" defaultValue={actionData?.email} />
            <SubmitButton pending={navigation.state === "submitting"}>Send reset link</SubmitButton>
          </Form>
        )}
        <p className="mt-6 text-center text-sm">
          <Link to="/signin" className="text-brand-700 underline">
            Back to Sign In
          </Link>
        </p>
      </div>
    </div>
  );
}
