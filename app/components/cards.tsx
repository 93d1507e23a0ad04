import { useId, type ReactNode } from "react";
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

/** A CSS string literal of `text` (quotes, backslashes and "<" escaped: it is written inside a <style> element). */
function cssString(text: string): string {
  return `"${text.replace(/[\\"<\n]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;
}

/**
 * The labels of a stacked table's cells: below 640 px (app.css, .stack-table) each row is a card and each cell shows
 * its column's heading before its value. The headings are written once, here, as `td:nth-child(n)::before` rules
 * scoped to this table, so the rows' markup is the same at every width (docs/decisions/630-phone-and-keyboard.md).
 */
function stackLabelsCss(scope: string, head: readonly string[]): string {
  const labelled = head.flatMap((h, i) => (h ? [{ h, n: i + 1 }] : []));
  if (labelled.length === 0) return "";
  const cell = (n: number) => `[data-stack=${cssString(scope)}] td:nth-child(${n})`;
  return (
    "@media (width < 40rem){" +
    `${labelled.map(({ n }) => cell(n)).join(",")}{display:grid}` +
    labelled.map(({ h, n }) => `${cell(n)}::before{content:${cssString(h)}}`).join("") +
    "}"
  );
}

/**
 * A host's table: columns from 640 px on (scrolling inside its box only where a tablet is too narrow for them), and
 * below 640 px a stack of cards, one per row, every cell labelled with its heading and every action on screen.
 */
export function Table({ head, children }: { head: string[]; children: ReactNode }) {
  const scope = useId();
  return (
    <div className="stack-table-box">
      <style>{stackLabelsCss(scope, head)}</style>
      <table className="stack-table" data-stack={scope}>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={`${i}:${h}`} scope="col">
                {h || <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
