import { useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Button, Card, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import {
  activeGroupBuysOfProduct,
  countProductOrders,
  deleteOrArchiveProduct,
  productSales,
} from "~/db/queries/product-admin.server";
import { getProduct, listProductImages } from "~/db/queries/products.server";
import { formatCents } from "~/domain/money";
import { assertOwner, idParam, notFound, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { PRODUCT_MESSAGES } from "~/lib/product-form";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/delete-product";

const CONFIRM_WORD = "DELETE";
const CONFIRM_MESSAGE = 'Please type "DELETE" to confirm';

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Delete ${loaderData.product.name}` : errorTitle(error, "Product not found"));

async function ownedProduct(context: Route.LoaderArgs["context"], request: Request, rawId: string | undefined) {
  const user = await requireUser(context, request);
  const db = getDb(getEnv(context));
  const product = await getProduct(db, idParam(rawId));
  if (!product || product.status === "archived") notFound();
  assertOwner(product.hostId, user.id);
  return { user, db, product };
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { db, product } = await ownedProduct(context, request, params.id);
  const [orderCount, groupBuys, sales, [image]] = await Promise.all([
    countProductOrders(db, product.id),
    activeGroupBuysOfProduct(db, product.id, product.hostId),
    productSales(db, product.id),
    listProductImages(db, product.id, 1),
  ]);
  return {
    product: { id: product.id, name: product.name, image: image?.url ?? null },
    // What the host loses from the shop: units sold and revenue net of refunds, as on the product's details screen.
    sales: { units: sales.sales, revenue: formatCents(sales.revenueCents, product.currency) },
    orderCount,
    groupBuys,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const { user, db, product } = await ownedProduct(context, request, params.id);
  const form = await request.formData();
  if (form.get("confirm") !== CONFIRM_WORD) return data({ error: CONFIRM_MESSAGE }, { status: 400 });
  let result: Awaited<ReturnType<typeof deleteOrArchiveProduct>>;
  try {
    result = await deleteOrArchiveProduct(db, product.id, user.id);
  } catch (err) {
    console.error("product delete failed", err);
    return data({ error: PRODUCT_MESSAGES.deleteFailed }, { status: 500 });
  }
  if (!result) notFound();
  if (result.r2Keys.length) {
    // The product is gone either way: an image left in storage is logged, not shown to the host as a failure.
    await getEnv(context)
      .MEDIA.delete(result.r2Keys)
      .catch((err) => console.error("product images delete failed", err));
  }
  const message = result.outcome === "archived" ? "Product archived: past orders keep their record" : "Product deleted";
  return redirect("/shop-management", { headers: { "Set-Cookie": flashToastCookie({ message, type: "success" }) } });
}

export default function DeleteProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { product, sales, orderCount, groupBuys } = loaderData;
  const [typed, setTyped] = useState("");
  const busy = useNavigation().state === "submitting";
  return (
    <Page
      title="Delete Product"
      subtitle={product.name}
      width="narrow"
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
    >
      <Card>
        <div className="mb-4 flex items-center gap-4">
          {product.image ? (
            <img
              src={product.image}
              alt={product.name}
              width={64}
              height={64}
              className="h-16 w-16 shrink-0 rounded-lg object-cover"
            />
          ) : (
            <div aria-hidden="true" className="h-16 w-16 shrink-0 rounded-lg bg-gray-100" />
          )}
          <dl className="grid grid-cols-2 gap-x-6 text-sm">
            <div>
              <dt className="text-gray-500">Sales</dt>
              <dd className="font-semibold text-gray-900">{sales.units}</dd>
            </div>
            <div>
              <dt className="text-gray-500">Revenue</dt>
              <dd className="font-semibold text-gray-900">{sales.revenue}</dd>
            </div>
          </dl>
        </div>
        <p className="text-gray-700">
          You are about to remove <strong>{product.name}</strong> from your shop.{" "}
          {orderCount > 0
            ? `It has ${orderCount} ${orderCount === 1 ? "order" : "orders"}, so it will be archived: hidden from your shop and profile, while past orders keep their product.`
            : "It has no orders, so it and its images will be deleted. This cannot be undone."}
        </p>
        {groupBuys.map((g) => (
          <p key={g.id} role="status" className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            It is in your active group buy <strong>{g.name}</strong> ({g.participants}{" "}
            {g.participants === 1 ? "participant" : "participants"}): once removed, it is no longer offered there.
            Participants who already joined keep their orders.
          </p>
        ))}
        <Form method="post" className="mt-4 space-y-3">
          <label htmlFor="confirm" className="block text-sm font-medium text-gray-700">
            Type DELETE to confirm
          </label>
          <input
            id="confirm"
            name="confirm"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            required
            pattern="DELETE"
            aria-invalid={actionData?.error ? true : undefined}
            aria-describedby={actionData?.error ? "confirm-error" : undefined}
            className="block w-full rounded-lg border border-gray-300 px-3 py-2 text-sm"
          />
          {actionData?.error ? (
            <p id="confirm-error" role="alert" className="text-sm text-red-600">
              {actionData.error}
            </p>
          ) : null}
          <div className="flex gap-3">
            <LinkButton to="/dashboard" variant="secondary">
              Cancel
            </LinkButton>
            <Button type="submit" variant="danger" disabled={typed !== CONFIRM_WORD || busy}>
              {busy ? "Deleting..." : "Delete Product"}
            </Button>
          </div>
        </Form>
      </Card>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Product not found",
        message: "This product doesn't exist or has been deleted.",
        action: { to: "/shop-management", label: "Back to Shop Management" },
      }}
    />
  );
}
