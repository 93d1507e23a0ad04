import { Link } from "react-router";
import { ProductGrid } from "~/components/cards";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { EmptyState, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getProfileByIdOrSlug } from "~/db/queries/profiles.server";
import { listHostProducts } from "~/db/queries/products.server";
import { getOptionalUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/profile-shop";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `${loaderData.profile.creatorName}'s Shop` : errorTitle(error, "Creator Not Found"));

export async function loader({ params, context }: Route.LoaderArgs) {
  const key = idParam(params.id);
  const db = getDb(getEnv(context));
  const profile = await getProfileByIdOrSlug(db, key);
  const own = profile?.userId === getOptionalUser(context)?.id;
  if (!profile || (!own && (!profile.profilePublic || profile.status !== "active"))) notFound();
  const products = await listHostProducts(db, profile.userId, { limit: 48, activeOnly: true });
  return { profile: { userId: profile.userId, slug: profile.slug, creatorName: profile.creatorName }, products };
}

export default function ProfileShop({ loaderData }: Route.ComponentProps) {
  const { profile, products } = loaderData;
  const base = `/profile/${profile.slug ?? profile.userId}`;
  return (
    <Page
      title={`${profile.creatorName}'s Shop`}
      subtitle="Pay in your local currency on the checkout page."
      back={{ to: base, label: `Back to ${profile.creatorName}` }}
    >
      {products.length === 0 ? (
        <EmptyState title="No products available yet" />
      ) : (
        <ProductGrid
          products={products}
          footer={(p) => (
            <div className="flex justify-between gap-2 text-sm font-semibold">
              <Link to={`/buy-now/${p.id}`} className="text-brand-700 hover:underline">
                Buy Now
              </Link>
              <Link to={`/product/${p.id}`} className="text-gray-700 hover:underline">
                View Details
              </Link>
            </div>
          )}
        />
      )}
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{ title: "Creator Not Found", message: "This creator doesn't exist or their profile is private.", action: { to: "/", label: "Back to Home" } }}
    />
  );
}
