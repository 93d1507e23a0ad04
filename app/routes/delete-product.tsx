import { ErrorPage, errorTitle } from "~/components/error-page";
import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getProduct } from "~/db/queries/products.server";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { assertOwner, idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/delete-product";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Delete ${loaderData.product.name}` : errorTitle(error, "Product not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const product = await getProduct(getDb(getEnv(context)), idParam(params.id));
  if (!product) notFound();
  assertOwner(product.hostId, user.id);
  return { product: { id: product.id, name: product.name, salesCount: product.salesCount } };
}

export default function DeleteProduct({ loaderData }: Route.ComponentProps) {
  const { product } = loaderData;
  return (
    <Page title="Delete Product" subtitle={product.name} width="narrow" back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      <Card>
        <p className="text-gray-700">
          Here you will confirm removing <strong>{product.name}</strong> from your shop by typing DELETE. It has{" "}
          {product.salesCount} {product.salesCount === 1 ? "sale" : "sales"}; orders already placed keep their record.
        </p>
        <div className="mt-4">
          <LinkButton to="/dashboard" variant="secondary">
            Cancel
          </LinkButton>
        </div>
      </Card>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} notFound={{ title: "Product not found", message: "This product doesn't exist or has been deleted.", action: { to: "/shop-management", label: "Back to Shop Management" } }} />;
}
