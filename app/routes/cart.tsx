import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { buttonClass, EmptyState, Page, pageMeta } from "~/components/page";
import { AutoSubmitSelect, CurrencyChoiceForm, CurrencySelect, optionList } from "~/components/shop-ui";
import { getDb } from "~/db/client.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { getViewerPlace } from "~/db/queries/profiles.server";
import { CART_MESSAGES } from "~/domain/cart";
import { countryByCode, formatIn, isCountryCode, COUNTRIES } from "~/domain/currency";
import { CHECKOUT_CURRENCY } from "~/domain/payments";
import { formatCents } from "~/domain/money";
import { poolShareText } from "~/domain/revenue";
import { getOptionalUser } from "~/lib/auth.server";
import { viewerCurrency } from "~/lib/currency.server";
import { addToCart, loadCartLines, priceCart, removeFromCart, updateCartLine } from "~/lib/cart.server";
import { getEnv } from "~/lib/context";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import { createCartCheckout } from "~/lib/payments/checkout/cart-checkout.server";
import { redirectToCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { flashToastCookie } from "~/lib/toast.server";
import { formText } from "~/lib/validation";
import { EntryNotice } from "~/components/entry-notice";
import { checkoutEntryNotice } from "~/lib/entry-gate.server";
import type { Route } from "./+types/cart";

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = () => pageMeta("Cart");

/** The cart's ship-to choice: none until the fan picks a country (the order ships there). */
const cartShipToOptions = optionList(() => [
  ["", "Choose a country"],
  ...COUNTRIES.map((c) => [c.code, c.name] as const),
]);

function shipToOf(value: string | null | undefined): string | null {
  const code = (value ?? "").trim().toUpperCase();
  return isCountryCode(code) ? code : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = getDb(getEnv(context));
  const user = await getOptionalUser(context);
  const params = new URL(request.url).searchParams;
  const [lines, viewerPlace, rules] = await Promise.all([
    loadCartLines(db, { user, request }),
    user ? getViewerPlace(db, user.id) : undefined,
    getRevenueRules(db),
  ]);
  // The chosen country, else the fan's own. The viewer's currency as on every page (decision 620); the totals are
  // the USD charge converted into it (decision 290).
  const shipTo = shipToOf(params.get("shipTo")) ?? shipToOf(viewerPlace?.country);
  const currency = viewerCurrency(request, viewerPlace);
  const cart = await priceCart(db, { lines, buyerId: user?.id ?? null, shipTo });
  const shown = (usdCents: number) => formatIn(usdCents, CHECKOUT_CURRENCY, currency);
  // Said before paying (decision 520): whether each host's part earns its entry.
  const now = new Date();
  const entryNotices = new Map<string, Awaited<ReturnType<typeof checkoutEntryNotice>>>();
  for (const g of cart.groups) {
    const amountUsdCents = g.subtotalCents;
    entryNotices.set(
      g.hostId,
      await checkoutEntryNotice(getEnv(context), {
        userId: user?.id ?? null,
        hostId: g.hostId,
        route: "entry_purchase",
        amountUsdCents,
        now,
      }),
    );
  }
  return {
    poolShare: poolShareText(rules, "shop_sales"),
    signedIn: user !== null,
    shipTo: cart.shipTo ?? "",
    currency,
    needsShipping: cart.needsShipping,
    itemCount: cart.itemCount,
    total: shown(cart.totalCents),
    totalUsd: formatCents(cart.totalCents, CHECKOUT_CURRENCY),
    problem: cart.lines.length > 0 ? cart.problem : null,
    groups: cart.groups.map((g) => ({
      hostId: g.hostId,
      hostName: g.hostName,
      subtotal: shown(g.subtotalCents),
      entryNotice: entryNotices.get(g.hostId) ?? null,
      items: g.items.map((l) => ({
        productId: l.line.productId,
        sizeName: l.line.sizeName,
        colorName: l.line.colorName,
        quantity: l.line.quantity,
        maxQuantity: l.maxQuantity,
        name: l.product?.name || "Unnamed Product",
        href: l.product ? `/buy-now/${l.product.id}` : null,
        image: l.imageUrl,
        unit: l.quote ? shown(l.unitPriceCents) : null,
        amount: l.quote ? shown(l.amountCents) : null,
        problem: l.problem,
        // A choice to change only where there is one (decision 600); a sold-out option shows, but cannot be chosen.
        sizes: l.sizes.length > 1 ? variantOptions(l.sizes, l.line.sizeName) : null,
        colours: l.colours.length > 1 ? variantOptions(l.colours, l.line.colorName) : null,
      })),
    })),
  };
}

/** A line's size or colour choices on /cart: each name, and whether it can be chosen (units left, or the line's own). */
function variantOptions(options: readonly { name: string; availableUnits: number }[], current: string) {
  return options.map((o) => ({
    name: o.name,
    label: o.availableUnits > 0 ? o.name : `${o.name} (sold out)`,
    disabled: o.availableUnits <= 0 && o.name !== current,
  }));
}

type CartActionData = { error: string; signIn?: boolean };

function formFields(form: FormData) {
  return {
    productId: formText(form, "productId", 200),
    sizeName: formText(form, "size", 200) ?? formText(form, "sizeName", 200),
    colorName: formText(form, "color", 200) ?? formText(form, "colorName", 200),
    quantity: formText(form, "quantity", 20),
  };
}

/**
 * POST /cart: intent add (from /shop, /product and /buy-now), update (a line's quantity, size and colour: newSize,
 * newColor), remove, or checkout (the whole cart in one checkout). A visitor's cart lives in a signed cookie; checkout needs a signed-in fan.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const env = getEnv(context);
  const db = getDb(env);
  const user = await getOptionalUser(context);
  const form = await request.formData();
  const intent = form.get("intent");
  const holder = { user, request };
  const back = (() => {
    const search = new URLSearchParams();
    const shipTo = shipToOf(formText(form, "shipTo", 10));
    if (shipTo) search.set("shipTo", shipTo);
    const qs = search.toString();
    return qs ? `/cart?${qs}` : "/cart";
  })();

  if (intent === "checkout") {
    if (!user) return data<CartActionData>({ error: CART_MESSAGES.signIn, signIn: true }, { status: 401 });
    const result = await createCartCheckout(env, {
      user,
      shipTo: formText(form, "shipTo", 10),
      origin: new URL(request.url).origin,
    });
    if (!result.ok) return data<CartActionData>({ error: result.message }, { status: result.status });
    return redirectToCheckout(result);
  }

  const change =
    intent === "add"
      ? await addToCart(db, holder, formFields(form))
      : intent === "update"
        ? await updateCartLine(db, holder, {
            ...formFields(form),
            newSizeName: formText(form, "newSize", 200) ?? undefined,
            newColorName: formText(form, "newColor", 200) ?? undefined,
          })
        : intent === "remove"
          ? await removeFromCart(db, holder, formFields(form))
          : null;
  if (!change) return data<CartActionData>({ error: "Unknown action" }, { status: 400 });
  if (!change.ok) return data<CartActionData>({ error: change.message }, { status: change.status });
  const headers = new Headers();
  if (change.setCookie) headers.append("Set-Cookie", change.setCookie);
  headers.append("Set-Cookie", flashToastCookie({ message: change.message, type: "success", durationMs: 2000 }));
  return redirect(back, { status: 303, headers });
}

/** A cart line's size or colour select (posted with the line's Update button; works without JavaScript). */
function VariantSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string;
  options: readonly { name: string; label: string; disabled: boolean }[];
}) {
  return (
    <label className="text-sm text-gray-700">
      <span className="sr-only">{label}</span>
      <select
        name={name}
        defaultValue={value}
        key={value}
        className="h-9 max-w-40 rounded-lg border border-gray-300 px-2 text-sm"
      >
        {options.map((o) => (
          <option key={o.name} value={o.name} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export default function Cart({ loaderData, actionData }: Route.ComponentProps) {
  const { groups, signedIn, shipTo, currency, total, totalUsd, problem, itemCount, needsShipping } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const keep = <>{shipTo ? <input type="hidden" name="shipTo" value={shipTo} /> : null}</>;
  return (
    <Page
      title="Your Cart"
      subtitle={`${loaderData.poolShare} of every purchase goes to each creator's prize pool, and you get one entry number per creator.`}
    >
      {actionData ? (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {actionData.error}
          {actionData.signIn ? (
            <>
              {" "}
              <Link to={`/signin?redirectTo=${encodeURIComponent("/cart")}`} className="font-semibold underline">
                Sign in
              </Link>
            </>
          ) : null}
        </p>
      ) : null}

      {groups.length === 0 ? (
        <EmptyState
          title={CART_MESSAGES.empty}
          message="Add products from the shop, then pay for all of them in one checkout."
          action={{ to: "/shop", label: "Browse Shop" }}
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
          <div className="space-y-6">
            {groups.map((g) => (
              <section
                key={g.hostId || "unavailable"}
                aria-label={`Items from ${g.hostName}`}
                className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm"
              >
                <h2 className="text-base font-semibold text-gray-900">{g.hostName}</h2>
                <ul className="mt-3 divide-y divide-gray-100">
                  {g.items.map((item) => (
                    <li
                      key={`${item.productId}|${item.sizeName}|${item.colorName}`}
                      data-cart-line={item.productId}
                      className="flex flex-wrap gap-3 py-3"
                    >
                      <div className="h-16 w-16 shrink-0 overflow-hidden rounded-lg bg-gray-100">
                        {item.image ? (
                          <img src={item.image} alt="" loading="lazy" className="h-full w-full object-cover" />
                        ) : null}
                      </div>
                      <div className="min-w-0 flex-1">
                        {item.href ? (
                          <Link to={item.href} className="font-medium text-gray-900 hover:underline">
                            {item.name}
                          </Link>
                        ) : (
                          <p className="font-medium text-gray-900">{item.name}</p>
                        )}
                        <p className="text-sm text-gray-600">
                          {[item.sizeName && `Size ${item.sizeName}`, item.colorName && `Colour ${item.colorName}`]
                            .filter(Boolean)
                            .join(" · ")}
                          {item.unit ? ` · ${item.unit} each` : ""}
                        </p>
                        {item.problem ? (
                          <p role="status" className="mt-1 text-sm font-medium text-red-700">
                            {item.problem}
                          </p>
                        ) : null}
                        <div className="mt-2 flex flex-wrap items-center gap-2">
                          <Form method="post" className="flex flex-wrap items-center gap-2">
                            <input type="hidden" name="productId" value={item.productId} />
                            <input type="hidden" name="size" value={item.sizeName} />
                            <input type="hidden" name="color" value={item.colorName} />
                            {keep}
                            {item.sizes ? (
                              <VariantSelect
                                name="newSize"
                                label={`Size of ${item.name}`}
                                value={item.sizeName}
                                options={item.sizes}
                              />
                            ) : null}
                            {item.colours ? (
                              <VariantSelect
                                name="newColor"
                                label={`Colour of ${item.name}`}
                                value={item.colorName}
                                options={item.colours}
                              />
                            ) : null}
                            <label className="text-sm text-gray-700">
                              <span className="sr-only">{`Quantity of ${item.name}`}</span>
                              <input
                                type="number"
                                name="quantity"
                                min={1}
                                // Another size or colour may have more left: the server checks the new choice.
                                max={item.sizes || item.colours ? undefined : item.maxQuantity}
                                defaultValue={item.quantity}
                                key={item.quantity}
                                className="h-9 w-16 rounded-lg border border-gray-300 px-2 text-center text-sm"
                              />
                            </label>
                            <button name="intent" value="update" className={buttonClass("secondary", "sm")}>
                              Update
                            </button>
                          </Form>
                          <Form method="post">
                            <input type="hidden" name="productId" value={item.productId} />
                            <input type="hidden" name="size" value={item.sizeName} />
                            <input type="hidden" name="color" value={item.colorName} />
                            {keep}
                            <button
                              name="intent"
                              value="remove"
                              className={buttonClass("ghost", "sm")}
                              aria-label={`Remove ${item.name}`}
                            >
                              Remove
                            </button>
                          </Form>
                        </div>
                      </div>
                      <p className="text-right font-semibold text-gray-900">{item.amount ?? "—"}</p>
                    </li>
                  ))}
                </ul>
                <p className="mt-2 flex justify-between border-t border-gray-100 pt-2 text-sm text-gray-700">
                  <span>Subtotal</span>
                  <span className="font-semibold text-gray-900">{g.subtotal}</span>
                </p>
                <div className="mt-2">
                  <EntryNotice notice={g.entryNotice} />
                </div>
              </section>
            ))}
          </div>

          <aside className="h-fit space-y-4 rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
            <Form method="get" className="grid gap-3">
              <AutoSubmitSelect label="Ship to" name="shipTo" value={shipTo} options={cartShipToOptions(shipTo)} />
              <CurrencySelect value={currency} />
              <button type="submit" className={buttonClass("secondary", "sm")}>
                Apply
              </button>
            </Form>
            <CurrencyChoiceForm />
            <p className="flex items-baseline justify-between border-t border-gray-100 pt-3 text-sm text-gray-700">
              <span>{`Total (${itemCount} item${itemCount === 1 ? "" : "s"})`}</span>
              <span data-cart-total className="text-xl font-bold text-gray-900">
                {total}
              </span>
            </p>
            <p className="text-xs text-gray-500">{`Checkout is processed in USD: ${totalUsd}.${needsShipping && shipTo ? ` Shipping to ${countryByCode(shipTo).name}.` : ""}`}</p>
            {problem ? (
              <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
                {problem}
              </p>
            ) : null}
            {signedIn ? (
              <Form method="post">
                {keep}
                <button
                  name="intent"
                  value="checkout"
                  disabled={problem !== null || busy}
                  className={buttonClass("primary", "md", "w-full py-3 text-base")}
                >
                  {busy ? "Starting checkout..." : "Checkout"}
                </button>
              </Form>
            ) : (
              <Link
                to={`/signin?redirectTo=${encodeURIComponent("/cart")}`}
                className={buttonClass("primary", "md", "w-full py-3 text-center text-base")}
              >
                Sign in to check out
              </Link>
            )}
          </aside>
        </div>
      )}
    </Page>
  );
}
