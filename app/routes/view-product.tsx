import { priceText } from "~/components/cards";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Card, DateText, LinkButton, Page, pageMeta, Stat, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getProduct } from "~/db/queries/products.server";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { assertOwner, idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/view-product";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData?.product.name ?? errorTitle(error, "Product not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const product = await getProduct(getDb(getEnv(context)), idParam(params.id));
  if (!product) notFound();
  assertOwner(product.hostId, user.id);
  return { product };
}

export default function ViewProduct({ loaderData }: Route.ComponentProps) {
  const { product: p } = loaderData;
  return (
    <Page
      title={p.name || "Unknown Product"}
      subtitle={<>Added <DateText value={p.createdAt} /></>}
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        <>
          <LinkButton to={`/product/${p.id}`} variant="ghost">
            Public page
          </LinkButton>
          <LinkButton to={`/edit-product/${p.id}`} variant="secondary">
            Edit
          </LinkButton>
          <LinkButton to={`/delete-product/${p.id}`} variant="danger">
            Delete
          </LinkButton>
        </>
      }
    >
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Sales" value={p.salesCount} />
        <Stat label="Revenue" value={formatCents(p.revenueCents, p.currency)} />
        <Stat label="Views" value={p.viewCount} />
        <Stat label="Likes" value={p.likeCount} />
      </div>
      <Card className="mt-6">
        <div className="flex items-center gap-2">
          <StatusBadge status={p.status} />
          <span className="text-sm text-gray-600 capitalize">{p.category}</span>
          <span className="ml-auto font-semibold text-brand-700">{priceText(p)}</span>
        </div>
        <p className="mt-3 whitespace-pre-line text-gray-700">{p.description || "No description available."}</p>
      </Card>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} notFound={{ title: "Product not found", message: "This product doesn't exist or has been deleted.", action: { to: "/shop-management", label: "Back to Shop Management" } }} />;
}
