import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { FormError, SubmitButton } from "~/components/form";
import { getDb } from "~/db/client.server";
import { confirmEmailWithToken, isEmailConfirmationTokenUsable } from "~/db/queries/accounts.server";
import { getEnv } from "~/lib/context";
import { sha256Hex } from "~/lib/crypto.server";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/confirm-email";
import { linkTokenOf } from "~/lib/validation";

export const CONFIRM_LINK_INVALID = "This confirmation link is invalid, used or expired.";
export const EMAIL_CONFIRMED = "Your email is confirmed. Please sign in.";

export const meta: Route.MetaFunction = () => [{ title: "Confirm your email · Tribe" }];

// Opening the link only shows the page (mail scanners open links too); the button confirms.
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = linkTokenOf(new URL(request.url).searchParams.get("token"));
  const usable =
    token !== null &&
    (await isEmailConfirmationTokenUsable(getDb(getEnv(context)), await sha256Hex(token), new Date()));
  return data({ token: usable ? token : null }, { status: usable ? 200 : 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const token = linkTokenOf(form.get("token"));
  const userId = token ? await confirmEmailWithToken(getDb(getEnv(context)), await sha256Hex(token), new Date()) : null;
  if (!userId) return data({ error: CONFIRM_LINK_INVALID }, { status: 400 });
  throw redirect("/signin", {
    headers: { "Set-Cookie": flashToastCookie({ message: EMAIL_CONFIRMED, type: "success" }) },
  });
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8">
        <h1 className="text-2xl font-bold">Confirm your email</h1>
        {loaderData.token ? (
          <Form method="post" className="mt-6 space-y-4">
            <input type="hidden" name="token" value={loaderData.token} />
            <FormError>{actionData?.error}</FormError>
            <p className="text-sm text-gray-600">
              One click and your account is confirmed: free guesses count and prizes can be paid.
            </p>
            <SubmitButton pending={navigation.state === "submitting"}>Confirm my email</SubmitButton>
          </Form>
        ) : (
          <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {CONFIRM_LINK_INVALID} Sign in, or use “Forgot password?” to get a new link by e-mail.
          </p>
        )}
        <p className="mt-6 text-center text-sm">
          <Link to="/signin" className="text-brand-700 underline">
            Go to Sign In
          </Link>
        </p>
      </div>
    </div>
  );
}
