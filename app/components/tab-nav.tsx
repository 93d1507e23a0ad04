import { Link } from "~/components/link";

export type Tab = { id: string; label: string; href: string };

/**
 * A row of tabs that are links (each section has its own URL, so it works without JavaScript and can be shared); the
 * current one is marked with aria-current="page". Used by the profile, settings and sales pages.
 */
export function TabNav({
  label,
  tabs,
  current,
  className = "mb-6",
  preventScrollReset,
}: {
  /** The nav landmark's accessible name, e.g. "Settings sections". */
  label: string;
  tabs: readonly Tab[];
  current: string;
  className?: string;
  preventScrollReset?: boolean;
}) {
  return (
    <nav aria-label={label} className={`relative overflow-x-auto border-b border-gray-200 ${className}`}>
      <ul className="-mb-px flex gap-6">
        {tabs.map((t) => (
          <li key={t.id}>
            <Link
              to={t.href}
              preventScrollReset={preventScrollReset}
              aria-current={current === t.id ? "page" : undefined}
              className={`inline-block border-b-2 px-1 py-3 text-sm font-semibold whitespace-nowrap ${
                current === t.id
                  ? "border-brand-600 text-brand-700"
                  : "border-transparent text-gray-600 hover:text-gray-900"
              }`}
            >
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
