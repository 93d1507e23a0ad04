import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { Button, Card, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getMethodByAccount } from "~/db/queries/payouts.server";
import { safeRedirectPath } from "~/lib/auth.server";
import { idParam, notFound, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { deliverLocalConnectEvent } from "~/lib/payments/connect/connect-events.server";
import { localAccountObject, localConnectEvent } from "~/lib/payments/connect/connect-local.server";
import { isLocalPaymentsEnabled } from "~/lib/payments/providers/provider.server";
import type { Route } from "./+types/payouts-local-onboarding";

// The local provider's stand-in for Stripe's hosted Express onboarding: the user's own test account only, and
// only where the local provider is in use. Its buttons send the signed `account.updated` event Stripe would send.

export const meta: Route.MetaFunction = () => pageMeta("Payout account setup (test)");

async function ownAccount(args: Route.LoaderArgs | Route.ActionArgs) {
  const user = await requireUser(args.context, args.request);
  const env = getEnv(args.context);
  if (!isLocalPaymentsEnabled(env)) notFound();
  const accountId = idParam(args.params.accountId);
  const method = await getMethodByAccount(getDb(env), accountId);
  if (!method || method.userId !== user.id) notFound();
  return { user, env, method, accountId };
}

export async function loader(args: Route.LoaderArgs) {
  const { user, accountId } = await ownAccount(args);
  const back = safeRedirectPath(new URL(args.request.url).searchParams.get("return"), "/payouts");
  return { accountId, holder: user.creatorName, back };
}

const OnboardingSchema = z.object({
  outcome: z.enum(["complete", "incomplete"]),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "Please enter a two-letter country code"),
  back: z.string().max(200),
});

export async function action(args: Route.ActionArgs) {
  const { user, env, accountId } = await ownAccount(args);
  const parsed = OnboardingSchema.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success)
    return data({ error: parsed.error.issues[0]?.message ?? "Please check the form" }, { status: 400 });
  const origin = new URL(args.request.url).origin;
  const event = localConnectEvent(
    "account.updated",
    localAccountObject(accountId, {
      payoutsEnabled: parsed.data.outcome === "complete",
      holderName: user.creatorName,
      country: parsed.data.country,
    }),
    accountId,
  );
  const result = await deliverLocalConnectEvent(env, origin, event);
  if (result.status !== 200)
    return data({ error: "The test onboarding could not be recorded; please try again." }, { status: 502 });
  return redirect(safeRedirectPath(parsed.data.back, "/payouts"));
}

export default function LocalOnboarding({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Page
      title="Payout account setup"
      subtitle="Local test provider: no bank details are needed and no money moves."
      width="narrow"
    >
      <Card>
        <p className="text-sm text-gray-700">
          Test Express account <code>{loaderData.accountId}</code> for {loaderData.holder}. With Stripe, this is where
          Stripe asks for identity and bank details.
        </p>
        <Form method="post" className="mt-4 space-y-3">
          <input type="hidden" name="back" value={loaderData.back} />
          <label className="block text-sm font-medium text-gray-700">
            Country
            <input
              name="country"
              defaultValue="US"
              maxLength={2}
              required
              className="mt-1 block w-24 rounded-lg border border-gray-300 px-3 py-2 text-sm uppercase"
            />
          </label>
          {actionData?.error ? <p className="text-sm text-red-600">{actionData.error}</p> : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" name="outcome" value="complete">
              Complete onboarding
            </Button>
            <Button type="submit" name="outcome" value="incomplete" variant="secondary">
              Leave unfinished
            </Button>
          </div>
        </Form>
      </Card>
    </Page>
  );
}
