import { data } from "react-router";
import { Link } from "~/components/link";
import { Card, Page, pageMeta } from "~/components/page";
import { getEnv } from "~/lib/context";
import { SETTINGS_MESSAGES } from "~/lib/settings-form";
import { applyEmailChange } from "~/lib/settings.server";
import type { Route } from "./+types/settings-confirm-email";

// The link mailed to a new address: opening it (once, within 24 hours) changes the account's e-mail.
export const meta: Route.MetaFunction = () => pageMeta("Confirm your e-mail");

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const outcome = await applyEmailChange(getEnv(context), token);
  if (outcome.ok) return data({ ok: true, message: SETTINGS_MESSAGES.emailConfirmed, email: outcome.newEmail });
  const message = outcome.reason === "taken" ? SETTINGS_MESSAGES.emailTaken : SETTINGS_MESSAGES.emailLinkInvalid;
  return data({ ok: false, message, email: null }, { status: 400 });
}

export default function ConfirmEmail({ loaderData }: Route.ComponentProps) {
  return (
    <Page title="Confirm your e-mail" width="narrow">
      <Card>
        <p role={loaderData.ok ? "status" : "alert"} className={loaderData.ok ? "text-green-800" : "text-red-700"}>
          {loaderData.message}
          {loaderData.email ? ` It is now ${loaderData.email}.` : null}
        </p>
        <p className="mt-4 text-sm">
          <Link to="/settings?tab=account" className="font-semibold text-brand-700 hover:underline">
            Back to Settings
          </Link>
        </p>
      </Card>
    </Page>
  );
}
