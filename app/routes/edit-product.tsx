import { data, redirect } from "react-router";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Page, pageMeta } from "~/components/page";
import { ProductForm } from "~/components/product-form";
import { getDb } from "~/db/client.server";
import { productFormValuesFor, updateProduct } from "~/db/queries/product-admin.server";
import { assertOwner, idParam, notFound, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { isoDate, PRODUCT_MESSAGES } from "~/lib/product-form";
import { readProductSubmission } from "~/lib/product-submit.server";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/edit-product";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Edit ${loaderData.product.name}` : errorTitle(error, "Product not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const found = await productFormValuesFor(getDb(getEnv(context)), idParam(params.id));
  if (!found || found.product.status === "archived") notFound();
  assertOwner(found.product.hostId, user.id);
  return {
    product: { id: found.product.id, name: found.product.name },
    defaults: found.values,
    minExpiry: isoDate(new Date(Date.now() + 86_400_000)),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const id = idParam(params.id);
  const found = await productFormValuesFor(db, id);
  if (!found || found.product.status === "archived") notFound();
  assertOwner(found.product.hostId, user.id);
  const submission = await readProductSubmission(request, user.id);
  if (!submission.ok) return data({ errors: submission.errors, values: submission.values }, { status: 400 });
  let unused: string[] | null;
  try {
    unused = await updateProduct(db, id, user.id, submission.input);
  } catch (err) {
    console.error("product update failed", err);
    return data({ errors: { form: PRODUCT_MESSAGES.updateFailed }, values: null }, { status: 500 });
  }
  if (unused === null) notFound();
  if (unused.length) await env.MEDIA.delete(unused);
  return redirect("/shop-management", {
    headers: { "Set-Cookie": flashToastCookie({ message: "Product updated successfully!", type: "success" }) },
  });
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { product } = loaderData;
  return (
    <Page
      title="Edit Product"
      subtitle={product.name}
      width="narrow"
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
    >
      <ProductForm
        defaults={actionData?.values ?? loaderData.defaults}
        errors={actionData?.errors}
        submitLabel="Save Changes"
        cancelTo={`/view-product/${product.id}`}
        minExpiry={loaderData.minExpiry}
      />
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
