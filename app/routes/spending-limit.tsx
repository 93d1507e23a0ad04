import { data, Form, useNavigation } from "react-router";
import { Field, SubmitButton } from "~/components/form";
import { Card, DateText, Page, pageMeta } from "~/components/page";
import { formatCents } from "~/domain/money";
import {
  CREDIT_CARD_CAP_TEXT,
  REFUNDS_KEEP_COUNTING_TEXT,
  SPEND_LIMIT_CURRENCY,
  SPEND_LIMIT_MESSAGES,
  SpendLimitFormSchema,
  spendLimitText,
} from "~/domain/spend-limits";
import { getEnv } from "~/lib/context";
import { setSpendLimit, spendLimitView } from "~/lib/entry-gate.server";
import { requireUser } from "~/lib/guards.server";
import type { Route } from "./+types/spending-limit";

// A fan's monthly limit on spend that earns entries (docs/product.md#spend-limits, decision 520): lowered at once,
// raised after 24 hours, with this month's counted spend and the credit-card cap.
export const meta: Route.MetaFunction = () => pageMeta("Spending limit");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return spendLimitView(getEnv(context), user.id, new Date());
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const form = await request.formData();
  const parsed = SpendLimitFormSchema.safeParse({
    limit: typeof form.get("limit") === "string" ? form.get("limit") : undefined,
    noLimit: form.get("noLimit") ?? undefined,
  });
  if (!parsed.success)
    return data(
      { ok: false, message: parsed.error.issues[0]?.message ?? SPEND_LIMIT_MESSAGES.invalid },
      { status: 400 },
    );
  const { change } = await setSpendLimit(getEnv(context), user.id, parsed.data, new Date());
  return { ok: true, message: SPEND_LIMIT_MESSAGES[change] };
}

const usd = (cents: number) => formatCents(cents, SPEND_LIMIT_CURRENCY);

export default function SpendingLimit({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const view = loaderData;
  return (
    <Page title="Spending limit" width="narrow">
      <Card>
        <h2 className="font-semibold text-gray-900">Your monthly limit on entries</h2>
        <p className="mt-1 text-sm text-gray-600">
          A limit on what you spend each calendar month (UTC) on paid guesses and purchases that earn prize-pool
          entries, in {SPEND_LIMIT_CURRENCY} (what checkout charges). Past it a paid guess is refused, and a purchase
          still goes through but earns no entry; checkout tells you before you pay. Lowering it applies at once; raising
          it or removing it takes effect 24 hours after you ask. {REFUNDS_KEEP_COUNTING_TEXT}
        </p>
        <dl className="mt-4 grid grid-cols-2 gap-2 text-sm">
          <dt className="text-gray-600">Limit now</dt>
          <dd className="font-semibold" data-spend-limit>
            {view.isSet ? spendLimitText(view.limitUsdCents) : "Not set"}
          </dd>
          {view.pending ? (
            <>
              <dt className="text-gray-600">Waiting to apply</dt>
              <dd data-spend-limit-pending>
                {spendLimitText(view.pending.usdCents)} from <DateText value={view.pending.from} withTime />
              </dd>
            </>
          ) : null}
          <dt className="text-gray-600">{`Counted in ${view.month}`}</dt>
          <dd data-spend-month>{usd(view.spentUsdCents)}</dd>
          <dt className="text-gray-600">By credit card</dt>
          <dd>{`${usd(view.creditSpentUsdCents)} of ${usd(view.creditCapUsdCents)} (£250)`}</dd>
        </dl>
        <p className="mt-3 text-xs text-gray-500">{CREDIT_CARD_CAP_TEXT}</p>
        {actionData ? (
          <p
            role={actionData.ok ? "status" : "alert"}
            className={`mt-4 rounded-lg px-3 py-2 text-sm ${actionData.ok ? "bg-green-50 text-green-800" : "bg-red-50 text-red-700"}`}
          >
            {actionData.message}
          </p>
        ) : null}
        <Form method="post" className="mt-4 space-y-3">
          <Field
            label={`Monthly limit (${SPEND_LIMIT_CURRENCY})`}
            name="limit"
            inputMode="decimal"
            placeholder="e.g. 50 or 0"
            defaultValue={view.limitUsdCents === null ? "" : (view.limitUsdCents / 100).toFixed(2)}
          />
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input type="checkbox" name="noLimit" /> No limit
          </label>
          <SubmitButton pending={navigation.state === "submitting"}>Save limit</SubmitButton>
        </Form>
      </Card>
    </Page>
  );
}
