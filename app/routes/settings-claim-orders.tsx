import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { SubmitButton } from "~/components/form";
import { Card, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { consumeAccountLink, isAccountLinkUsable } from "~/db/queries/accounts.server";
import { claimGuestOrders } from "~/db/queries/orders.server";
import { getEnv } from "~/lib/context";
import { sha256Hex } from "~/lib/crypto.server";
import { SETTINGS_MESSAGES } from "~/lib/settings-form";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/settings-claim-orders";
import { linkTokenOf } from "~/lib/validation";

// The link mailed to an account's address to add the guest orders paid with it (decision 410). Opening it only shows
// this page (mail scanners open links too); its button adds them.
export const meta: Route.MetaFunction = () => pageMeta("Add your guest orders");

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = linkTokenOf(new URL(request.url).searchParams.get("token"));
  const usable =
    token !== null &&
    (await isAccountLinkUsable(getDb(getEnv(context)), await sha256Hex(token), "order_claim", new Date()));
  return data(
    { token: usable ? token : null, message: usable ? null : SETTINGS_MESSAGES.claimLinkInvalid },
    { status: usable ? 200 : 400 },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const db = getDb(getEnv(context));
  const form = await request.formData();
  const token = linkTokenOf(form.get("token"));
  const userId = token ? await consumeAccountLink(db, await sha256Hex(token), "order_claim", new Date()) : null;
  if (!userId) return data({ token: null, message: SETTINGS_MESSAGES.claimLinkInvalid }, { status: 400 });
  const claimed = await claimGuestOrders(db, userId);
  throw redirect("/my-orders", {
    headers: {
      "Set-Cookie": flashToastCookie({ message: SETTINGS_MESSAGES.guestOrdersClaimed(claimed), type: "success" }),
    },
  });
}

export default function ClaimOrders({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const shown = actionData ?? loaderData;
  return (
    <Page title="Add your guest orders" width="narrow">
      <Card>
        {shown.token ? (
          <Form method="post" className="space-y-4">
            <input type="hidden" name="token" value={shown.token} />
            <p className="text-sm text-gray-600">
              This adds the orders paid as a guest with your email address to your account.
            </p>
            <SubmitButton pending={navigation.state === "submitting"}>Add them to my account</SubmitButton>
          </Form>
        ) : (
          <p role="alert" className="text-red-700">
            {shown.message}
          </p>
        )}
        <p className="mt-4 text-sm">
          <Link to="/my-orders" className="font-semibold text-brand-700 hover:underline">
            Go to My Orders
          </Link>
        </p>
      </Card>
    </Page>
  );
}
