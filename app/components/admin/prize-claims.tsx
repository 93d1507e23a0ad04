import { Form } from "react-router";
import { Table } from "~/components/cards";
import { Link } from "~/components/link";
import { Badge, DateText, EmptyState, Pagination } from "~/components/page";

export type AdminPrizeClaim = {
  id: string;
  poolId: string;
  entryNumber: number;
  prize: string;
  accountName: string | null;
  legalName: string | null;
  email: string | null;
  dateOfBirth: string | null;
  withheld: boolean;
  noticedAt: string;
  claimBy: string;
  confirmedAt: string | null;
  idCheckedAt: string | null;
  idCheckNote: string | null;
  lapseOutcome: string | null;
  payoutStatus: string | null;
};

const LAPSE_TEXT: Record<string, string> = {
  redrawn: "Not claimed in time: redrawn",
  carried_over: "Not claimed in time: carried to the host's next pool",
  voided: "Draw voided",
};

/**
 * Main-prize claims (decision 540), newest first, with the winner's real names (also when /winners withholds them):
 * the record a regulator may ask for. A confirmed claim gets a form to record its age and identity check
 * (intent=record-id-check); the prize is paid only after it.
 */
export function PrizeClaims({
  claims,
  page,
  hasNext,
  hrefFor,
  fieldErrors,
}: {
  claims: AdminPrizeClaim[];
  page: number;
  hasNext: boolean;
  hrefFor: (page: number) => string;
  fieldErrors: Record<string, string>;
}) {
  if (claims.length === 0 && page === 1)
    return <EmptyState title="No prize claims" message="Winners' claims show here once a main prize is announced." />;
  return (
    <div data-testid="prize-claims">
      <Table head={["Winner", "Prize", "Claim", "Age and identity check"]}>
        {claims.map((c) => (
          <tr key={c.id}>
            <td className="px-4 py-2">
              <span className="font-medium text-gray-900">{c.legalName ?? c.accountName ?? "Deleted account"}</span>
              {c.legalName && c.accountName ? (
                <span className="block text-xs text-gray-500">{`Account: ${c.accountName}`}</span>
              ) : null}
              {c.email ? <span className="block text-xs text-gray-500">{c.email}</span> : null}
              <span className="block text-xs text-gray-500">{`Date of birth: ${c.dateOfBirth ?? "not given"}`}</span>
              {c.withheld ? (
                <span className="mt-1 inline-block">
                  <Badge tone="yellow">Name withheld on /winners</Badge>
                </span>
              ) : null}
            </td>
            <td className="px-4 py-2 whitespace-nowrap">
              {c.prize}
              <Link to={`/winner-selection/${c.poolId}`} className="block text-xs text-brand-700 hover:underline">
                {`Entry #${c.entryNumber}`}
              </Link>
            </td>
            <td className="px-4 py-2 text-sm">
              {c.lapseOutcome ? (
                LAPSE_TEXT[c.lapseOutcome]
              ) : c.confirmedAt ? (
                <>
                  {"Confirmed "}
                  <DateText value={c.confirmedAt} />
                </>
              ) : (
                <>
                  {"Waiting for the winner until "}
                  <DateText value={c.claimBy} />
                </>
              )}
              {c.payoutStatus ? (
                <span className="block text-xs text-gray-500">{`Payout: ${c.payoutStatus}`}</span>
              ) : null}
            </td>
            <td className="px-4 py-2 text-sm">
              {c.idCheckedAt ? (
                <>
                  {"Checked "}
                  <DateText value={c.idCheckedAt} />
                  <span className="block text-xs text-gray-500">{c.idCheckNote}</span>
                </>
              ) : c.confirmedAt && !c.lapseOutcome ? (
                <Form method="post" className="flex items-center gap-2">
                  <input type="hidden" name="intent" value="record-id-check" />
                  <input type="hidden" name="claimId" value={c.id} />
                  <label className="sr-only" htmlFor={`id-note-${c.id}`}>
                    ID seen and date of birth checked
                  </label>
                  <input
                    id={`id-note-${c.id}`}
                    name="note"
                    required
                    minLength={5}
                    maxLength={500}
                    placeholder="e.g. passport 123456789, born 1990-04-02 (18+)"
                    className="w-64 rounded-lg border border-gray-300 px-2 py-1 text-sm"
                  />
                  <button type="submit" className="rounded-lg bg-gray-900 px-3 py-1 text-sm font-semibold text-white">
                    Record check
                  </button>
                </Form>
              ) : (
                "—"
              )}
              {fieldErrors[c.id] ? <p className="mt-1 text-xs text-red-600">{fieldErrors[c.id]}</p> : null}
            </td>
          </tr>
        ))}
      </Table>
      <Pagination page={page} hasNext={hasNext} hrefFor={hrefFor} />
    </div>
  );
}
