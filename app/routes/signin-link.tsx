import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { FormError, SubmitButton } from "~/components/form";
import { getDb } from "~/db/client.server";
import { consumeAccountLink, isAccountLinkUsable } from "~/db/queries/accounts.server";
import { getEnv } from "~/lib/context";
import { sha256Hex } from "~/lib/crypto.server";
import { startSignedInSession } from "~/lib/sign-in.server";
import type { Route } from "./+types/signin-link";
import { linkTokenOf } from "~/lib/validation";

export const SIGNIN_LINK_INVALID =
  "This sign-in link is invalid, used or expired. Please sign in again to get a new one.";

export const meta: Route.MetaFunction = () => [{ title: "Sign in with a link · Tribe" }];

// The one-time link mailed past the ceiling of failed sign-ins (decision 410). Opening it only shows this page (mail
// scanners open links too); its button signs in.
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = linkTokenOf(new URL(request.url).searchParams.get("token"));
  const usable =
    token !== null &&
    (await isAccountLinkUsable(getDb(getEnv(context)), await sha256Hex(token), "sign_in", new Date()));
  return data({ token: usable ? token : null }, { status: usable ? 200 : 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const db = getDb(getEnv(context));
  const form = await request.formData();
  const token = linkTokenOf(form.get("token"));
  const userId = token ? await consumeAccountLink(db, await sha256Hex(token), "sign_in", new Date()) : null;
  if (!userId) return data({ error: SIGNIN_LINK_INVALID }, { status: 400 });
  return startSignedInSession(db, userId, request, "/dashboard");
}

export default function SigninLink({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8">
        <h1 className="text-2xl font-bold">Sign in with a link</h1>
        {loaderData.token ? (
          <Form method="post" className="mt-6 space-y-4">
            <input type="hidden" name="token" value={loaderData.token} />
            <FormError>{actionData?.error}</FormError>
            <p className="text-sm text-gray-600">This link works once. Sign in to your Tribe account on this device?</p>
            <SubmitButton pending={navigation.state === "submitting"}>Sign me in</SubmitButton>
          </Form>
        ) : (
          <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {SIGNIN_LINK_INVALID}
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
