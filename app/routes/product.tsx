import { useState } from "react";
import { data, Form } from "react-router";
import { Link } from "~/components/link";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { buttonClass, Card, pageMeta } from "~/components/page";
import {
  ColourPicker,
  LIKE_SIGN_IN_MESSAGE,
  priceRangeText,
  purchaseTotalAttributes,
  QuantityStepper,
  SizePicker,
  type LikeActionData,
} from "~/components/shop-ui";
import { getDb } from "~/db/client.server";
import {
  getProduct,
  incrementProductViews,
  listProductColors,
  listProductImages,
  listProductSizes,
  setProductLike,
} from "~/db/queries/products.server";
import { getViewerPlace } from "~/db/queries/profiles.server";
import { formatCents } from "~/domain/money";
import { shownPurchaseCents, toCheckoutCents } from "~/domain/payments";
import { getOptionalUser } from "~/lib/auth.server";
import { productShippingNotice, shipToChoice } from "~/lib/cart.server";
import { viewerCurrency } from "~/lib/currency.server";
import { idParam, notFound } from "~/lib/guards.server";
import { getCtx, getEnv } from "~/lib/context";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import type { Route } from "./+types/product";

const MAX_QUANTITY = 99;

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? loaderData.product.name || "Unnamed Product" : errorTitle(error, "Product not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const db = getDb(getEnv(context));
  const user = await getOptionalUser(context);
  // The Ship-to choice (from /shop's filter), else the fan's own country: said here before checkout (decision 600).
  const shipTo = shipToChoice(new URL(request.url).searchParams.get("shipTo"));
  const [product, viewerPlace, shipNotice] = await Promise.all([
    getProduct(db, id),
    user ? getViewerPlace(db, user.id) : undefined,
    productShippingNotice(db, id, { shipTo, viewer: user?.id ?? null }),
  ]);
  // Drafts and inactive products are visible to their host only.
  if (!product || (product.status !== "active" && product.hostId !== user?.id)) notFound();
  // One more view, counted after the response so the page is never slowed by it.
  getCtx(context).waitUntil(
    incrementProductViews(db, id).catch((error: unknown) => console.error("product: view count failed", { id, error })),
  );

  const currency = viewerCurrency(request, viewerPlace);
  const [sizes, colours, images] = await Promise.all([
    listProductSizes(db, id),
    listProductColors(db, id),
    listProductImages(db, id, 1),
  ]);
  return {
    product: {
      id: product.id,
      name: product.name,
      description: product.description,
      hostName: product.hostName,
      hostHref: `/profile/${product.hostSlug ?? product.hostId}`,
      price: priceRangeText(product, currency),
    },
    currency,
    sizes: sizes.map((s) => ({
      id: s.id,
      name: s.name,
      // What checkout charges for one (in USD cents); shown in the page's currency (shownPurchaseCents).
      unitCents: toCheckoutCents(s.priceCents, s.currency),
      availableUnits: s.availableUnits,
    })),
    colours: colours.map((c) => ({ id: c.id, name: c.name, hex: c.hex, availableUnits: c.availableUnits })),
    image: images[0]?.url ?? null,
    shipTo,
    shipNotice,
  };
}

