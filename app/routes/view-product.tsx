import { Link } from "~/components/link";
import { priceText } from "~/components/cards";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Badge, Card, DateText, LinkButton, Page, pageMeta, Stat, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listGroupBuyTiers } from "~/db/queries/group-buys.server";
import { activeGroupBuysOfProduct, productSales } from "~/db/queries/product-admin.server";
import { getProduct, listProductColors, listProductImages, listProductSizes } from "~/db/queries/products.server";
import { currentTier, groupBuyProgressPercent } from "~/domain/group-buy";
import { formatCents } from "~/domain/money";
import { stockLabel, totalAvailableUnits } from "~/domain/stock";
import { assertOwner, idParam, notFound, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/view-product";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData?.product.name ?? errorTitle(error, "Product not found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const db = getDb(getEnv(context));
  const product = await getProduct(db, idParam(params.id));
  if (!product) notFound();
  assertOwner(product.hostId, user.id);
  const [sizes, colors, images, sales, groupBuys] = await Promise.all([
    listProductSizes(db, product.id),
    listProductColors(db, product.id),
    listProductImages(db, product.id),
    productSales(db, product.id),
    activeGroupBuysOfProduct(db, product.id, product.hostId),
  ]);
  // The group buys offering it: participants, sales toward the target, and the discount reached so far.
  const groupBuy = await Promise.all(
    groupBuys.map(async (g) => ({
      id: g.id,
      name: g.name,
      participants: g.participants,
      sales: formatCents(g.salesCents, g.currency),
      target: formatCents(g.targetCents, g.currency),
      progress: groupBuyProgressPercent(g.salesCents, g.targetCents),
      discountPercent: currentTier(await listGroupBuyTiers(db, g.id), g.salesCents)?.discountPercent ?? 0,
    })),
  );
  const units = totalAvailableUnits(sizes);
  return { product, sizes, colors, images, sales, units, stock: stockLabel(product.category, units), groupBuy };
}

const stockTone = { Digital: "blue", "Out of Stock": "red", "Low Stock": "yellow", "In Stock": "green" } as const;

export default function ViewProduct({ loaderData }: Route.ComponentProps) {
  const { product: p, sizes, colors, images, sales, units, stock, groupBuy } = loaderData;
  const archived = p.status === "archived";
  return (
    <Page
      title={p.name || "Unknown Product"}
      subtitle={
        <>
          Added <DateText value={p.createdAt} />
        </>
      }
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        <>
          {!archived ? (
            <LinkButton to={`/product/${p.id}`} variant="ghost">
              Public page
            </LinkButton>
          ) : null}
          {!archived ? (
            <LinkButton to={`/edit-product/${p.id}`} variant="secondary">
              Edit
            </LinkButton>
          ) : null}
          {!archived ? (
            <LinkButton to={`/delete-product/${p.id}`} variant="danger">
              Delete
            </LinkButton>
          ) : null}
        </>
      }
    >
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Sales" value={sales.sales} hint={`${sales.orders} ${sales.orders === 1 ? "order" : "orders"}`} />
        <Stat label="Revenue" value={formatCents(sales.revenueCents, p.currency)} />
        <Stat label="Views" value={p.viewCount} />
        <Stat label="Likes" value={p.likeCount} />
      </div>
      <Card className="mt-6">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={p.status} />
          <Badge tone={stockTone[stock]}>{stock}</Badge>
          {stock !== "Digital" ? <span className="text-sm text-gray-600">{units} units</span> : null}
          <span className="text-sm text-gray-600 capitalize">{p.category}</span>
          <span className="ml-auto font-semibold text-brand-700">{priceText(p)}</span>
        </div>
        <p className="mt-3 whitespace-pre-line text-gray-700">{p.description || "No description available."}</p>
        {p.category === "voucher" ? (
          <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
            <div>
              <dt className="text-gray-500">Voucher value</dt>
              <dd className="font-medium text-gray-900">
                {p.voucherValueCents != null ? formatCents(p.voucherValueCents, p.currency) : "The price paid"}
              </dd>
            </div>
            <div>
              <dt className="text-gray-500">Expires</dt>
              <dd className="font-medium text-gray-900">
                {p.voucherExpiresAt ? <DateText value={p.voucherExpiresAt} /> : "One year after purchase"}
              </dd>
            </div>
          </dl>
        ) : null}
      </Card>
      {groupBuy.map((g) => (
        <Card key={g.id} className="mt-6">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="font-semibold text-gray-900">
              In group buy:{" "}
              <Link to="/group-buy-management" className="text-brand-700 hover:underline">
                {g.name}
              </Link>
            </h2>
            <Badge tone="green">Active</Badge>
          </div>
          <p className="mt-2 text-sm text-gray-700">
            {g.participants} {g.participants === 1 ? "participant" : "participants"} · {g.sales} of {g.target} (
            {g.progress}%) · current discount {g.discountPercent}%
          </p>
        </Card>
      ))}
      {images.length ? (
        <div className="mt-6 grid grid-cols-3 gap-3 sm:grid-cols-6">
          {images.map((img, i) => (
            <img
              key={img.id}
              src={img.url}
              alt={i === 0 ? `${p.name} (main image)` : p.name}
              className="aspect-square w-full rounded-lg object-cover"
            />
          ))}
        </div>
      ) : null}
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <Card>
          <h2 className="font-semibold text-gray-900">Sizes</h2>
          <ul className="mt-2 divide-y divide-gray-100 text-sm">
            {sizes.map((s) => (
              <li key={s.id} className="flex justify-between py-1.5">
                <span>{s.name}</span>
                <span>
                  {formatCents(s.priceCents, s.currency)} · {s.availableUnits} units
                </span>
              </li>
            ))}
            {sizes.length === 0 ? <li className="py-1.5 text-gray-500">No sizes</li> : null}
          </ul>
        </Card>
        <Card>
          <h2 className="font-semibold text-gray-900">Colours</h2>
          <ul className="mt-2 divide-y divide-gray-100 text-sm">
            {colors.map((c) => (
              <li key={c.id} className="flex items-center justify-between py-1.5">
                <span className="flex items-center gap-2">
                  {c.hex ? (
                    <span
                      aria-hidden="true"
                      className="h-3 w-3 rounded-full border"
                      style={{ backgroundColor: c.hex }}
                    />
                  ) : null}
                  {c.name}
                </span>
                <span>{c.availableUnits} units</span>
              </li>
            ))}
            {colors.length === 0 ? <li className="py-1.5 text-gray-500">No colours</li> : null}
          </ul>
        </Card>
      </div>
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
