import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { EmptyState, Page, pageMeta, Pagination } from "~/components/page";
import { ShopGrid, shopCardRowOf } from "~/components/shop-ui";
import { getDb } from "~/db/client.server";
import { getViewerPlace } from "~/db/queries/profiles.server";
import { listWishlistProducts, setProductLike } from "~/db/queries/products.server";
import { WISHLIST_MESSAGES, WISHLIST_PAGE_SIZE } from "~/domain/saved-lists";
import { viewerSession } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { viewerCurrency } from "~/lib/currency.server";
import { pageParam, requireUser, signinRedirectUrl } from "~/lib/guards.server";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/wishlist";

// A fan's wishlist (docs/product.md#shop-and-products, docs/decisions/610-wishlist-and-saved-games.md): the
// products they liked ("Add to Wishlist" on the product page, the heart on a shop card), newest like first, as the
// shop shows them. Only their own: the list is read by the session, never by an id in the address.

export const meta: Route.MetaFunction = () => pageMeta("Wishlist", "The products you added to your wishlist.");

/** The id of the form every card's Remove button submits (the button sends its product id). */
const REMOVE_FORM_ID = "wishlist-remove";

export async function loader({ request, context }: Route.LoaderArgs) {
  // A visitor without a session goes to sign in at once; a session that turns out unknown or expired does below.
  const viewer = viewerSession(context);
  if (!viewer) throw redirect(signinRedirectUrl(request));
  const page = pageParam(request);
  const db = getDb(getEnv(context));
  // One batch with the session's lookup: the list and the fan's country and chosen currency are read by the session.
  const [, rows, place] = await Promise.all([
    requireUser(context, request),
    listWishlistProducts(db, viewer, {
      limit: WISHLIST_PAGE_SIZE + 1,
      offset: (page - 1) * WISHLIST_PAGE_SIZE,
    }),
    getViewerPlace(db, viewer),
  ]);
  const currency = viewerCurrency(request, place);
  const now = new Date();
  return {
    page,
    hasNext: rows.length > WISHLIST_PAGE_SIZE,
    currency,
    products: rows.slice(0, WISHLIST_PAGE_SIZE).map((r) => shopCardRowOf(r, currency, now)),
  };
}

const RemoveSchema = z.object({
  intent: z.literal("remove"),
  productId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
});

/**
 * Remove: unlikes the product for the signed-in fan (their own like only; the like count moves once however often
 * it is sent), then back to the same page of the list.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const parsed = RemoveSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ ok: false, message: WISHLIST_MESSAGES.unknownProduct }, { status: 400 });
  await setProductLike(getDb(getEnv(context)), user.id, parsed.data.productId, false);
  const page = pageParam(request);
  return redirect(page > 1 ? `/wishlist?page=${page}` : "/wishlist", {
    headers: { "Set-Cookie": flashToastCookie({ message: WISHLIST_MESSAGES.removed, type: "success" }) },
  });
}

export default function Wishlist({ loaderData, actionData }: Route.ComponentProps) {
  const { products, page, hasNext, currency } = loaderData;
  return (
    <Page title="Wishlist" subtitle="The products you added to your wishlist, newest first.">
      {actionData && !actionData.ok ? (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {actionData.message}
        </p>
      ) : null}
      {products.length === 0 ? (
        page > 1 ? (
          <EmptyState
            title="No more products"
            message="There is nothing on this page of your wishlist."
            action={{ to: "/wishlist", label: "Back to the first page" }}
          />
        ) : (
          <EmptyState
            title="Your wishlist is empty"
            message="Tap Add to Wishlist on a product, or the heart on its card, to keep it here."
            action={{ to: "/shop", label: "Browse the Shop" }}
          />
        )
      ) : (
        <>
          <Form id={REMOVE_FORM_ID} method="post" action={page > 1 ? `/wishlist?page=${page}` : "/wishlist"} hidden>
            <input type="hidden" name="intent" value="remove" />
          </Form>
          <ShopGrid rows={products} currency={currency} signedIn removeForm={REMOVE_FORM_ID} />
        </>
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={(n) => (n > 1 ? `/wishlist?page=${n}` : "/wishlist")} />
    </Page>
  );
}
