import { data, Form, redirect, useNavigation } from "react-router";
import { Card, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { getCurrentPool } from "~/db/queries/pools.server";
import { poolShareText } from "~/domain/revenue";
import { formatCents, parseMoneyToCents } from "~/domain/money";
import { getOptionalUser } from "~/lib/auth.server";
import { requireUser, signinRedirectUrl } from "~/lib/guards.server";
import { flashToastCookie } from "~/lib/toast.server";
import {
  createGuessCheckout,
  createProductCheckout,
  redirectToCheckout,
} from "~/lib/payments/checkout/checkout-session.server";
import {
  MAX_GUESS_FEE_CENTS,
  parseGuessChoice,
  parseProductChoice,
  quoteGuess,
  quoteProduct,
} from "~/lib/payments/checkout/quote.server";
import { getEnv } from "~/lib/context";
import { EntryNotice } from "~/components/entry-notice";
import { checkoutEntryNotice } from "~/lib/entry-gate.server";
import type { Route } from "./+types/payment";

export const meta: Route.MetaFunction = () => pageMeta("Complete Payment");

/** The payment data a purchase hands to this page (as URL parameters, so the page survives a reload). */
function paymentData(url: URL) {
  const q = url.searchParams;
  if (!q.has("product")) return null;
  return parseProductChoice({
    productId: q.get("product"),
    sizeName: q.get("size"),
    colorName: q.get("colour"),
    quantity: q.get("qty"),
  });
}

/** A paid guess's review data: ?game={id}&answer={text}&fee={cents, optional}. */
function guessData(url: URL) {
  const q = url.searchParams;
  if (!q.has("game")) return null;
  return parseGuessChoice({ gameId: q.get("game"), answer: q.get("answer") ?? "", feeCents: q.get("fee") });
}

/** The fee field of the guess form (USD, e.g. "5" or "5.50") in cents; NaN when it is not a money amount. */
function feeFromForm(value: FormDataEntryValue | null): number | undefined {
  if (value === null || value === "") return undefined;
  return parseMoneyToCents(value) ?? Number.NaN;
}

/** The message when Guess Now is used without a session (then the sign-in page). */
const GUESS_SIGN_IN_MESSAGE = "Please sign in to continue";

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!(await getOptionalUser(context)) && new URL(request.url).searchParams.has("game")) {
    throw redirect(signinRedirectUrl(request), {
      headers: { "Set-Cookie": flashToastCookie({ message: GUESS_SIGN_IN_MESSAGE, type: "info" }) },
    });
  }
  const user = await requireUser(context, request);
  const guess = guessData(new URL(request.url));
  if (guess) {
    if (!guess.ok) return data({ error: guess.message, review: null, guess: null }, { status: guess.status });
    const db = getDb(getEnv(context));
    const [quote, rules, pool] = await Promise.all([
      quoteGuess(db, guess.value, user.id),
      getRevenueRules(db),
      getCurrentPool(db, { ofGame: guess.value.gameId }),
    ]);
    if (!quote.ok) return data({ error: quote.message, review: null, guess: null }, { status: quote.status });
    // Said before paying (decision 520): whether this guess may be paid at all.
    const entryNotice = await checkoutEntryNotice(getEnv(context), {
      userId: user.id,
      hostId: quote.game.hostId,
      route: "paid_guess",
      amountUsdCents: quote.feeCents,
      now: new Date(),
    });
    return {
      error: null,
      review: null,
      guess: {
        entryNotice,
        question: quote.game.question,
        answer: quote.answer,
        hostName: quote.game.hostName ?? "Host",
        hostAvatarUrl: quote.game.hostAvatarUrl,
        imageUrl: quote.game.imageUrl,
        minFee: formatCents(quote.minFeeCents, "USD"),
        minFeeUsd: (quote.minFeeCents / 100).toFixed(2),
        feeUsd: (quote.feeCents / 100).toFixed(2),
        maxFeeUsd: (MAX_GUESS_FEE_CENTS / 100).toFixed(2),
        poolShare: poolShareText(rules, "guess_win_entries"),
        // The pool the entry fee goes to, while it is open.
        prizePool: pool?.status === "open" ? formatCents(pool.amountCents, pool.currency) : null,
      },
    };
  }
  const parsed = paymentData(new URL(request.url));
  // Without payment data there is nothing to pay for: the page sends the fan to the dashboard.
  if (!parsed) throw redirect("/dashboard");
  if (!parsed.ok) return data({ error: parsed.message, review: null, guess: null }, { status: parsed.status });
  const db = getDb(getEnv(context));
  const [quote, rules] = await Promise.all([quoteProduct(db, parsed.value, user.id), getRevenueRules(db)]);
  if (!quote.ok) return data({ error: quote.message, review: null, guess: null }, { status: quote.status });
  // Said before paying (decision 520): whether this purchase earns its entry.
  const entryNotice = await checkoutEntryNotice(getEnv(context), {
    userId: user.id,
    hostId: quote.product.hostId,
    route: "entry_purchase",
    amountUsdCents: quote.amountCents,
    now: new Date(),
  });
  return {
    error: null,
    guess: null,
    review: {
      entryNotice,
      poolShare: poolShareText(rules, "shop_sales"),
      name: quote.product.name,
      imageUrl: quote.imageUrl,
      size: quote.size.name,
      colour: quote.colour?.name ?? null,
      quantity: quote.quantity,
      unitPrice: formatCents(quote.unitPriceCents, "USD"),
      total: formatCents(quote.amountCents, "USD"),
      physical: quote.category === "physical",
      backTo: `/buy-now/${quote.product.id}`,
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const guess = guessData(url);
  if (guess) {
    if (!guess.ok) return data({ error: guess.message }, { status: guess.status });
    const form = await request.formData();
    const fromForm = feeFromForm(form.get("amount"));
    const result = await createGuessCheckout(getEnv(context), {
      user,
      gameId: guess.value.gameId,
      answer: guess.value.answer,
      feeCents: fromForm ?? guess.value.feeCents,
      origin: url.origin,
    });
    if (!result.ok) return data({ error: result.message }, { status: result.status });
    throw redirectToCheckout(result);
  }
  const parsed = paymentData(url);
  if (!parsed) throw redirect("/dashboard");
  if (!parsed.ok) return data({ error: `Unable to start checkout: ${parsed.message}` }, { status: parsed.status });
  const choice = parsed.value;
  const result = await createProductCheckout(getEnv(context), {
    user,
    ...choice,
    customerEmail: user.email,
    origin: url.origin,
    cancelPath: `/payment/cancel?product=${encodeURIComponent(choice.productId)}`,
  });
  if (!result.ok) return data({ error: `Unable to start checkout: ${result.message}` }, { status: result.status });
  throw redirectToCheckout(result);
}

export default function Payment({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { review, guess } = loaderData;
  const error = actionData?.error ?? loaderData.error;
  return (
    <Page
      title="Complete Payment"
      width="narrow"
      back={{ to: guess ? "/guess-win" : (review?.backTo ?? "/shop"), label: "Back" }}
    >
      {error ? (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {guess ? (
        <Card>
          <div className="flex gap-4">
            {guess.imageUrl ? (
              <img src={guess.imageUrl} alt="" width={80} height={80} className="h-20 w-20 rounded-lg object-cover" />
            ) : null}
            <div className="min-w-0">
              <p className="flex items-center gap-2 text-sm text-gray-600">
                {guess.hostAvatarUrl ? (
                  <img
                    src={guess.hostAvatarUrl}
                    alt=""
                    width={24}
                    height={24}
                    className="h-6 w-6 rounded-full object-cover"
                  />
                ) : null}
                {guess.hostName}
              </p>
              <p className="mt-1 font-semibold">{guess.question}</p>
              <p className="mt-1 text-sm text-gray-700">
                Your answer: <span className="font-semibold">{guess.answer}</span>
              </p>
              {guess.prizePool ? (
                <p className="mt-1 text-sm text-gray-700">
                  Prize pool: <span className="font-semibold">{guess.prizePool}</span>
                </p>
              ) : null}
            </div>
          </div>
          <Form method="post" className="mt-4">
            <label className="block text-sm font-medium text-gray-800" htmlFor="guess-amount">
              Entry fee (USD)
            </label>
            <input
              id="guess-amount"
              name="amount"
              type="number"
              inputMode="decimal"
              min={guess.minFeeUsd}
              max={guess.maxFeeUsd}
              step="0.01"
              defaultValue={guess.feeUsd}
              required
              className="mt-1 w-full rounded-lg border border-gray-300 px-3 py-2"
            />
            <p className="mt-1 text-xs text-gray-500">
              Minimum {guess.minFee}; you may pay more, up to USD {guess.maxFeeUsd}.
            </p>
            <p className="mt-3 text-sm text-gray-600">{`${guess.poolShare} of entry fees go to the prize pool; only a correct guess earns an entry number.`}</p>
            <div className="mt-3">
              <EntryNotice notice={guess.entryNotice} />
            </div>
            <button
              type="submit"
              disabled={busy}
              className="mt-4 w-full rounded-lg bg-brand-600 px-4 py-3 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
            >
              {busy ? "Starting checkout..." : "Pay entry fee"}
            </button>
          </Form>
        </Card>
      ) : null}
      {review ? (
        <Card>
          <div className="flex gap-4">
            {review.imageUrl ? (
              <img src={review.imageUrl} alt="" width={80} height={80} className="h-20 w-20 rounded-lg object-cover" />
            ) : null}
            <div>
              <p className="font-semibold">{review.name}</p>
              <p className="text-sm text-gray-600">
                Size {review.size}
                {review.colour ? ` · Colour ${review.colour}` : null} · Qty {review.quantity} × {review.unitPrice}
              </p>
            </div>
          </div>
          <dl className="mt-4 flex justify-between border-t pt-4 text-lg font-bold">
            <dt>Total</dt>
            <dd>{review.total}</dd>
          </dl>
          <p className="mt-3 text-sm text-gray-600">
            {`${review.poolShare} of this purchase goes to the host's prize pool, and you get a unique entry number to the main prize.`}
          </p>
          <div className="mt-3">
            <EntryNotice notice={review.entryNotice} />
          </div>
          <div className="mt-4 rounded-lg bg-gray-50 p-3 text-sm text-gray-700">
            <p className="font-medium">Payment method</p>
            <p className="mt-1">
              Pay by card (confirmed at once) or by bank transfer (your order is confirmed when the transfer arrives,
              usually within 1-2 business days). You choose on the secure checkout page; we never see your card number.
              {review.physical ? " You enter your shipping address there too." : null}
            </p>
          </div>
          <Form method="post" className="mt-4">
            <button
              type="submit"
              disabled={busy}
              className="w-full rounded-lg bg-brand-600 px-4 py-3 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
            >
              {busy ? "Starting checkout..." : `Pay ${review.total}`}
            </button>
          </Form>
        </Card>
      ) : null}
    </Page>
  );
}
