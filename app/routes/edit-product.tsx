import { ErrorPage, errorTitle } from "~/components/error-page";
import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getProduct } from "~/db/queries/products.server";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { assertOwner, idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/edit-product";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Edit ${loaderData.product.name}` : errorTitle(error, "Product not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const product = await getProduct(getDb(getEnv(context)), idParam(params.id));
  if (!product) notFound();
  assertOwner(product.hostId, user.id);
  return { product: { id: product.id, name: product.name } };
}

export default function EditProduct({ loaderData }: Route.ComponentProps) {
  const { product } = loaderData;
  return (
    <Page title="Edit Product" subtitle={product.name} width="narrow" back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      <Card>
        <p className="text-gray-700">
          This page will hold the product form with the current name, description, category, sizes, colours and
          images, ready to change and save.
        </p>
        <div className="mt-4 flex gap-3">
          <LinkButton to={`/view-product/${product.id}`} variant="secondary">
            View product
          </LinkButton>
          <LinkButton to="/shop-management" variant="ghost">
            Shop Management
          </LinkButton>
        </div>
      </Card>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} notFound={{ title: "Product not found", message: "This product doesn't exist or has been deleted.", action: { to: "/shop-management", label: "Back to Shop Management" } }} />;
}
