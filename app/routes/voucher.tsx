import { ErrorPage, errorTitle } from "~/components/error-page";
import { Card, DateText, LinkButton, Page, pageMeta, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getVoucherByCode } from "~/db/queries/vouchers.server";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { idParam, notFound } from "~/lib/route-params.server";
import type { Route } from "./+types/voucher";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Voucher ${loaderData.voucher.code}` : errorTitle(error, "Voucher Not Found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const voucher = await getVoucherByCode(getDb(getEnv(context)), idParam(params.code));
  // Only the buyer and the seller may see a voucher; to anyone else it does not exist.
  if (!voucher || (voucher.buyerId !== user.id && voucher.hostId !== user.id)) notFound();
  return {
    isSeller: voucher.hostId === user.id,
    voucher: {
      code: voucher.code,
      status: voucher.status,
      value: formatCents(voucher.valueCents, voucher.currency),
      productName: voucher.productName,
      hostName: voucher.hostName,
      customerName: voucher.customerName,
      orderNumber: voucher.orderNumber,
      purchasedAt: voucher.createdAt,
      expiresAt: voucher.expiresAt,
      redeemedAt: voucher.redeemedAt,
    },
  };
}

export default function Voucher({ loaderData }: Route.ComponentProps) {
  const { voucher: v, isSeller } = loaderData;
  return (
    <Page
      title="Voucher Details"
      subtitle={v.productName}
      width="narrow"
      back={isSeller ? { to: "/voucher-management", label: "Back to Vouchers" } : { to: "/my-orders", label: "Back to My Orders" }}
      actions={<StatusBadge status={v.status} />}
    >
      <Card>
        <p className="text-sm text-gray-500">Voucher code</p>
        <p className="mt-1 font-mono text-2xl font-bold tracking-wider text-gray-900">{v.code}</p>
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-gray-500">Value</dt>
            <dd className="font-medium">{v.value}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Store</dt>
            <dd className="font-medium">{v.hostName ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Purchased</dt>
            <dd className="font-medium">
              <DateText value={v.purchasedAt} />
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Expires</dt>
            <dd className="font-medium">
              <DateText value={v.expiresAt} />
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Order</dt>
            <dd className="font-medium">{v.orderNumber}</dd>
          </div>
          {v.redeemedAt ? (
            <div>
              <dt className="text-gray-500">Redeemed</dt>
              <dd className="font-medium">
                <DateText value={v.redeemedAt} />
              </dd>
            </div>
          ) : null}
          {isSeller && v.customerName ? (
            <div>
              <dt className="text-gray-500">Customer</dt>
              <dd className="font-medium">{v.customerName}</dd>
            </div>
          ) : null}
        </dl>
        <p className="mt-4 text-xs text-gray-500">Each code can only be redeemed once. Show this code at the store to redeem it.</p>
        {isSeller && v.status === "active" ? (
          <div className="mt-4">
            <LinkButton to={`/voucher-scanner?code=${encodeURIComponent(v.code)}`}>Redeem via scanner</LinkButton>
          </div>
        ) : null}
      </Card>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} notFound={{ title: "Voucher Not Found", message: "This voucher doesn't exist or isn't yours.", action: { to: "/my-orders", label: "Back to My Orders" } }} />;
}
