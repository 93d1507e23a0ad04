import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { Field, FormError, SubmitButton } from "~/components/form";
import { getDb } from "~/db/client.server";
import { findUserByEmail } from "~/db/queries/accounts.server";
import { sendResetMail } from "~/lib/account-mail.server";
import { getEnv } from "~/lib/context";
import { mayMailAccount } from "~/lib/throttle.server";
import { EmailSchema } from "~/lib/validation";
import type { Route } from "./+types/forgot-password";

export const RESET_SENT =
  "If an account exists for that email, we have sent a link to reset your password. The link works once and expires in 30 minutes.";

export const meta: Route.MetaFunction = () => [{ title: "Forgot Password · Tribe" }];

export async function action({ request, context }: Route.ActionArgs) {
  const env = getEnv(context);
  const db = getDb(env);
  const form = await request.formData();
  const parsed = EmailSchema.safeParse(form.get("email") ?? "");
  if (!parsed.success) {
    return data(
      {
        error: parsed.error.issues[0]?.message ?? "Please enter a valid email address",
        sent: false,
        email: String(form.get("email") ?? ""),
      },
      { status: 400 },
    );
  }
  const email = parsed.data;
  // The answer is the same whether or not the account exists, so the form reveals no e-mail addresses; an address
  // gets at most one reset mail per window (decision 410), and a new link revokes the account's older ones.
  if (await mayMailAccount(db, "reset", email)) {
    const user = await findUserByEmail(db, email);
    if (user && !user.deletedAt) await sendResetMail(env, db, { userId: user.id, email }, new URL(request.url).origin);
  }
  return { error: null, sent: true, email };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8">
        <h1 className="text-2xl font-bold">Forgot your password?</h1>
        <p className="mt-1 text-sm text-gray-600">
          Enter your account's email and we'll send you a link to choose a new one.
        </p>
        {actionData?.sent ? (
          <p role="status" className="mt-6 rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-800">
            {RESET_SENT}
          </p>
        ) : (
          <Form method="post" className="mt-6 space-y-4">
            <FormError>{actionData?.error}</FormError>
            <Field
              label="Email"
              name="email"
              type="email"
              required
              autoComplete="email"
              defaultValue={actionData?.email}
            />
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
