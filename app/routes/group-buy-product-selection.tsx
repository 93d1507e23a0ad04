import { ProductGrid } from "~/components/cards";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { EmptyState, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getGroupBuy, listGroupBuyProducts } from "~/db/queries/group-buys.server";
import { getOptionalUser } from "~/lib/auth.server";
import { idParam, notFound } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/group-buy-product-selection";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Choose products · ${loaderData.groupBuy.name}` : errorTitle(error, "Group buy not found"));

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const db = getDb(getEnv(context));
  const groupBuy = await getGroupBuy(db, id);
  if (!groupBuy || (groupBuy.status === "draft" && groupBuy.hostId !== getOptionalUser(context)?.id)) notFound();
  const products = await listGroupBuyProducts(db, id, 50);
  return {
    groupBuy: { id: groupBuy.id, name: groupBuy.name, status: groupBuy.status, hostName: groupBuy.hostName },
    products: products.map((p) => ({ ...p, hostName: groupBuy.hostName, priceMaxCents: null })),
  };
}

export default function GroupBuyProductSelection({ loaderData }: Route.ComponentProps) {
  const { groupBuy, products } = loaderData;
  return (
    <Page
      title="Choose your products"
      subtitle={`${groupBuy.name}: pick quantities, then join the group buy. You pay the original price now and get the tier discount refunded when it ends.`}
      back={{ to: `/group-buy-detail/${groupBuy.id}`, label: "Back to group buy" }}
    >
      {products.length === 0 ? (
        <EmptyState title="No products in this group buy yet" />
      ) : (
        <ProductGrid products={products} />
      )}
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{ title: "Group buy not found", message: "This group buy doesn't exist or has been removed.", action: { to: "/explore", label: "Explore creators" } }}
    />
  );
}
