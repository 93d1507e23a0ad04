import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { Field, FormError, SubmitButton } from "~/components/form";
import { Card, DateText, Page, pageMeta } from "~/components/page";
import { PRIZE_CLAIM_DAYS, WITHHELD_NAME_TEXT } from "~/domain/prize-claims";
import { idParam, notFound, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { claimPrize, claimView } from "~/lib/prize-claims.server";
import type { Route } from "./+types/prize-claim";

// The winner claims a main prize (docs/product.md#winners, decision 540): within 30 days of the winner notice, with
// their legal name (its surname is published on /winners) and, if they wish, their objection to publication. Only
// the winner sees this page; anyone else gets 404.

export const meta: Route.MetaFunction = () => pageMeta("Claim your prize");

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const claim = await claimView(getEnv(context), idParam(params.poolId), user.id);
  if (!claim) notFound();
  return { claim };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const form = await request.formData();
  const result = await claimPrize(getEnv(context), user.id, idParam(params.poolId), {
    legalName: form.get("legalName") ?? undefined,
    withholdName: form.get("withholdName") ?? undefined,
  });
  if (!result.ok) {
    return data(
      { ok: false as const, message: result.message, fieldErrors: result.fieldErrors ?? {} },
      { status: result.status },
    );
  }
  return { ok: true as const, message: result.message, fieldErrors: {} as Record<string, string> };
}

export default function PrizeClaim({ loaderData, actionData }: Route.ComponentProps) {
  const { claim } = loaderData;
  const navigation = useNavigation();
  return (
    <Page title="Claim your prize" width="narrow" back={{ to: "/payouts", label: "Back to Payouts" }}>
      <Card>
        <p className="text-lg font-semibold text-gray-900">{`You won the main prize of ${claim.prize}!`}</p>
        {actionData ? (
          actionData.ok ? (
            <p role="status" className="mt-3 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800">
              {actionData.message}
            </p>
          ) : (
            <div className="mt-3">
              <FormError>{actionData.message}</FormError>
            </div>
          )
        ) : null}
        {claim.lapseOutcome ? (
          <p className="mt-3 text-sm text-gray-700">
            {claim.lapseOutcome === "voided"
              ? "This draw was voided, so the prize was drawn again."
              : claim.lapseOutcome === "redrawn"
                ? `This prize was not claimed within ${PRIZE_CLAIM_DAYS} days of the winner notice, so it was drawn again.`
                : `This prize was not claimed within ${PRIZE_CLAIM_DAYS} days of the winner notice, so it went to the host's next prize pool.`}
          </p>
        ) : claim.confirmedAt ? (
          <div className="mt-3 space-y-2 text-sm text-gray-700">
            <p>
              {"You claimed it on "}
              <DateText value={claim.confirmedAt} />
              {` as ${claim.legalName ?? ""}.`}
            </p>
            <p>
              {claim.idChecked
                ? "Your age and identity check is recorded."
                : "An admin will check your age and identity (we may ask you for an ID document)."}
            </p>
            <p>
              {"The prize is paid to your payout method after the draw's settlement period. "}
              <Link to="/payouts" className="font-semibold text-brand-700 underline">
                Payouts
              </Link>
            </p>
            {claim.withholdName ? <p>{`The winners page shows "${WITHHELD_NAME_TEXT}".`}</p> : null}
          </div>
        ) : claim.open ? (
          <Form method="post" className="mt-4 space-y-4">
            <p className="text-sm text-gray-700">
              {"Confirm your claim by "}
              <DateText value={claim.claimBy} />
              {`, within ${PRIZE_CLAIM_DAYS} days of the winner notice. A prize not claimed in time is drawn again. Prizes are for adults (18+): an admin checks your age and identity before it is paid, and you need a payout method.`}
            </p>
            <Field
              label="Your full legal name"
              name="legalName"
              required
              minLength={2}
              maxLength={100}
              autoComplete="name"
              hint="As on your ID. Your surname (its last word) and your region are published on the winners page unless you object below."
              error={actionData && !actionData.ok ? actionData.fieldErrors.legalName : undefined}
            />
            <label className="flex items-start gap-2 text-sm text-gray-700">
              <input type="checkbox" name="withholdName" className="mt-1" />
              <span>{`Do not publish my name: the winners page shows "${WITHHELD_NAME_TEXT}". The record stays available to the regulator.`}</span>
            </label>
            <SubmitButton pending={navigation.state === "submitting"}>Claim my prize</SubmitButton>
          </Form>
        ) : (
          <p className="mt-3 text-sm text-gray-700">{`The ${PRIZE_CLAIM_DAYS}-day claim window for this prize has closed.`}</p>
        )}
        <p className="mt-4 text-sm">
          <Link to={`/winner-selection/${claim.poolId}`} className="font-semibold text-brand-700 hover:underline">
            See how the winner was drawn
          </Link>
        </p>
      </Card>
    </Page>
  );
}
