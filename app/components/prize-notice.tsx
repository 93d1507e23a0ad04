import { Link } from "~/components/link";
import { DateText } from "~/components/page";
import { PRIZE_MESSAGES } from "~/domain/payouts";
import { miniPrizeLabel } from "~/domain/pool";

export type PrizeNoticeData = {
  amount: string;
  poolId: string;
  status: "claim" | "settling" | "confirm_email" | "add_method" | "paying" | "failed";
};

export type MiniPrizeNoticeData = {
  id: string;
  poolId: string;
  name: string;
  amountText: string;
  hostName: string;
  entryNumber: number;
  deliveredAt: string | null;
};

/**
 * The winner's notices: an unpaid main prize until it is paid, a mini prize until the host has delivered it (and
 * for two weeks after, saying so).
 */
export function PrizeNotice({
  prizes,
  miniPrizes = [],
}: {
  prizes: PrizeNoticeData[];
  miniPrizes?: MiniPrizeNoticeData[];
}) {
  if (prizes.length === 0 && miniPrizes.length === 0) return null;
  return (
    <div role="status" className="mb-6 space-y-2">
      {miniPrizes.map((m) => (
        <div key={m.id} className="rounded-lg border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900">
          <p className="font-semibold">{`You won a mini prize: ${miniPrizeLabel(m)}!`}</p>
          <p>
            {m.deliveredAt ? (
              <>
                {`${m.hostName} marked it delivered on `}
                <DateText value={m.deliveredAt} />.
              </>
            ) : (
              `Your entry #${m.entryNumber} was drawn in ${m.hostName}'s prize pool; ${m.hostName} will deliver it to you.`
            )}{" "}
            <Link to={`/winner-selection/${m.poolId}`} className="font-semibold underline">
              See the draw
            </Link>
          </p>
        </div>
      ))}
      {prizes.map((p) => (
        <div key={p.poolId} className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="font-semibold">{`You won the main prize of ${p.amount}!`}</p>
          <p>
            {p.status === "claim" ? (
              <>
                {"Claim it within 30 days of the winner notice: "}
                <Link to={`/prize-claim/${p.poolId}`} className="font-semibold underline">
                  Claim your prize
                </Link>{" "}
                ·{" "}
              </>
            ) : null}
            {p.status === "confirm_email" ? (
              <>
                {PRIZE_MESSAGES.confirmEmail}{" "}
                <Link to="/settings/confirm-email" className="font-semibold underline">
                  Confirm email
                </Link>{" "}
                ·{" "}
              </>
            ) : null}
            {p.status === "confirm_email" || p.status === "claim"
              ? null
              : p.status === "add_method"
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
