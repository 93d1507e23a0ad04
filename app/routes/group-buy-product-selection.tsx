import { useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { FormError } from "~/components/form";
import { Button, Card, EmptyState, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getGroupBuy, listGroupBuyProducts, listGroupBuyVariants } from "~/db/queries/group-buys.server";
import { productCategory } from "~/domain/catalog";
import { convertCents } from "~/domain/currency";
import { GROUP_BUY_ACTION_MESSAGES, GROUP_BUY_CURRENCY } from "~/domain/group-buy";
import { formatCents } from "~/domain/money";
import { getOptionalUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { createGroupBuyCheckout, GroupBuySelectionSchema } from "~/lib/payments/checkout/group-buy-checkout.server";
import { CHECKOUT_MESSAGES } from "~/lib/payments/checkout/quote.server";
import { redirectToCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { idParam, notFound } from "~/lib/guards.server";
import { EntryNotice } from "~/components/entry-notice";
import { checkoutEntryNotice } from "~/lib/entry-gate.server";
import type { Route } from "./+types/group-buy-product-selection";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Choose products · ${loaderData.groupBuy.name}` : errorTitle(error, "Group buy not found"));

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const db = getDb(getEnv(context));
  const groupBuy = await getGroupBuy(db, id);
  const viewer = await getOptionalUser(context);
  if (!groupBuy || (groupBuy.status === "draft" && groupBuy.hostId !== viewer?.id)) notFound();
  // Said before paying (decision 520): whether joining earns an entry (the amount is still to choose).
  const entryNotice = await checkoutEntryNotice(getEnv(context), {
    userId: viewer?.id ?? null,
    hostId: groupBuy.hostId,
    route: "entry_purchase",
    amountUsdCents: null,
    now: new Date(),
  });
  const products = await listGroupBuyProducts(db, id, 50);
  const variants = await listGroupBuyVariants(
    db,
    products.map((p) => p.id),
  );
  return {
    groupBuy: {
      id: groupBuy.id,
      name: groupBuy.name,
      status: groupBuy.status,
      hostName: groupBuy.hostName,
      endAt: groupBuy.endAt,
    },
    products: products.map((p) => ({
      ...p,
      // Vouchers and digital items are sold one at a time (the checkout refuses more).
      singleUnit: productCategory(p.category) !== "physical",
      sizes: variants.get(p.id)?.sizes ?? [],
      colours: variants.get(p.id)?.colours ?? [],
    })),
    singleUnitNote: CHECKOUT_MESSAGES.singleUnit,
    entryNotice,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const id = idParam(params.id);
  const form = await request.formData();
  const parsed = GroupBuySelectionSchema.safeParse({
    items: form.getAll("productId").map((productId, i) => ({
      productId,
      sizeName: form.getAll("sizeName")[i] ?? "",
      colorName: form.getAll("colorName")[i] ?? "",
      quantity: form.getAll("quantity")[i] ?? "0",
    })),
  });
  if (!parsed.success)
    return data(
      { message: parsed.error.issues[0]?.message ?? GROUP_BUY_ACTION_MESSAGES.selectProduct },
      { status: 400 },
    );
  const result = await createGroupBuyCheckout(getEnv(context), {
    user: await getOptionalUser(context),
    groupBuyId: id,
    items: parsed.data.items,
    origin: new URL(request.url).origin,
  });
  if (!result.ok) return data({ message: result.message, signIn: result.status === 401 }, { status: result.status });
  return redirectToCheckout(result);
}

type Product = Route.ComponentProps["loaderData"]["products"][number];
type Choice = { sizeName: string; colorName: string; quantity: number };

function unitPrice(p: Product, choice: Choice): number {
  const size = p.sizes.find((s) => s.name === choice.sizeName);
  return size?.priceCents ?? p.priceMinCents ?? p.basePriceCents;
}

function available(p: Product, choice: Choice): number {
  const size = p.sizes.find((s) => s.name === choice.sizeName);
  const colour = p.colours.find((c) => c.name === choice.colorName);
  const inStock = Math.min(
    size ? size.availableUnits : 0,
    p.colours.length > 0 ? (colour?.availableUnits ?? 0) : Number.POSITIVE_INFINITY,
  );
  return p.singleUnit ? Math.min(1, inStock) : inStock;
}

export default function GroupBuyProductSelection({ loaderData, actionData }: Route.ComponentProps) {
  const { groupBuy, products } = loaderData;
  const busy = useNavigation().state !== "idle";
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(
      products.map((p) => {
        const size = p.sizes.find((s) => s.availableUnits > 0) ?? p.sizes[0];
        const colour = p.colours.find((c) => c.availableUnits > 0) ?? p.colours[0];
        return [p.id, { sizeName: size?.name ?? "", colorName: colour?.name ?? "", quantity: 0 }];
      }),
    ),
  );
  const [clientError, setClientError] = useState<string | null>(null);
  const update = (id: string, patch: Partial<Choice>) =>
    setChoices((all) => ({ ...all, [id]: { ...(all[id] as Choice), ...patch } }));
  const chosen = products.filter((p) => (choices[p.id]?.quantity ?? 0) > 0);
  const totalUsd = chosen.reduce((sum, p) => sum + unitPrice(p, choices[p.id]!) * choices[p.id]!.quantity, 0);
  const totalItems = chosen.reduce((sum, p) => sum + choices[p.id]!.quantity, 0);
  const error = clientError ?? actionData?.message ?? null;

  return (
    <Page
      title="Choose your products"
      subtitle={`${groupBuy.name}: pick sizes, colours and quantities, then join. You pay the original price now and get the tier discount refunded when it ends.`}
      back={{ to: `/group-buy-detail/${groupBuy.id}`, label: "Back to group buy" }}
    >
      {products.length === 0 ? (
        <EmptyState title="No products in this group buy yet" />
      ) : (
        <Form
          method="post"
          onSubmit={(e) => {
            if (chosen.length === 0) {
              e.preventDefault();
              setClientError(GROUP_BUY_ACTION_MESSAGES.selectProduct);
            } else setClientError(null);
          }}
        >
          {error ? (
            <FormError>
              {error}
              {!clientError && actionData && "signIn" in actionData && actionData.signIn ? (
                <>
                  {" "}
                  <Link
                    to={`/signin?redirectTo=${encodeURIComponent(`/group-buy-product-selection/${groupBuy.id}`)}`}
                    className="font-semibold underline"
                  >
                    Sign in
                  </Link>
                </>
              ) : null}
            </FormError>
          ) : null}
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {products.map((p) => {
              const choice = choices[p.id] as Choice;
              const left = available(p, choice);
              return (
                <li key={p.id}>
                  <Card className="h-full">
                    {p.image ? (
                      <img
                        src={p.image}
                        alt=""
                        className="mb-3 aspect-square w-full rounded-lg object-cover"
                        loading="lazy"
                      />
                    ) : null}
                    <h2 className="font-semibold text-gray-900">{p.name}</h2>
                    <p className="text-sm text-gray-700">
                      {formatCents(unitPrice(p, choice), "USD")} ·{" "}
                      {formatCents(convertCents(unitPrice(p, choice), "USD", GROUP_BUY_CURRENCY), GROUP_BUY_CURRENCY)}
                    </p>
                    {p.sizes.length > 0 ? (
                      <label className="mt-2 block text-sm">
                        <span className="text-gray-600">Size</span>
                        <select
                          className="mt-1 block w-full rounded-lg border border-gray-300 px-2 py-1"
                          value={choice.sizeName}
                          onChange={(e) => update(p.id, { sizeName: e.target.value })}
                          aria-label={`${p.name} size`}
                        >
                          {p.sizes.map((s) => (
                            <option key={s.name} value={s.name} disabled={s.availableUnits <= 0}>
                              {`${s.name} (${s.availableUnits > 0 ? `${s.availableUnits} left` : "sold out"})`}
                            </option>
                          ))}
                        </select>
                      </label>
                    ) : null}
                    {p.colours.length > 0 ? (
                      <label className="mt-2 block text-sm">
                        <span className="text-gray-600">Colour</span>
                        <select
                          className="mt-1 block w-full rounded-lg border border-gray-300 px-2 py-1"
                          value={choice.colorName}
                          onChange={(e) => update(p.id, { colorName: e.target.value })}
                          aria-label={`${p.name} colour`}
                        >
                          {p.colours.map((c) => (
                            <option key={c.name} value={c.name} disabled={c.availableUnits <= 0}>
                              {`${c.name} (${c.availableUnits > 0 ? `${c.availableUnits} left` : "sold out"})`}
                            </option>
                          ))}
                        </select>
                      </label>
                    ) : null}
                    <div className="mt-3 flex items-center gap-3" role="group" aria-label={`${p.name} quantity`}>
                      <Button
                        type="button"
                        variant="secondary"
                        size="sm"
                        aria-label={`Fewer ${p.name}`}
                        disabled={choice.quantity <= 0}
                        onClick={() => update(p.id, { quantity: Math.max(0, choice.quantity - 1) })}
                      >
                        −
                      </Button>
                      <span className="w-8 text-center font-semibold" aria-live="polite" data-testid={`qty-${p.id}`}>
                        {choice.quantity}
                      </span>
                      <Button
                        type="button"
                        variant="secondary"
                        size="sm"
                        aria-label={`More ${p.name}`}
                        disabled={choice.quantity >= left}
                        onClick={() => update(p.id, { quantity: Math.min(left, choice.quantity + 1) })}
                      >
                        +
                      </Button>
                    </div>
                    {p.singleUnit ? <p className="mt-1 text-xs text-gray-600">{loaderData.singleUnitNote}</p> : null}
                    {choice.quantity > 0 ? (
                      <>
                        <input type="hidden" name="productId" value={p.id} />
                        <input type="hidden" name="sizeName" value={choice.sizeName} />
                        <input type="hidden" name="colorName" value={choice.colorName} />
                        <input type="hidden" name="quantity" value={choice.quantity} />
                      </>
                    ) : null}
                  </Card>
                </li>
              );
            })}
          </ul>
          <Card className="mt-6">
            <h2 className="font-semibold text-gray-900">Summary</h2>
            {chosen.length === 0 ? (
              <p className="mt-2 text-sm text-gray-600">No products selected yet.</p>
            ) : (
              <ul className="mt-2 space-y-1 text-sm text-gray-700">
                {chosen.map((p) => {
                  const c = choices[p.id]!;
                  return (
                    <li key={p.id}>
                      {p.name} ({[c.sizeName, c.colorName].filter(Boolean).join(", ")}) × {c.quantity}:{" "}
                      {formatCents(unitPrice(p, c) * c.quantity, "USD")}
                    </li>
                  );
                })}
              </ul>
            )}
            <p className="mt-3 font-semibold text-gray-900">
              {totalItems} item{totalItems === 1 ? "" : "s"} · Total {formatCents(totalUsd, "USD")} (
              {formatCents(convertCents(totalUsd, "USD", GROUP_BUY_CURRENCY), GROUP_BUY_CURRENCY)})
            </p>
            <p className="mt-1 text-xs text-gray-600">
              You pay the original price now; the final tier's discount is refunded when the group buy ends.
            </p>
            <div className="mt-3">
              <EntryNotice notice={loaderData.entryNotice} />
            </div>
            <Button type="submit" className="mt-4" disabled={busy || groupBuy.status !== "active"}>
              Join Group Buy
            </Button>
          </Card>
        </Form>
      )}
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Group buy not found",
        message: "This group buy doesn't exist or has been removed.",
        action: { to: "/explore", label: "Explore creators" },
      }}
    />
  );
}
