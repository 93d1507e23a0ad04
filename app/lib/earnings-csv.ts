// The earnings export (CSV) of a period: one line per ledger row, amounts as plain decimals of the row's currency.
import { EARNING_KIND_LABELS, EARNINGS_CSV_HEADER, type EarningKind } from "~/domain/earnings";
import { minorUnitDigits } from "~/domain/money";
import { centsToDecimal, toCsv } from "./csv";

export interface EarningsCsvRow {
  kind: EarningKind;
  description: string;
  orderNumber: string | null;
  sourceKey: string;
  grossCents: number;
  poolCents: number;
  platformCents: number;
  amountCents: number;
  currency: string;
  occurredAt: Date;
  /** When the row's money is available (ms), null while pending without a date. */
  availableAt: number | null;
}

export function earningsStatus(
  row: Pick<EarningsCsvRow, "amountCents" | "availableAt">,
  now: Date,
): "Available" | "Pending" {
  return row.amountCents < 0 || (row.availableAt !== null && row.availableAt <= now.getTime())
    ? "Available"
    : "Pending";
}

export function earningsCsv(rows: readonly EarningsCsvRow[], now: Date): string {
  return toCsv(
    EARNINGS_CSV_HEADER,
    rows.map((r) => {
      const digits = minorUnitDigits(r.currency);
      return [
        r.occurredAt.toISOString(),
        EARNING_KIND_LABELS[r.kind],
        r.description,
        r.orderNumber ?? r.sourceKey,
        centsToDecimal(r.grossCents, digits),
        centsToDecimal(r.poolCents, digits),
        centsToDecimal(r.platformCents, digits),
        centsToDecimal(r.amountCents, digits),
        r.currency,
        earningsStatus(r, now),
      ];
    }),
  );
}
