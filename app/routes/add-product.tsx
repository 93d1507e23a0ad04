import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import { requireUser } from "~/lib/auth.server";
import type { Route } from "./+types/add-product";

export const meta: Route.MetaFunction = () => pageMeta("Add Product");

export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

export default function AddProduct() {
  return (
    <Page title="Add Product" subtitle="10% of every sale goes to your prize pool." width="narrow" back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      <Card>
        <p className="text-gray-700">
          This page will hold the product form: name, description, category (physical, digital or voucher), sizes with
          prices and available units, colours, and images (at least 800×800 pixels; the first image is the main one).
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
