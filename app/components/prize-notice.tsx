import { Link } from "react-router";

export type PrizeNoticeData = { amount: string; poolId: string; status: "settling" | "add_method" | "paying" | "failed" };

/** The winner's notice of an unpaid main prize, shown on their pages until it is paid. */
export function PrizeNotice({ prizes }: { prizes: PrizeNoticeData[] }) {
  if (prizes.length === 0) return null;
  return (
    <div role="status" className="mb-6 space-y-2">
      {prizes.map((p) => (
        <div key={p.poolId} className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="font-semibold">{`You won the main prize of ${p.amount}!`}</p>
          <p>
            {p.status === "add_method"
              ? "Add a payout method to receive your prize."
              : p.status === "failed"
                ? "The transfer of your prize failed; you can retry it from Payouts."
                : p.status === "paying"
                  ? "Your prize is being transferred to your payout account."
                  : "Your prize is paid once the draw's settlement period ends."}{" "}
            <Link to="/payouts" className="font-semibold underline">
              Payouts
            </Link>{" "}
            ·{" "}
            <Link to={`/winner-selection/${p.poolId}`} className="font-semibold underline">
              See the draw
            </Link>
          </p>
        </div>
      ))}
    </div>
  );
}
