import { Link } from "react-router";
import { priceText } from "~/components/cards";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { buttonClass, Card, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getProduct, listProductImages } from "~/db/queries/products.server";
import { getOptionalUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/buy-now";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Buy ${loaderData.product.name}` : errorTitle(error, "Product not found"));

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const db = getDb(getEnv(context));
  const product = await getProduct(db, id);
  if (!product || (product.status !== "active" && product.hostId !== getOptionalUser(context)?.id)) notFound();
  const images = await listProductImages(db, id, 1);
  return { product, image: images[0]?.url ?? null };
}

export default function BuyNow({ loaderData }: Route.ComponentProps) {
  const { product, image } = loaderData;
  return (
    <Page title={product.name} subtitle={product.hostName ? `by ${product.hostName}` : undefined} back={{ to: "/shop", label: "Back to Shop" }}>
      <div className="grid gap-8 md:grid-cols-2">
        <div className="aspect-square overflow-hidden rounded-xl bg-gray-100">
          {image ? <img src={image} alt={product.name} className="h-full w-full object-cover" /> : null}
        </div>
        <div className="space-y-4">
          <p className="text-2xl font-bold text-brand-700">{priceText(product)}</p>
          <Card>
            <p className="text-sm text-gray-700">
              This is where you choose size, colour and quantity and pay through a secure hosted checkout. 10% of your
              purchase goes to {product.hostName ?? "the creator"}'s prize pool and you get an entry number to the main
              prize, which is 60% of the pool.
            </p>
          </Card>
          <div className="flex flex-wrap gap-3">
            <Link to={`/product/${product.id}`} className={buttonClass("secondary")}>
              Product details
            </Link>
            <LinkButton to="/shop" variant="ghost">
              Back to Shop
            </LinkButton>
          </div>
        </div>
      </div>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{ title: "Product not found", message: "This product doesn't exist or is no longer for sale.", action: { to: "/shop", label: "Back to Shop" } }}
    />
  );
}
