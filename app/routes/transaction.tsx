import { Link } from "~/components/link";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Card, DateText, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getLedgerRow, relatedLedgerRows } from "~/db/queries/earnings.server";
import { getPayout } from "~/db/queries/payouts.server";
import { EARNING_KIND_LABELS } from "~/domain/earnings";
import { formatCents } from "~/domain/money";
import { PAYOUT_STATUS_LABELS } from "~/domain/payouts";
import { idParam, notFound, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { earningsStatus } from "~/lib/earnings-csv";
import type { Route } from "./+types/transaction";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Transaction · ${loaderData.tx.type}` : errorTitle(error, "Transaction Not Found"));

/** One ledger row of the signed-in host (any type); anyone else's, or a missing one, is 'Transaction Not Found'. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const id = idParam(params.id);
  const db = getDb(getEnv(context));
  const row = await getLedgerRow(db, user.id, id);
  if (!row) notFound();
  const now = new Date();
  const [related, payout] = await Promise.all([
    relatedLedgerRows(db, user.id, row),
    row.payoutId ? getPayout(db, row.payoutId) : Promise.resolve(undefined),
  ]);
  const money = (cents: number) => formatCents(cents, row.currency);
  return {
    tx: {
      id: row.id,
      type: EARNING_KIND_LABELS[row.kind],
      kind: row.kind,
      description: row.description,
      date: row.occurredAt,
      status: earningsStatus(row, now),
      availableAt: row.availableAt,
      amount: money(row.amountCents),
      gross: row.grossCents !== 0 ? money(row.grossCents) : null,
      pool: row.poolCents !== 0 ? money(row.poolCents) : null,
      platform: row.platformCents !== 0 ? money(row.platformCents) : null,
      rates: row.rates,
      orderNumber: row.orderNumber,
      customerName: row.customerName,
      quantity: row.quantity,
      purchaseMode: row.purchaseMode,
      poolId: row.poolId,
    },
    payout: payout
      ? {
          id: payout.id,
          status: PAYOUT_STATUS_LABELS[payout.status],
          transferId: payout.transferId,
          bankPayoutStatus: payout.bankPayoutStatus,
          estimatedArrivalAt: payout.estimatedArrivalAt,
          failureReason: payout.failureReason,
        }
      : null,
    related: related.map((r) => ({
      id: r.id,
      type: EARNING_KIND_LABELS[r.kind],
      amount: formatCents(r.amountCents, r.currency),
      date: r.occurredAt,
    })),
  };
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-gray-500">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

export default function Transaction({ loaderData }: Route.ComponentProps) {
  const { tx, payout, related } = loaderData;
  return (
    <Page
      title="Transaction"
      subtitle={`${tx.type}${tx.orderNumber ? ` · ${tx.orderNumber}` : ""}`}
      width="narrow"
      back={{ to: "/revenue", label: "Back to Revenue" }}
    >
      <Card>
        <p className="font-semibold text-gray-900">{tx.description || tx.type}</p>
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
          <Item label="Your earnings">{tx.amount}</Item>
          <Item label="Date">
            <DateText value={tx.date} withTime />
          </Item>
          <Item label="Status">
            {tx.status}
            {tx.status === "Pending" && tx.availableAt ? (
              <>
                {" "}
                until <DateText value={tx.availableAt} />
              </>
            ) : null}
          </Item>
          {tx.gross ? <Item label="Amount paid">{tx.gross}</Item> : null}
          {tx.pool ? <Item label="Prize pool contribution">{tx.pool}</Item> : null}
          {tx.platform ? <Item label="Platform">{tx.platform}</Item> : null}
          {tx.rates ? (
            <Item label="Split at payment">
              {tx.rates.prizePoolPercent}% pool · {tx.rates.hostPercent}% you · {tx.rates.platformFeePercent}% platform
            </Item>
          ) : null}
          {tx.quantity ? <Item label="Quantity">{tx.quantity}</Item> : null}
          {tx.purchaseMode ? (
            <Item label="Purchase mode">{tx.purchaseMode === "group-buy" ? "Group buy" : "Buy now"}</Item>
          ) : null}
          {tx.customerName ? <Item label="Customer">{tx.customerName}</Item> : null}
          {payout ? (
            <>
              <Item label="Payout">{payout.status}</Item>
              <Item label="Payout ID">{payout.id}</Item>
              {payout.transferId ? <Item label="Transfer">{payout.transferId}</Item> : null}
              {payout.bankPayoutStatus ? (
                <Item label="Bank payout">{payout.bankPayoutStatus === "paid" ? "Paid" : "Failed"}</Item>
              ) : null}
              {payout.estimatedArrivalAt ? (
                <Item label="Estimated arrival">
                  <DateText value={payout.estimatedArrivalAt} />
                </Item>
              ) : null}
              {payout.failureReason ? <Item label="Reason">{payout.failureReason}</Item> : null}
            </>
          ) : null}
        </dl>
        {tx.orderNumber ? (
          <p className="mt-4 text-sm">
            <Link to={`/order/${tx.orderNumber}`} className="font-semibold text-brand-700 hover:underline">
              View order {tx.orderNumber}
            </Link>
          </p>
        ) : null}
        {tx.poolId ? (
          <p className="mt-4 text-sm">
            <Link to={`/winner-selection/${tx.poolId}`} className="font-semibold text-brand-700 hover:underline">
              View the draw
            </Link>
          </p>
        ) : null}
        {payout ? (
          <p className="mt-4 text-sm">
            <Link to="/payouts" className="font-semibold text-brand-700 hover:underline">
              Payout history
            </Link>
          </p>
        ) : null}
      </Card>
      {related.length > 0 ? (
        <Card className="mt-4">
          <h2 className="font-semibold text-gray-900">Related transactions</h2>
          <ul className="mt-2 divide-y divide-gray-100 text-sm">
            {related.map((r) => (
              <li key={r.id} className="flex justify-between py-2">
                <Link to={`/transaction/${r.id}`} className="text-brand-700 hover:underline">
                  {r.type}
                </Link>
                <span>
                  {r.amount} · <DateText value={r.date} />
                </span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Transaction Not Found",
        message: "The transaction you're looking for doesn't exist or has been removed.",
        action: { to: "/revenue", label: "Return to Revenue" },
      }}
    />
  );
}