/** POST /product/{id} with intent=like: likes (liked=true) or unlikes (liked=false) for the signed-in user. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const id = idParam(params.id);
  const form = await request.formData();
  if (form.get("intent") !== "like")
    return data<LikeActionData>({ ok: false, error: "Unknown action" }, { status: 400 });
  const user = await getOptionalUser(context);
  if (!user) return data<LikeActionData>({ ok: false, error: LIKE_SIGN_IN_MESSAGE }, { status: 401 });
  const db = getDb(getEnv(context));
  const product = await getProduct(db, id);
  if (!product || (product.status !== "active" && product.hostId !== user.id)) {
    return data<LikeActionData>({ ok: false, error: "Product not found" }, { status: 404 });
  }
  const liked = form.get("liked") !== "false";
  const likeCount = await setProductLike(db, user.id, id, liked);
  return data<LikeActionData>({ ok: true, liked, likeCount });
}

export default function Product({ loaderData, actionData }: Route.ComponentProps) {
  const { product, sizes, colours, image, currency, shipTo, shipNotice } = loaderData;
  const firstAvailable = sizes.find((s) => s.availableUnits > 0) ?? sizes[0];
  const [sizeId, setSizeId] = useState(firstAvailable?.id ?? null);
  const [colourId, setColourId] = useState(colours.find((c) => c.availableUnits > 0)?.id ?? null);
  const [quantity, setQuantity] = useState(1);
  const size = sizes.find((s) => s.id === sizeId) ?? null;
  const colour = colours.find((c) => c.id === colourId) ?? null;
  // Nothing to buy (no size, or the chosen one is sold out: every size is, since a sold-out size cannot be chosen;
  // likewise every colour).
  const soldOut = !size || size.availableUnits <= 0 || (colours.length > 0 && !colour);
  const name = product.name || "Unnamed Product";
  const shipToSearch = shipTo ? `?${new URLSearchParams({ shipTo })}` : "";
  const buyHref = `/buy-now/${product.id}${
    size
      ? `?${new URLSearchParams({
          size: size.name,
          ...(colour ? { color: colour.name } : {}),
          quantity: String(quantity),
          ...(shipTo ? { shipTo } : {}),
        })}`
      : shipToSearch
  }`;

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:px-6 sm:py-8">
      <Link to="/shop" className="text-sm font-medium text-gray-600 hover:text-gray-900">
        ← BACK TO SHOP
      </Link>
      {actionData && !actionData.ok ? (
        <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {actionData.error}
          {actionData.error === LIKE_SIGN_IN_MESSAGE ? (
            <>
              {" "}
              <Link
                to={`/signin?redirectTo=${encodeURIComponent(`/product/${product.id}`)}`}
                className="font-semibold underline"
              >
                Sign in
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
      {actionData?.ok ? (
        <p
          role="status"
          className="mt-4 rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800"
        >
          {actionData.liked ? "Added to your wishlist." : "Removed from your wishlist."}{" "}
          <Link to="/wishlist" className="font-semibold underline">
            See your wishlist
          </Link>
        </p>
      ) : null}
      <div className="mt-4 grid gap-8 md:grid-cols-2">
        <div className="aspect-square overflow-hidden rounded-xl bg-gray-100">
          {image ? <img src={image} alt={name} className="h-full w-full object-cover" /> : null}
        </div>
        <div>
          <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl">{name}</h1>
          {product.hostName ? (
            <p className="mt-1 text-sm text-gray-600">
              by{" "}
              <Link to={product.hostHref} className="font-medium text-brand-700 hover:underline">
                {product.hostName}
              </Link>
            </p>
          ) : null}
          <p className="mt-4 text-2xl font-bold text-brand-700">
            {size ? formatCents(shownPurchaseCents(size.unitCents, 1, currency), currency) : product.price}
          </p>
          <p className="mt-4 whitespace-pre-line text-gray-700">{product.description || "No description available."}</p>
          <Form method="post" action="/cart">
            <input type="hidden" name="productId" value={product.id} />
            {shipTo ? <input type="hidden" name="shipTo" value={shipTo} /> : null}
            <Card className="mt-6">
              <SizePicker sizes={sizes} selectedId={sizeId} onSelect={setSizeId} currency={currency} />
              <ColourPicker colours={colours} selectedId={colourId} onSelect={setColourId} />
              <div className="mt-4">
                <p className="text-sm font-semibold text-gray-900">Quantity</p>
                <div className="mt-2">
                  <QuantityStepper
                    value={quantity}
                    onChange={setQuantity}
                    max={Math.min(MAX_QUANTITY, size?.availableUnits ?? MAX_QUANTITY)}
                  />
                </div>
              </div>
              <p className="mt-4 flex items-baseline justify-between border-t border-gray-100 pt-4 text-sm text-gray-700">
                <span>Total</span>
                <span className="text-xl font-bold text-gray-900" {...purchaseTotalAttributes(currency)}>
                  {size ? formatCents(shownPurchaseCents(size.unitCents, quantity, currency), currency) : "—"}
                </span>
              </p>
            </Card>
            {shipNotice ? (
              <p role="status" className="mt-4 text-sm font-medium text-amber-800" data-ship-notice>
                {shipNotice}
              </p>
            ) : null}
            <div className="mt-6 flex flex-wrap gap-3">
              {soldOut ? (
                <button type="button" disabled className={buttonClass("primary")}>
                  BUY NOW
                </button>
              ) : (
                <Link
                  to={buyHref}
                  className={buttonClass("primary")}
                  data-buy-now={`/buy-now/${product.id}${shipToSearch}`}
                >
                  BUY NOW
                </Link>
              )}
              <button type="submit" name="intent" value="add" disabled={soldOut} className={buttonClass("secondary")}>
                Add to Cart
              </button>
              <Link to="/shop" className={buttonClass("secondary")}>
                BACK TO SHOP
              </Link>
            </div>
          </Form>
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Product not found",
        message: "This product doesn't exist or is no longer for sale.",
        action: { to: "/shop", label: "Back to Shop" },
      }}
    />
  );
}
