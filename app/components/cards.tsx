import type { ReactNode } from "react";
import { Link } from "~/components/link";
import { formatCents } from "~/domain/money";

/** "USD 12.00" or "USD 12.00 – USD 30.00" from a product's size price range, else its base price. */
export function priceText(p: {
  priceMinCents: number | null;
  priceMaxCents?: number | null;
  basePriceCents: number;
  currency: string;
}): string {
  const min = p.priceMinCents ?? p.basePriceCents;
  const max = p.priceMaxCents ?? min;
  return max > min ? `${formatCents(min, p.currency)} – ${formatCents(max, p.currency)}` : formatCents(min, p.currency);
}

/** A dashboard tile: a link with a title, a one-line description and an optional figure. */
export function Tile({
  to,
  title,
  description,
  figure,
}: {
  to: string;
  title: string;
  description: string;
  figure?: ReactNode;
}) {
  return (
    <Link
      to={to}
      className="flex h-full flex-col rounded-xl border border-gray-200 bg-white p-5 shadow-sm transition hover:border-brand-500 hover:shadow focus-visible:outline-2 focus-visible:outline-brand-500"
    >
      <span className="flex items-center justify-between gap-2">
        <span className="font-semibold text-gray-900">{title}</span>
        {figure !== undefined ? <span className="text-2xl font-bold text-brand-700">{figure}</span> : null}
      </span>
      <span className="mt-1 text-sm text-gray-600">{description}</span>
    </Link>
  );
}

/** A small table wrapper that scrolls sideways on narrow screens. */
export function Table({ head, children }: { head: string[]; children: ReactNode }) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-gray-200 text-sm">
        <thead className="bg-gray-50">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-4 py-2 text-left font-semibold whitespace-nowrap text-gray-700">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">{children}</tbody>
      </table>
    </div>
  );
}
