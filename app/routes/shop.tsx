import { Form, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { EmptyState, Page, pageMeta, Pagination, buttonClass } from "~/components/page";
import {
  AutoSubmitSelect,
  CurrencyChoiceForm,
  CurrencySelect,
  fieldClass,
  optionList,
  shipToOptions,
  ShopGrid,
  shopCardRowOf,
} from "~/components/shop-ui";
import { getDb } from "~/db/client.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { poolShareText } from "~/domain/revenue";
import { countShopProducts, listShopProducts } from "~/db/queries/products.server";
import { getViewerPlace } from "~/db/queries/profiles.server";
import { ALL_SHOP_CATEGORY, SHOP_CATEGORIES } from "~/domain/catalog";
import { isCountryCode } from "~/domain/currency";
import { viewerCurrency } from "~/lib/currency.server";
import { getOptionalUser, viewerSession } from "~/lib/auth.server";
import { pageParam } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import type { Route } from "./+types/shop";
import { PRODUCT_SORT_LABELS, productSort, productSortsFor, SEARCH_MAX_LENGTH, searchText } from "~/domain/search";

const PAGE_SIZE = 24;
/** The category filter's options: an option's value is its text. */
const categoryOptions = optionList(() => SHOP_CATEGORIES.map((c) => [c, c]));
/**
 * The sort select's options (docs/product.md#shop-and-products): the default (Best match while searching, else
 * Newest) has the value "", so a new search typed under a default order is ordered by relevance.
 */
const sortOptions = (searching: boolean) =>
  optionList(() => productSortsFor(searching).map((s, i) => [i === 0 ? "" : s, PRODUCT_SORT_LABELS[s]]));
const searchSortOptions = sortOptions(true);
const listSortOptions = sortOptions(false);

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(
    "Shop",
    `Products from creators; ${loaderData?.poolShare ?? "a share"} of every purchase powers up their prize pool.`,
  );

type ProductCategoryFilter = Exclude<(typeof SHOP_CATEGORIES)[number], "All">;

function isCategoryFilter(value: string | null): value is ProductCategoryFilter {
  return value !== null && value !== ALL_SHOP_CATEGORY && (SHOP_CATEGORIES as readonly string[]).includes(value);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const page = pageParam(request);
  const q = searchText(params.get("q"));
  const rawCategory = params.get("category");
  const category = isCategoryFilter(rawCategory) ? rawCategory : null;
  const rawShipTo = (params.get("shipTo") ?? "").trim().toUpperCase();
  const shipTo = isCountryCode(rawShipTo) ? rawShipTo : null;
  const sort = productSort(params.get("sort"), q !== "");
  const sortValue = sort === productSortsFor(q !== "")[0] ? "" : sort;

  const db = getDb(getEnv(context));
  // The viewer's reads name them by their session, so they go to D1 with the session's lookup (lib/auth.server.ts).
  const viewer = viewerSession(context);
  const [user, rows, viewerPlace, rules] = await Promise.all([
    getOptionalUser(context),
    listShopProducts(db, { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE, q, sort, category, shipTo, viewer }),
    viewer ? getViewerPlace(db, viewer) : undefined,
    getRevenueRules(db),
  ]);
  const currency = viewerCurrency(request, viewerPlace);

  // Past the last page (an old or hand-made address): go to the last page that has products.
  if (rows.length === 0 && page > 1) {
    const last = Math.max(1, Math.ceil((await countShopProducts(db, { q, category, shipTo })) / PAGE_SIZE));
    if (last < page) {
      const url = new URL(request.url);
      if (last > 1) url.searchParams.set("page", String(last));
      else url.searchParams.delete("page");
      throw redirect(`${url.pathname}${url.search}`);
    }
  }

  const pageRows = rows.slice(0, PAGE_SIZE);
  const now = new Date();
  const products = pageRows.map((r) => shopCardRowOf(r, currency, now));
  return {
    poolShare: poolShareText(rules, "shop_sales"),
    page,
    hasNext: rows.length > PAGE_SIZE,
    products,
    filters: { q, sort: sortValue, category: category ?? ALL_SHOP_CATEGORY, shipTo: shipTo ?? "", currency },
    signedIn: user !== null,
  };
}

/** A like answered by its fetcher needs no reload of the whole grid. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === "like") return false;
  return defaultShouldRevalidate;
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { products, page, hasNext, filters, signedIn } = loaderData;
  const hrefFor = (n: number) => {
    const search = new URLSearchParams();
    if (filters.q) search.set("q", filters.q);
    if (filters.sort) search.set("sort", filters.sort);
    if (filters.category !== ALL_SHOP_CATEGORY) search.set("category", filters.category);
    if (filters.shipTo) search.set("shipTo", filters.shipTo);
    if (n > 1) search.set("page", String(n));
    return `/shop?${search.toString()}`;
  };
  return (
    <Page
      title="Shop"
      subtitle={`${loaderData.poolShare} of every purchase goes to the creator's prize pool, and each buyer gets an entry number to the main prize.`}
    >
      <Form method="get" role="search" className="shop-filters">
        <label className="field-label">
          Search
          <input
            type="search"
            name="q"
            defaultValue={filters.q}
            key={filters.q}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder="Search products or creators"
            className={`mt-1 ${fieldClass}`}
          />
        </label>
        <AutoSubmitSelect
          label="Category"
          name="category"
          value={filters.category}
          options={categoryOptions(filters.category)}
        />
        <AutoSubmitSelect
          label="Ship to"
          name="shipTo"
          value={filters.shipTo}
          options={shipToOptions(filters.shipTo)}
        />
        <AutoSubmitSelect
          label="Sort by"
          name="sort"
          value={filters.sort}
          options={(filters.q ? searchSortOptions : listSortOptions)(filters.sort)}
        />
        <CurrencySelect value={filters.currency} />
        <button type="submit" className={buttonClass("primary")}>
          Search
        </button>
      </Form>
      <CurrencyChoiceForm />

      {products.length === 0 ? (
        <EmptyState
          title="No products found"
          message={page > 1 ? "There are no more products on this page." : "Try another search, category or country."}
          action={
            page > 1 || filters.q || filters.category !== ALL_SHOP_CATEGORY || filters.shipTo
              ? { to: "/shop", label: "Clear filters" }
              : undefined
          }
        />
      ) : (
        <ShopGrid rows={products} currency={filters.currency} signedIn={signedIn} shipTo={filters.shipTo} />
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={hrefFor} />
    </Page>
  );
}
