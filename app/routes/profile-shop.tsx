import { Form } from "react-router";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { buttonClass, EmptyState, Page, pageMeta, Pagination } from "~/components/page";
import {
  AutoSubmitSelect,
  CurrencyChoiceForm,
  CurrencySelect,
  priceRangeText,
  ProductTiles,
  shipToOptions,
} from "~/components/shop-ui";
import { getDb } from "~/db/client.server";
import { listShopProducts } from "~/db/queries/products.server";
import { getActiveGroupBuyOffer, getProfileByIdOrSlug, getViewerPlace } from "~/db/queries/profiles.server";
import { countryByCode, isCountryCode } from "~/domain/currency";
import { getOptionalUser, viewerSession } from "~/lib/auth.server";
import { viewerCurrency } from "~/lib/currency.server";
import { idParam, notFound, pageParam } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import type { Route } from "./+types/profile-shop";

const PAGE_SIZE = 24;

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `${loaderData.profile.creatorName}'s Shop` : errorTitle(error, "Creator Not Found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const key = idParam(params.id);
  const db = getDb(getEnv(context));
  const profile = await getProfileByIdOrSlug(db, key);
  const own = profile?.userId === (await getOptionalUser(context))?.id;
  if (!profile || (!own && (!profile.profilePublic || profile.status !== "active"))) notFound();

  const search = new URL(request.url).searchParams;
  const page = pageParam(request);
  const rawShipTo = (search.get("shipTo") ?? "").trim().toUpperCase();
  const shipTo = isCountryCode(rawShipTo) ? rawShipTo : null;
  const viewer = viewerSession(context);
  const [rows, groupBuy, viewerPlace] = await Promise.all([
    listShopProducts(db, { hostId: profile.userId, shipTo, limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE }),
    getActiveGroupBuyOffer(db, profile.userId, new Date()),
    viewer ? getViewerPlace(db, viewer) : undefined,
  ]);
  // The viewer's currency, as on every page (decision 620; no longer the host's).
  const currency = viewerCurrency(request, viewerPlace);
  return {
    profile: { userId: profile.userId, slug: profile.slug, creatorName: profile.creatorName },
    products: rows.slice(0, PAGE_SIZE).map((p) => ({
      id: p.id,
      name: p.name,
      image: p.image,
      price: priceRangeText(p, currency),
      // Group Buy for a product the host's active group buy offers; Buy Now for the others.
      groupBuyId: groupBuy?.productIds.includes(p.id) ? groupBuy.id : null,
      inStock: p.inStock,
    })),
    hasNext: rows.length > PAGE_SIZE,
    page,
    filters: { shipTo: shipTo ?? "", currency },
    shipToName: shipTo ? countryByCode(shipTo).name : null,
  };
}

export default function ProfileShop({ loaderData }: Route.ComponentProps) {
  const { profile, products, page, hasNext, filters, shipToName } = loaderData;
  const base = `/profile/${profile.slug ?? profile.userId}`;
  const hrefFor = (n: number) => {
    const search = new URLSearchParams();
    if (filters.shipTo) search.set("shipTo", filters.shipTo);
    if (n > 1) search.set("page", String(n));
    return `${base}/shop?${search.toString()}`;
  };
  return (
    <Page
      title={`${profile.creatorName}'s Shop`}
      subtitle="Pay in your local currency on the checkout page."
      back={{ to: base, label: `Back to ${profile.creatorName}` }}
    >
      <Form method="get" className="mb-6 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <AutoSubmitSelect
          label="Ship to"
          name="shipTo"
          value={filters.shipTo}
          options={shipToOptions(filters.shipTo)}
        />
        <CurrencySelect value={filters.currency} />
        <button type="submit" className={buttonClass("secondary")}>
          Apply
        </button>
      </Form>
      <CurrencyChoiceForm />
      {products.length === 0 ? (
        <EmptyState
          title={shipToName ? `Not shipping to ${shipToName} yet` : "No products available yet"}
          message={shipToName ? `${profile.creatorName} doesn't ship to ${shipToName} yet.` : undefined}
        />
      ) : (
        <ProductTiles products={products} detailsLabel="View Details" wideActions shipTo={filters.shipTo} />
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={hrefFor} />
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Creator Not Found",
        message: "This creator doesn't exist or their profile is private.",
        action: { to: "/", label: "Back to Home" },
      }}
    />
  );
}
