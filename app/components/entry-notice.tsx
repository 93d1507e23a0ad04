import { Link } from "~/components/link";
import { WINNER_PUBLICITY_TEXT } from "~/domain/prize-claims";

/**
 * What a checkout page says before paying about the entry a payment earns (decision 520): expected, or why not
 * (a purchase still goes through with no entry; a paid guess cannot be paid), and that credit-card spend on entries
 * is capped. When an entry is expected it also says, before entry, that a main-prize winner's surname and region are
 * published unless they object (decision 540). Nothing for a visitor.
 */
export function EntryNotice({ notice }: { notice: { expected: boolean; text: string } | null }) {
  if (!notice) return null;
  return (
    <p
      role="note"
      data-entry-expected={notice.expected ? "yes" : "no"}
      className={`rounded-lg px-3 py-2 text-sm ${notice.expected ? "bg-gray-50 text-gray-700" : "bg-amber-50 font-medium text-amber-900 ring-1 ring-amber-200"}`}
    >
      {notice.text}{" "}
      <Link to="/spending-limit" className="underline">
        Your spending limit
      </Link>
      {notice.expected ? <span className="mt-1 block text-xs text-gray-500">{WINNER_PUBLICITY_TEXT}</span> : null}
    </p>
  );
}
