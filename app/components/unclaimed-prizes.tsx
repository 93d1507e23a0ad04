import { Form } from "react-router";
import { Table } from "./cards";
import { DateText, EmptyState } from "./page";

export type UnclaimedPrize = {
  payoutId: string;
  winner: string;
  email: string | null;
  amount: string;
  status: string;
  reason: string | null;
  country: string | null;
  payableAt: Date | null;
  poolId: string;
  /** The winner's claim (decision 540): confirmed, and its ID check recorded. */
  claimConfirmed: boolean;
  idChecked: boolean;
};

/** Prizes past their settlement period and unpaid, each with a form to record a payment made by hand (intent=settle-prize). */
export function UnclaimedPrizes({
  prizes,
  fieldErrors,
}: {
  prizes: UnclaimedPrize[];
  fieldErrors: Record<string, string>;
}) {
  if (prizes.length === 0)
    return (
      <EmptyState title="No unclaimed prizes" message="Every main prize past its settlement period has been paid." />
    );
  return (
    <Table head={["Winner", "Prize", "Payable since", "State", "Settle by hand"]}>
      {prizes.map((p) => (
        <tr key={p.payoutId}>
          <td className="px-4 py-2">
            <span className="font-medium text-gray-900">{p.winner}</span>
            {p.email ? <span className="block text-xs text-gray-500">{p.email}</span> : null}
          </td>
          <td className="px-4 py-2 whitespace-nowrap">{p.amount}</td>
          <td className="px-4 py-2 whitespace-nowrap">
            <DateText value={p.payableAt} />
          </td>
          <td className="px-4 py-2 text-sm">
            {p.status === "failed"
              ? `Failed: ${p.reason ?? "transfer refused"}`
              : !p.claimConfirmed
                ? "Waiting for the winner's claim"
                : !p.idChecked
                  ? "Waiting for the ID check"
                  : p.country
                    ? `Waiting (${p.country})`
                    : "No payout method"}
          </td>
          <td className="px-4 py-2">
            <Form method="post" className="flex items-center gap-2">
              <input type="hidden" name="intent" value="settle-prize" />
              <input type="hidden" name="payoutId" value={p.payoutId} />
              <label className="sr-only" htmlFor={`note-${p.payoutId}`}>
                How it was paid
              </label>
              <input
                id={`note-${p.payoutId}`}
                name="note"
                required
                minLength={5}
                maxLength={500}
                placeholder="e.g. Wise transfer 2026-03-01, ref 123"
                className="w-56 rounded-lg border border-gray-300 px-2 py-1 text-sm"
              />
              <button type="submit" className="rounded-lg bg-gray-900 px-3 py-1 text-sm font-semibold text-white">
                Mark paid
              </button>
            </Form>
            {fieldErrors[p.payoutId] ? <p className="mt-1 text-xs text-red-600">{fieldErrors[p.payoutId]}</p> : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}
