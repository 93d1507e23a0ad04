import { Form, Link } from "react-router";
import { Badge, Card, DateText, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getVoucherByCode } from "~/db/queries/vouchers.server";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/voucher-scanner";

const CODE = /^[A-Za-z0-9_-]{1,64}$/;

export const meta: Route.MetaFunction = () => pageMeta("Voucher Scanner");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const raw = new URL(request.url).searchParams.get("code");
  if (raw === null) return { code: "", result: null };
  const code = raw.trim().toUpperCase();
  if (!code) return { code, result: { kind: "error" as const, message: "Please enter a voucher code" } };
  const voucher = CODE.test(code) ? await getVoucherByCode(getDb(getEnv(context)), code) : undefined;
  // A host looks up only vouchers of their own shop; anything else is not found.
  if (!voucher || voucher.hostId !== user.id) return { code, result: { kind: "missing" as const } };
  return {
    code,
    result: {
      kind: "found" as const,
      status: voucher.status,
      value: formatCents(voucher.valueCents, voucher.currency),
      productName: voucher.productName,
      customerName: voucher.customerName,
      orderNumber: voucher.orderNumber,
      expiresAt: voucher.expiresAt,
      redeemedAt: voucher.redeemedAt,
    },
  };
}

export default function VoucherScanner({ loaderData }: Route.ComponentProps) {
  const { code, result } = loaderData;
  return (
    <Page title="Voucher Scanner" subtitle="Look up a voucher code to check it before redeeming." width="narrow" back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      <Card>
        <h2 className="font-semibold text-gray-900">Manual Entry</h2>
        <Form method="get" className="mt-3 flex gap-2">
          <label htmlFor="code" className="sr-only">
            Voucher code
          </label>
          <input
            id="code"
            name="code"
            defaultValue={code}
            placeholder="VCH-XXXXXXXX"
            autoComplete="off"
            autoCapitalize="characters"
            className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 font-mono text-sm uppercase shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
          />
          <button type="submit" className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700">
            Lookup
          </button>
        </Form>
        <p className="mt-3 text-xs text-gray-500">Camera scanning and redeeming will be added to this page.</p>
      </Card>

      <div className="mt-6" aria-live="polite">
        {result?.kind === "error" ? (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
            {result.message}
          </p>
        ) : result?.kind === "missing" ? (
          <Card>
            <p className="font-semibold text-gray-900">Voucher Not Found</p>
            <p className="mt-1 font-mono text-sm text-gray-600">{code}</p>
            <Link to="/voucher-scanner" className="mt-3 inline-block text-sm font-semibold text-brand-700 hover:underline">
              Try Again
            </Link>
          </Card>
        ) : result?.kind === "found" ? (
          <Card>
            <div className="flex items-center justify-between gap-2">
              <p className="font-semibold text-gray-900">
                {result.status === "active" ? "Valid Voucher" : result.status === "redeemed" ? "Already Redeemed" : "Expired Voucher"}
              </p>
              <Badge tone={result.status === "active" ? "green" : result.status === "redeemed" ? "blue" : "red"}>{code}</Badge>
            </div>
            <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-gray-500">Value</dt>
                <dd className="font-medium">{result.value}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Product</dt>
                <dd className="font-medium">{result.productName}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Customer</dt>
                <dd className="font-medium">{result.customerName ?? "—"}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Order</dt>
                <dd className="font-medium">{result.orderNumber}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Expires</dt>
                <dd className="font-medium">
                  <DateText value={result.expiresAt} />
                </dd>
              </div>
              {result.redeemedAt ? (
                <div>
                  <dt className="text-gray-500">Redeemed</dt>
                  <dd className="font-medium">
                    <DateText value={result.redeemedAt} />
                  </dd>
                </div>
              ) : null}
            </dl>
            <Link to="/voucher-scanner" className="mt-4 inline-block text-sm font-semibold text-brand-700 hover:underline">
              Scan Another
            </Link>
          </Card>
        ) : null}
      </div>
    </Page>
  );
}
