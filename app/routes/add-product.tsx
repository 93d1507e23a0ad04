import { data, redirect } from "react-router";
import { Page, pageMeta } from "~/components/page";
import { ProductForm } from "~/components/product-form";
import { getDb } from "~/db/client.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { poolShareText } from "~/domain/revenue";
import { createProduct } from "~/db/queries/product-admin.server";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { getOptionalUser } from "~/lib/auth.server";
import { emptyProductForm, isoDate, PRODUCT_MESSAGES, readProductForm } from "~/lib/product-form";
import { readProductSubmission } from "~/lib/product-submit.server";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/add-product";

export const meta: Route.MetaFunction = () => pageMeta("Add Product");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  const now = new Date();
  const rules = await getRevenueRules(getDb(getEnv(context)));
  return {
    defaults: emptyProductForm(now),
    minExpiry: isoDate(new Date(now.getTime() + 86_400_000)),
    poolShare: poolShareText(rules, "shop_sales"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await getOptionalUser(context);
  if (!user) {
    // The session ended while the form was open: say so and keep what was typed.
    const values = readProductForm(await request.formData().catch(() => new FormData()));
    return data({ errors: { form: PRODUCT_MESSAGES.notAuthenticated }, values }, { status: 401 });
  }
  const submission = await readProductSubmission(request, user.id);
  if (!submission.ok) return data({ errors: submission.errors, values: submission.values }, { status: 400 });
  try {
    await createProduct(getDb(getEnv(context)), user.id, submission.input);
  } catch (err) {
    console.error("product insert failed", err);
    return data({ errors: { form: PRODUCT_MESSAGES.createFailed }, values: null }, { status: 500 });
  }
  return redirect("/shop", {
    headers: { "Set-Cookie": flashToastCookie({ message: "Product created successfully!", type: "success" }) },
  });
}

export default function AddProduct({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Page
      title="Add Product"
      subtitle={`${loaderData.poolShare} of every sale goes to your prize pool.`}
      width="narrow"
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
    >
      <ProductForm
        defaults={actionData?.values ?? loaderData.defaults}
        errors={actionData?.errors}
        submitLabel="Add Product"
        cancelTo="/dashboard"
        minExpiry={loaderData.minExpiry}
      />
    </Page>
  );
}
