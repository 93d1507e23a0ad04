import { data, redirect } from "react-router";
import { currencyOptions } from "~/components/shop-ui";
import { Link } from "~/components/link";
import { buttonClass, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getViewerPlace, setProfileCurrency } from "~/db/queries/profiles.server";
import { CURRENCY_CHOICE_MESSAGES, CurrencyChoiceSchema } from "~/domain/currency-choice";
import { getOptionalUser, safeRedirectPath, viewerSession } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { currencyCookie, viewerCurrency } from "~/lib/currency.server";
import type { Route } from "./+types/currency";

// POST /currency: a page's currency select (decision 620). A fan's choice is kept on their profile (every device
// they sign in on), a visitor's in the `__Host-currency` cookie; then back to the page it was made on.

export const meta: Route.MetaFunction = () => pageMeta("Currency");

/** GET /currency: the same choice as a page of its own (a page's select posts here and goes back). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = viewerSession(context);
  const place = viewer ? await getViewerPlace(getDb(getEnv(context)), viewer) : undefined;
  return { currency: viewerCurrency(request, place) };
}

/** The page the choice was made on, without a `?currency=` of its own (that would outvote the choice). */
function backTo(returnTo: string | undefined): string {
  const path = safeRedirectPath(returnTo, "/");
  const url = new URL(path, "https://tribe.invalid");
  url.searchParams.delete("currency");
  return url.pathname + url.search + url.hash;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const parsed = CurrencyChoiceSchema.safeParse({
    currency: form.get("currency"),
    returnTo: form.get("returnTo") ?? undefined,
  });
  if (!parsed.success) {
    const returnTo = form.get("returnTo");
    const back = backTo(typeof returnTo === "string" ? returnTo : undefined);
    return data({ error: CURRENCY_CHOICE_MESSAGES.unknown, back }, { status: 400 });
  }
  const { currency, returnTo } = parsed.data;
  const user = await getOptionalUser(context);
  if (user) {
    await setProfileCurrency(getDb(getEnv(context)), user.id, currency);
    return redirect(backTo(returnTo), 303);
  }
  return redirect(backTo(returnTo), { status: 303, headers: { "Set-Cookie": currencyCookie(currency) } });
}

export default function CurrencyChoice({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Page title="Currency" width="narrow">
      {actionData ? (
        <p role="alert" className="mb-4 text-red-700">
          {actionData.error}
        </p>
      ) : null}
      <form method="post" action="/currency" className="flex flex-wrap items-end gap-3">
        <label className="field-label">
          Show prices in
          <select
            name="currency"
            className="mt-1 field"
            dangerouslySetInnerHTML={currencyOptions(loaderData.currency)}
          />
        </label>
        <button type="submit" className={buttonClass("primary")}>
          Save
        </button>
      </form>
      {actionData ? (
        <p className="mt-4">
          <Link to={actionData.back} className="underline">
            Back
          </Link>
        </p>
      ) : null}
    </Page>
  );
}
