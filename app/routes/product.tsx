import { Link } from "react-router";
import { priceText } from "~/components/cards";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { buttonClass, Card, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getProduct, listProductImages, listProductSizes } from "~/db/queries/products.server";
import { formatCents } from "~/domain/money";
import { getOptionalUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/product";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData?.product.name ?? errorTitle(error, "Product not found"));

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const db = getDb(getEnv(context));
  const product = await getProduct(db, id);
  const user = getOptionalUser(context);
  // Drafts and inactive products are visible to their host only.
  if (!product || (product.status !== "active" && product.hostId !== user?.id)) notFound();
  const [sizes, images] = await Promise.all([listProductSizes(db, id), listProductImages(db, id, 1)]);
  return { product, sizes, image: images[0]?.url ?? null };
}

export default function Product({ loaderData }: Route.ComponentProps) {
  const { product, sizes, image } = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:px-6 sm:py-8">
      <Link to="/shop" className="text-sm font-medium text-gray-600 hover:text-gray-900">
        ← BACK TO SHOP
      </Link>
      <div className="mt-4 grid gap-8 md:grid-cols-2">
        <div className="aspect-square overflow-hidden rounded-xl bg-gray-100">
          {image ? <img src={image} alt={product.name} className="h-full w-full object-cover" /> : null}
        </div>
        <div>
          <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl">{product.name || "Unnamed Product"}</h1>
          {product.hostName ? (
            <p className="mt-1 text-sm text-gray-600">
              by{" "}
              <Link to={`/profile/${product.hostSlug ?? product.hostId}`} className="font-medium text-brand-700 hover:underline">
                {product.hostName}
              </Link>
            </p>
          ) : null}
          <p className="mt-4 text-2xl font-bold text-brand-700">{priceText(product)}</p>
          <p className="mt-4 whitespace-pre-line text-gray-700">{product.description || "No description available."}</p>
          <Card className="mt-6">
            <h2 className="text-sm font-semibold text-gray-900">Sizes</h2>
            {sizes.length === 0 ? (
              <p className="mt-2 text-sm text-gray-600">Sizes not available.</p>
            ) : (
              <ul className="mt-2 flex flex-wrap gap-2">
                {sizes.map((size) => (
                  <li key={size.id} className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm">
                    {size.name} · {formatCents(size.priceCents, size.currency)}
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to={`/buy-now/${product.id}`} className={buttonClass("primary")}>
              BUY NOW
            </Link>
            <Link to="/shop" className={buttonClass("secondary")}>
              BACK TO SHOP
            </Link>
          </div>
        </div>
      </div>
    </div>
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
