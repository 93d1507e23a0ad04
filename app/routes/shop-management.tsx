import { Form } from "react-router";
import { Link } from "~/components/link";
import { priceText, Table } from "~/components/cards";
import { Badge, buttonClass, EmptyState, LinkButton, Page, pageMeta, Pagination, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listManagedProducts } from "~/db/queries/product-admin.server";
import { pageParam, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { SEARCH_MAX_LENGTH, searchText } from "~/domain/search";
import type { Route } from "./+types/shop-management";

export const meta: Route.MetaFunction = () => pageMeta("Shop Management");

const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const page = pageParam(request);
  const q = searchText(new URL(request.url).searchParams.get("q"));
  const rows = await listManagedProducts(getDb(getEnv(context)), user.id, {
    limit: PAGE_SIZE + 1,
    offset: (page - 1) * PAGE_SIZE,
    q,
  });
  return { products: rows.slice(0, PAGE_SIZE), page, hasNext: rows.length > PAGE_SIZE, q };
}

const stockTone = { Digital: "blue", "Out of Stock": "red", "Low Stock": "yellow", "In Stock": "green" } as const;

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <Page
      title="Shop Management"
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        <>
          <LinkButton to="/orders" variant="secondary">
            Orders
          </LinkButton>
          <LinkButton to="/add-product">Add Product</LinkButton>
        </>
      }
    >
      {children}
    </Page>
  );
}

export default function ShopManagement({ loaderData }: Route.ComponentProps) {
  const { products, page, hasNext, q } = loaderData;
  const hrefFor = (n: number) => `/shop-management?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`;
  return (
    <Frame>
      {/* The shop's search engine over the host's own products (decision 590). */}
      {q || products.length > 0 || page > 1 ? (
        <Form method="get" role="search" className="mb-4 flex gap-2">
          <label className="sr-only" htmlFor="shop-management-q">
            Search your products
          </label>
          <input
            id="shop-management-q"
            type="search"
            name="q"
            defaultValue={q}
            key={q}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder="Search your products"
            className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
          />
          <button type="submit" className={buttonClass("secondary")}>
            Search
          </button>
        </Form>
      ) : null}
      {products.length === 0 && page === 1 && q ? (
        <EmptyState
          title="No products found"
          message="Try another search."
          action={{ to: "/shop-management", label: "Clear search" }}
        />
      ) : products.length === 0 && page === 1 ? (
        <EmptyState
          title="No products yet"
          message="Add your first product to start selling."
          action={{ to: "/add-product", label: "Add Product" }}
        />
      ) : products.length === 0 ? (
        // Past the last page (an old or hand-made address): there are products, just not this far.
        <EmptyState
          title="No more products"
          message="There are no more products on this page."
          action={{ to: "/shop-management", label: "Back to the first page" }}
        />
      ) : (
        <Table head={["Product", "Price", "Stock", "Status", "Actions"]}>
          {products.map((p) => (
            <tr key={p.id} data-product-row={p.id}>
              <td className="px-4 py-2 font-medium text-gray-900">
                <span className="flex items-center gap-3">
                  {p.image ? <img src={p.image} alt="" className="h-10 w-10 rounded object-cover" /> : null}
                  {p.name}
                </span>
              </td>
              <td className="px-4 py-2 whitespace-nowrap">{priceText(p)}</td>
              <td className="px-4 py-2">
                <Badge tone={stockTone[p.stock]}>{p.stock}</Badge>
              </td>
              <td className="px-4 py-2">
                <StatusBadge status={p.status} />
              </td>
              <td className="px-4 py-2 whitespace-nowrap">
                <span className="flex gap-3 text-sm font-semibold">
                  <Link to={`/view-product/${p.id}`} className="text-brand-700 hover:underline">
                    View
                  </Link>
                  {p.status !== "archived" ? (
                    <>
                      <Link to={`/edit-product/${p.id}`} className="text-gray-700 hover:underline">
                        Edit
                      </Link>
                      <Link to={`/delete-product/${p.id}`} className="text-red-700 hover:underline">
                        Delete
                      </Link>
                    </>
                  ) : null}
                </span>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={hrefFor} />
    </Frame>
  );
}

export function ErrorBoundary() {
  return (
    <Frame>
      <div role="alert" className="rounded-xl border border-red-200 bg-red-50 px-6 py-10 text-center">
        <p className="font-semibold text-red-800">Error loading products</p>
        <a href="/shop-management" className={buttonClass("secondary", "md", "mt-4")}>
          Try Again
        </a>
      </div>
    </Frame>
  );
}
