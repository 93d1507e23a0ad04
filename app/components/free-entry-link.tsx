import { Link } from "~/components/link";
import { buttonClass } from "~/components/page";

/** The free entry route, offered beside every paid route into a pool (docs/product.md#free-entry, decision 530). */
export function freeEntryHref(hostId: string): string {
  return `/enter-free/${hostId}`;
}

/** "Enter for free", as prominent as the paid routes: a button and the one line that says what it is. */
export function FreeEntryLink({ hostId, tone = "light" }: { hostId: string; tone?: "light" | "dark" }) {
  return (
    <p
      className={`mt-3 flex flex-wrap items-center gap-2 text-sm ${tone === "dark" ? "text-white/90" : "text-gray-700"}`}
    >
      <Link to={freeEntryHref(hostId)} className={buttonClass(tone === "dark" ? "secondary" : "primary", "sm")}>
        Enter for free
      </Link>
      <span>No purchase needed: one free entry a day, with the same chance as a paid one.</span>
    </p>
  );
}
