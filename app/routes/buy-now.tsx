import { useState } from "react";
import { FreeEntryLink } from "~/components/free-entry-link";
import { data, Form, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import { Link } from "~/components/link";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { CLIENT_LINKS } from "~/components/link";
import { buttonClass, Card, LinkButton, Page, pageMeta } from "~/components/page";
import {
  HeartIcon,
  LikeToggleForm,
  priceRangeText,
  purchaseTotalAttributes,
  ColourPicker,
  QuantityStepper,
  SizePicker,
  useLikes,
} from "~/components/shop-ui";
import { getDb } from "~/db/client.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { countViewerEntries, getCurrentPool } from "~/db/queries/pools.server";
import { getViewerPlace } from "~/db/queries/profiles.server";
import {
  getProduct,
  isProductLiked,
  listMoreFromHost,
  listProductColors,
  listProductImages,
  listProductSizes,
} from "~/db/queries/products.server";
import { productCategory } from "~/domain/catalog";
import { WINNER_PUBLICITY_TEXT } from "~/domain/prize-claims";
import { livePoolAttributes, poolDisplay } from "~/domain/pool-display";
import { formatCents } from "~/domain/money";
import { shownPurchaseCents, toCheckoutCents } from "~/domain/payments";
import { poolShareText } from "~/domain/revenue";
import { getOptionalUser, viewerSession } from "~/lib/auth.server";
import { productShippingNotice, shipToChoice } from "~/lib/cart.server";
import { viewerCurrency } from "~/lib/currency.server";
import { idParam, notFound } from "~/lib/guards.server";
import { createProductCheckout, redirectToCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { CHECKOUT_MESSAGES } from "~/lib/payments/checkout/quote.server";
import { formText } from "~/lib/validation";
import { getEnv } from "~/lib/context";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import { CREDIT_CARD_CAP_TEXT } from "~/domain/spend-limits";
import type { Route } from "./+types/buy-now";

// Prices, totals and the pool banner are in the viewer's currency (decision 620); checkout charges USD, and each
// size's price and the total shown are that USD charge converted (decision 290).
const MAX_QUANTITY = 99;
const KEY_FEATURES = ["High-quality materials", "Fast shipping", "7-day return policy"] as const;

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Buy ${loaderData.product.name || "Unnamed Product"}` : errorTitle(error, "Product not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const db = getDb(getEnv(context));
  const viewer = viewerSession(context);
  const search = new URL(request.url).searchParams;
  // The Ship-to choice (carried from /shop and /product), else the fan's own country (decision 600).
  const shipTo = shipToChoice(search.get("shipTo"));
  // One batch with the session's lookup: everything else is keyed by the product or, through a subquery, by its host
  // or the viewer's session.
  const [user, product, sizes, colours, images, more, pool, liked, rules, viewerPlace, viewerEntries, shipNotice] =
    await Promise.all([
      getOptionalUser(context),
      getProduct(db, id),
      listProductSizes(db, id),
      listProductColors(db, id),
      listProductImages(db, id, 8),
      listMoreFromHost(db, id, 8),
      getCurrentPool(db, { ofProduct: id }),
      viewer ? isProductLiked(db, viewer, id) : false,
      getRevenueRules(db),
      viewer ? getViewerPlace(db, viewer) : undefined,
      // "Your entries: N of M" for a signed-in fan (their page is never cached; a visitor's shows no one's count).
      viewer ? countViewerEntries(db, { ofProduct: id }, viewer) : null,
      productShippingNotice(db, id, { shipTo, viewer }),
    ]);
  if (!product || (product.status !== "active" && product.hostId !== user?.id)) notFound();
  const openPool = pool?.status === "open" ? pool : null;
  // The page has no currency select: the viewer's choice made elsewhere, else their local currency, else MYR.
  const currency = viewerCurrency(request, viewerPlace);
  const quantity = Number(search.get("quantity"));
  return {
    poolShare: poolShareText(rules, "shop_sales"),
    product: {
      id: product.id,
      name: product.name,
      description: product.description,
      hostName: product.hostName,
      hostHref: `/profile/${product.hostSlug ?? product.hostId}`,
      hostId: product.hostId,
      price: priceRangeText(product, currency),
      likeCount: product.likeCount,
      singleUnit: productCategory(product.category) !== "physical",
    },
    // The same texts /api/pools/live sends for this pool in this currency (/page.js keeps them current).
    pool: openPool
      ? {
          id: openPool.id,
          currency,
          entries: openPool.entriesCount,
          ...poolDisplay(openPool, openPool.currency, currency),
        }
      : null,
    viewerEntries,
    sizes: sizes.map((s) => ({
      id: s.id,
      name: s.name,
      // What checkout charges for one (in USD cents); the page shows it and the total converted (shownPurchaseCents).
      unitCents: toCheckoutCents(s.priceCents, s.currency),
      availableUnits: s.availableUnits,
    })),
    colours: colours.map((c) => ({ id: c.id, name: c.name, hex: c.hex, availableUnits: c.availableUnits })),
    images: images.map((i) => i.url),
    more: more.map((m) => ({ id: m.id, name: m.name, image: m.image, price: priceRangeText(m, currency) })),
    currency,
    liked,
    signedIn: user !== null,
    shipTo,
    shipNotice,
    preselect: {
      size: search.get("size"),
      color: search.get("color"),
      quantity: Number.isInteger(quantity) && quantity >= 1 ? Math.min(quantity, MAX_QUANTITY) : 1,
    },
  };
}

type BuyNowActionData = { error: string; signIn?: boolean; back?: string; noEntry?: boolean };

/** This page with the visitor's choice (what the loader preselects), for the sign-in link to come back to. */
function choicePath(id: string, form: FormData): string {
  const search = new URLSearchParams();
  for (const name of ["size", "color", "quantity", "shipTo"]) {
    const value = formText(form, name);
    if (value && value.length <= 100) search.set(name, value);
  }
  const text = search.toString();
  return `/buy-now/${encodeURIComponent(id)}${text ? `?${text}` : ""}`;
}

/** Buy Now: starts a hosted checkout (priced from the database, in USD) and sends the browser to it. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const id = idParam(params.id);
  const form = await request.formData();
  const user = await getOptionalUser(context);
  if (!user)
    return data<BuyNowActionData>(
      { error: CHECKOUT_MESSAGES.signIn, signIn: true, back: choicePath(id, form) },
      { status: 401 },
    );
  const result = await createProductCheckout(getEnv(context), {
    user,
    productId: id,
    sizeName: formText(form, "size"),
    colorName: formText(form, "color"),
    quantity: formText(form, "quantity"),
    customerEmail: user.email,
    origin: new URL(request.url).origin,
    // Said before paying (decision 520): a purchase that would earn no entry is stopped once, with the reason.
    noEntryConsent: formText(form, "noEntryConsent") === "1",
  });
  if (!result.ok) {
    if (result.field === "noEntryConsent")
      return data<BuyNowActionData>({ error: result.message, noEntry: true }, { status: result.status });
    return data<BuyNowActionData>(
      { error: `Unable to start checkout: ${result.message || "Please try again."}` },
      { status: result.status },
    );
  }
  return redirectToCheckout(result);
}

/** A like answered by its fetcher needs no reload of the page. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === "like") return false;
  return defaultShouldRevalidate;
}

export default function BuyNow({ loaderData, actionData }: Route.ComponentProps) {
  const { product, pool, sizes, colours, images, more, liked, signedIn, preselect, currency } = loaderData;
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const likes = useLikes(signedIn);
  const loadedLike = [liked, product.likeCount] as const;
  const like = likes.of(product.id, ...loadedLike);
  const name = product.name || "Unnamed Product";

  const pickSize =
    sizes.find((s) => s.name === preselect.size && s.availableUnits > 0) ?? sizes.find((s) => s.availableUnits > 0);
  const pickColour =
    colours.find((c) => c.name === preselect.color && c.availableUnits > 0) ??
    colours.find((c) => c.availableUnits > 0);
  const [sizeId, setSizeId] = useState(pickSize?.id ?? null);
  const [colourId, setColourId] = useState(pickColour?.id ?? null);
  const [quantity, setQuantity] = useState(product.singleUnit ? 1 : preselect.quantity);
  const [imageIndex, setImageIndex] = useState(0);

  const size = sizes.find((s) => s.id === sizeId) ?? null;
  const colour = colours.find((c) => c.id === colourId) ?? null;
  const available = Math.min(size?.availableUnits ?? 0, colour ? colour.availableUnits : Number.POSITIVE_INFINITY);
  const maxQuantity = product.singleUnit ? 1 : Math.max(1, Math.min(MAX_QUANTITY, available));
  const shownQuantity = Math.min(quantity, maxQuantity);
  const canBuy = size !== null && available > 0 && (colours.length === 0 || colour !== null);
  const mainImage = images[imageIndex] ?? images[0] ?? null;

  return (
    <Page
      title={name}
      subtitle={product.hostName ? `by ${product.hostName}` : undefined}
      back={{ to: "/shop", label: "Back to Shop" }}
    >
      <section
        aria-label="Host prize pool"
        className="mb-6 rounded-xl bg-gradient-to-r from-brand-600 to-brand-700 p-4 text-white shadow-sm sm:p-5"
      >
        <p className="text-sm font-semibold">
          {product.hostName ? (
            <Link to={product.hostHref} className="underline-offset-2 hover:underline">
              {product.hostName}
            </Link>
          ) : (
            "This creator"
          )}
          's ongoing prize pool
        </p>
        {pool ? (
          <dl className="mt-3 grid grid-cols-[repeat(auto-fit,minmax(7rem,1fr))] gap-3 text-sm">
            <div>
              <dt className="text-white/80">Prize Pool</dt>
              <dd
                className="text-lg font-bold [overflow-wrap:normal]"
                {...livePoolAttributes(pool.id, "amount", pool.currency)}
              >
                {pool.amount}
              </dd>
            </div>
            <div>
              <dt className="text-white/80">Target</dt>
              <dd
                className="text-lg font-bold [overflow-wrap:normal]"
                {...livePoolAttributes(pool.id, "target", pool.currency)}
              >
                {pool.target}
              </dd>
            </div>
            <div>
              <dt className="text-white/80">Main Prize (60%)</dt>
              <dd
                className="text-lg font-bold [overflow-wrap:normal]"
                {...livePoolAttributes(pool.id, "mainPrize", pool.currency)}
              >
                {pool.mainPrize}
              </dd>
            </div>
          </dl>
        ) : (
          <p className="mt-2 text-sm text-white/90">The next prize pool opens soon.</p>
        )}
        {pool ? (
          <p className="mt-2 text-sm text-white/90" data-testid="pool-entries">
            {`${pool.entries} ${pool.entries === 1 ? "entry" : "entries"}`}
            {loaderData.viewerEntries !== null ? ` · Your entries: ${loaderData.viewerEntries} of ${pool.entries}` : ""}
          </p>
        ) : null}
        <p className="mt-3 text-xs text-white/90">
          {`${loaderData.poolShare} of your purchase goes to the prize pool, and you get a unique entry number to the main prize.`}
        </p>
        <p className="mt-1 text-xs text-white/90">{WINNER_PUBLICITY_TEXT}</p>
        {pool ? <FreeEntryLink hostId={product.hostId} tone="dark" /> : null}
      </section>

      {more.length > 0 ? (
        <section aria-label={`More from ${product.hostName ?? "this creator"}`} className="mb-6">
          <h2 className="mb-2 text-sm font-semibold text-gray-900">More from {product.hostName ?? "this creator"}</h2>
          {/* Plain markup styled by place (app.css, "more strip"); its plain links navigate on the client (a CLIENT_LINKS list). */}
          <ul className="more-strip" {...CLIENT_LINKS}>
            {more.map((m) => (
              <li key={m.id}>
                <a href={`/buy-now/${m.id}`}>
                  {m.image ? <img src={m.image} alt="" loading="lazy" /> : <span />}
                  <span>{m.name || "Unnamed Product"}</span>
                  <span>{m.price}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <div className="grid gap-8 md:grid-cols-2">
        <div>
          <div className="relative aspect-square overflow-hidden rounded-xl bg-gray-100">
            {mainImage ? (
              <img data-main-image src={mainImage} alt={name} className="h-full w-full object-cover" />
            ) : null}
            <div className="absolute top-3 right-3">
              <LikeToggleForm
                likes={likes}
                like={like}
                loaded={loadedLike}
                label={like.liked ? "Unlike this product" : "Like this product"}
                className={`grid h-10 w-10 place-items-center rounded-full bg-white/90 shadow focus-visible:outline-2 focus-visible:outline-brand-500 ${
                  like.liked ? "text-red-500" : "text-gray-600 hover:text-red-500"
                }`}
              >
                <HeartIcon filled={like.liked} />
              </LikeToggleForm>
            </div>
          </div>
          {images.length > 1 ? (
            <ul className="mt-3 grid grid-cols-5 gap-2 sm:grid-cols-8">
              {images.map((url, index) => (
                <li key={url + index}>
                  <button
                    type="button"
                    onClick={() => setImageIndex(index)}
                    data-show-image={url}
                    aria-label={`Show image ${index + 1}`}
                    aria-pressed={index === imageIndex}
                    className={`block aspect-square w-full overflow-hidden rounded-lg border-2 ${
                      index === imageIndex ? "border-brand-600" : "border-transparent"
                    }`}
                  >
                    <img src={url} alt="" loading="lazy" className="h-full w-full object-cover" />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <p className="mt-2 text-xs text-gray-500">{like.count} likes</p>
        </div>

        <div className="space-y-4">
          <p className="text-2xl font-bold text-brand-700">{product.price}</p>
          <p className="whitespace-pre-line text-sm text-gray-700">
            {product.description || "No description available."}
          </p>

          <Form method="post" className="space-y-4">
            <input type="hidden" name="productId" value={product.id} />
            {loaderData.shipTo ? <input type="hidden" name="shipTo" value={loaderData.shipTo} /> : null}
            <Card>
              <SizePicker sizes={sizes} selectedId={sizeId} onSelect={setSizeId} currency={currency} />
              <ColourPicker colours={colours} selectedId={colourId} onSelect={setColourId} />
              <div className="mt-4">
                <p className="text-sm font-semibold text-gray-900">Quantity</p>
                <div className="mt-2">
                  <QuantityStepper value={shownQuantity} onChange={setQuantity} max={maxQuantity} />
                </div>
              </div>
              <p className="mt-4 flex items-baseline justify-between border-t border-gray-100 pt-4 text-sm text-gray-700">
                <span>Total</span>
                <span className="text-xl font-bold text-gray-900" {...purchaseTotalAttributes(currency)}>
                  {size ? formatCents(shownPurchaseCents(size.unitCents, shownQuantity, currency), currency) : "—"}
                </span>
              </p>
              <p className="mt-1 text-xs text-gray-500">Prices are shown in RM; checkout is processed in USD.</p>
              <p className="mt-1 text-xs text-gray-500">{CREDIT_CARD_CAP_TEXT}</p>
            </Card>
            {actionData?.noEntry ? <input type="hidden" name="noEntryConsent" value="1" /> : null}
            {loaderData.shipNotice ? (
              <p role="status" className="text-sm font-medium text-amber-800" data-ship-notice>
                {loaderData.shipNotice}
              </p>
            ) : null}

            {actionData ? (
              <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
                {actionData.error}
                {actionData.signIn ? (
                  <>
                    {" "}
                    <Link
                      to={`/signin?redirectTo=${encodeURIComponent(actionData.back ?? `/buy-now/${product.id}`)}`}
                      className="font-semibold underline"
                    >
                      Sign in
                    </Link>
                  </>
                ) : null}
              </p>
            ) : null}

            <button
              type="submit"
              disabled={!canBuy || submitting}
              className={buttonClass("primary", "md", "w-full py-3 text-base")}
            >
              {submitting ? "Starting checkout..." : "Buy Now"}
            </button>
            <button
              type="submit"
              formAction="/cart"
              name="intent"
              value="add"
              disabled={!canBuy || submitting}
              className={buttonClass("secondary", "md", "w-full py-3 text-base")}
            >
              Add to Cart
            </button>
          </Form>

          <div className="flex flex-wrap gap-3">
            <LinkButton to="/shop" variant="secondary">
              Back to Shop
            </LinkButton>
            <LikeToggleForm
              likes={likes}
              like={like}
              loaded={loadedLike}
              label={like.liked ? "Remove from Wishlist" : "Add to Wishlist"}
              className={buttonClass("ghost")}
            >
              <HeartIcon filled={like.liked} className="h-4 w-4" />
              {like.liked ? "In your Wishlist" : "Add to Wishlist"}
            </LikeToggleForm>
          </div>

          <Card>
            <h2 className="text-sm font-semibold text-gray-900">Key features</h2>
            <ul className="mt-2 list-inside list-disc space-y-1 text-sm text-gray-700">
              {KEY_FEATURES.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            <p className="mt-3 text-sm text-gray-700">
              Money-back guarantee: if your order doesn't arrive or isn't as described, you get your money back.
            </p>
          </Card>
        </div>
      </div>
      {likes.pending}
    </Page>
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
