import { Badge, DateText } from "~/components/page";
import { formatCents } from "~/domain/money";
import { refundFailed, type RefundOrigin, type RefundState, type ReturnRequestStatus } from "~/domain/payments";
import { REFUND_ORIGIN_LABELS, refundStateText, RETURN_STATUS_TEXT } from "~/domain/returns";

// How an order's refunds and return request look to the buyer (order page, /my-orders) and the host (/orders).

export type RefundLine = {
  id: string;
  amountCents: number;
  currency: string;
  status: string;
  origin: RefundOrigin;
  reason: string | null;
  createdAt: Date | string;
};

/** The words for one refund: its own reason when it has one, else where it came from; or that it did not go through. */
export function refundLineText(line: Pick<RefundLine, "origin" | "reason"> & { status?: string }): string {
  if (line.status !== undefined && refundFailed(line.status))
    return `Refund did not go through${line.reason ? ` (${line.reason})` : ""}`;
  const origin = REFUND_ORIGIN_LABELS[line.origin];
  return line.reason ? `${origin}: ${line.reason}` : origin;
}

/** A refund line on /my-orders: its words, and for one that did not go through, that first. */
export function refundSummaryText(
  line: Pick<RefundLine, "origin" | "reason" | "status" | "amountCents" | "currency">,
): string {
  if (!refundFailed(line.status)) return refundLineText(line);
  return `Refund of ${formatCents(line.amountCents, line.currency)} did not go through${line.reason ? ` (${line.reason})` : ""}`;
}

/** "Refunded" / "Partially refunded" badge, or nothing. */
export function RefundStateBadge({ state }: { state: RefundState }) {
  const text = refundStateText(state);
  if (!text) return null;
  return <Badge tone={state === "full" ? "red" : "yellow"}>{text}</Badge>;
}

export function ReturnStatusBadge({ status }: { status: ReturnRequestStatus }) {
  return (
    <Badge tone={status === "approved" ? "green" : status === "declined" ? "red" : "blue"}>
      {RETURN_STATUS_TEXT[status]}
    </Badge>
  );
}

/** The refund summary line: state, amount back of the order total. */
export function RefundedAmount({
  state,
  refundedCents,
  amountCents,
  currency,
}: {
  state: RefundState;
  refundedCents: number;
  amountCents: number;
  currency: string;
}) {
  if (state === "none") return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-2 text-sm">
      <RefundStateBadge state={state} />
      <span className="text-gray-700">
        {formatCents(refundedCents, currency)} of {formatCents(amountCents, currency)} refunded
      </span>
    </span>
  );
}

/** Each refund with its date, amount and reason. */
export function RefundList({ lines }: { lines: readonly RefundLine[] }) {
  if (lines.length === 0) return null;
  return (
    <ul className="space-y-1 text-sm">
      {lines.map((l) => (
        <li key={l.id} className="flex flex-wrap gap-x-2">
          <span className="font-medium">{formatCents(l.amountCents, l.currency)}</span>
          <span className="text-gray-700">{refundLineText(l)}</span>
          <span className="text-gray-500">
            <DateText value={l.createdAt} />
            {l.status === "succeeded" || refundFailed(l.status) ? null : ` · ${l.status.replace(/_/g, " ")}`}
          </span>
        </li>
      ))}
    </ul>
  );
}
