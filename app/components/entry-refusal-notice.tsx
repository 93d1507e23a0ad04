// Why a fan cannot enter a prize draw, with the link that resolves it when one does (docs/product.md#eligibility):
// every page that shows an entryRefusal shows it through this.
import { Link } from "~/components/link";
import type { EntryRefusal } from "~/domain/eligibility";

export function EntryRefusalNotice({ refusal, showLink = true }: { refusal: EntryRefusal; showLink?: boolean }) {
  return (
    <p role="alert" className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {refusal.message}
      {showLink && refusal.link ? (
        <>
          {" "}
          <Link to={refusal.link.href} className="font-semibold underline">
            {refusal.link.label}
          </Link>
        </>
      ) : null}
    </p>
  );
}
