import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { SubmitButton } from "~/components/form";
import { Card, Page, pageMeta } from "~/components/page";
import { getEnv } from "~/lib/context";
import { SETTINGS_MESSAGES } from "~/lib/settings-form";
import { applyEmailChange, isEmailChangeTokenUsable } from "~/lib/settings.server";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/settings-confirm-email";

// The link mailed to a new address. Opening it only shows this page (mail scanners open links too); its button
// changes the account's e-mail (once, within 24 hours) and ends the account's other sessions and links.
export const meta: Route.MetaFunction = () => pageMeta("Confirm your e-mail");

function tokenOf(value: FormDataEntryValue | string | null): string {
  return typeof value === "string" ? value : "";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(new URL(request.url).searchParams.get("token"));
  const usable = await isEmailChangeTokenUsable(getEnv(context), token);
  return data(
    { token: usable ? token : null, message: usable ? null : SETTINGS_MESSAGES.emailLinkInvalid },
    { status: usable ? 200 : 400 },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const outcome = await applyEmailChange(getEnv(context), request, tokenOf(form.get("token")));
  if (outcome.ok) {
    // Settings (or sign-in, on a device without a session of the account) shows the change in a toast.
    const message = `${SETTINGS_MESSAGES.emailConfirmed} It is now ${outcome.newEmail}.`;
    throw redirect("/settings?tab=account", {
      headers: { "Set-Cookie": flashToastCookie({ message, type: "success" }) },
    });
  }
  const message =
    outcome.reason === "taken" ? SETTINGS_MESSAGES.emailTakenOnConfirm : SETTINGS_MESSAGES.emailLinkInvalid;
  return data({ token: null, message }, { status: 400 });
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const shown = actionData ?? loaderData;
  return (
    <Page title="Confirm your e-mail" width="narrow">
      <Card>
        {shown.token ? (
          <Form method="post" className="space-y-4">
            <input type="hidden" name="token" value={shown.token} />
            <p className="text-sm text-gray-600">
              Confirm to make this address the e-mail of your Tribe account. Your other devices will be signed out.
            </p>
            <SubmitButton pending={navigation.state === "submitting"}>Confirm my new email</SubmitButton>
          </Form>
        ) : (
          <p role="alert" className="text-red-700">
            {shown.message}
          </p>
        )}
        <p className="mt-4 text-sm">
          <Link to="/settings?tab=account" className="font-semibold text-brand-700 hover:underline">
            Back to Settings
          </Link>
        </p>
      </Card>
    </Page>
  );
}
