import { Link } from "~/components/link";
import { formatCents } from "~/domain/money";
import { SPEND_LIMIT_CURRENCY, spendLimitText } from "~/domain/spend-limits";

/** Settings > Responsible play: the fan's monthly spend limit on entries, set on /spending-limit (decision 520). */
export function SpendLimitSummary({
  data,
}: {
  data: {
    isSet: boolean;
    limitUsdCents: number | null;
    pending: { usdCents: number | null; from: string } | null;
    spentUsdCents: number;
    month: string;
  };
}) {
  return (
    <section aria-labelledby="spend-limit-heading" className="rounded-xl border border-gray-200 bg-white p-4">
      <h2 id="spend-limit-heading" className="font-semibold text-gray-900">
        Spending limit
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        {data.isSet ? spendLimitText(data.limitUsdCents) : "Not set"}
        {data.pending ? ` (${spendLimitText(data.pending.usdCents)} waiting to apply)` : ""}
        {` · ${formatCents(data.spentUsdCents, SPEND_LIMIT_CURRENCY)} counted in ${data.month}`}
      </p>
      <Link to="/spending-limit" className="mt-2 inline-block text-sm font-medium text-brand-700 underline">
        {data.isSet ? "Change your spending limit" : "Set a spending limit"}
      </Link>
    </section>
  );
}
