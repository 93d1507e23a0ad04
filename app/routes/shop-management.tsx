import { Link } from "react-router";
import { priceText, Table } from "~/components/cards";
import { EmptyState, LinkButton, Page, pageMeta, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listHostProducts } from "~/db/queries/products.server";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/shop-management";

export const meta: Route.MetaFunction = () => pageMeta("Shop Management");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const products = await listHostProducts(getDb(getEnv(context)), user.id, { limit: 50 });
  return { products };
}

export default function ShopManagement({ loaderData }: Route.ComponentProps) {
  const { products } = loaderData;
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
      {products.length === 0 ? (
        <EmptyState title="No products yet" message="Add your first product to start selling." action={{ to: "/add-product", label: "Add Product" }} />
      ) : (
        <Table head={["Product", "Price", "Status", "Actions"]}>
          {products.map((p) => (
            <tr key={p.id}>
              <td className="px-4 py-2 font-medium text-gray-900">{p.name}</td>
              <td className="px-4 py-2 whitespace-nowrap">{priceText(p)}</td>
              <td className="px-4 py-2">
                <StatusBadge status={p.status} />
              </td>
              <td className="px-4 py-2 whitespace-nowrap">
                <span className="flex gap-3 text-sm font-semibold">
                  <Link to={`/view-product/${p.id}`} className="text-brand-700 hover:underline">
                    View
                  </Link>
                  <Link to={`/edit-product/${p.id}`} className="text-gray-700 hover:underline">
                    Edit
                  </Link>
                  <Link to={`/delete-product/${p.id}`} className="text-red-700 hover:underline">
                    Delete
                  </Link>
                </span>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
}
