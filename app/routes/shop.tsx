import { ProductGrid } from "~/components/cards";
import { EmptyState, Page, pageMeta, Pagination } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listShopProducts } from "~/db/queries/products.server";
import { getEnv } from "~/lib/context";
import { pageParam } from "~/lib/route-params.server";
import type { Route } from "./+types/shop";

const PAGE_SIZE = 24;

export const meta: Route.MetaFunction = () => pageMeta("Shop", "Products from creators; 10% of every purchase powers up their prize pool.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = pageParam(request);
  const rows = await listShopProducts(getDb(getEnv(context)), { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE });
  return { page, products: rows.slice(0, PAGE_SIZE), hasNext: rows.length > PAGE_SIZE };
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { products, page, hasNext } = loaderData;
  return (
    <Page title="Shop" subtitle="10% of every purchase goes to the creator's prize pool, and each buyer gets an entry number to the main prize.">
      {products.length === 0 ? (
        <EmptyState title="No products found" message="Creators haven't listed any products yet. Check back soon." />
      ) : (
        <ProductGrid products={products} />
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={(n) => `/shop?page=${n}`} />
    </Page>
  );
}
