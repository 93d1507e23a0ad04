import type { ButtonHTMLAttributes, ComponentProps, ReactNode } from "react";
import { Link } from "~/components/link";
import { formatUtcDate } from "~/domain/countdown";

/** The document title of a page: "Shop · Tribe". */
export function pageMeta(title: string, description?: string) {
  return [{ title: `${title} · Tribe` }, ...(description ? [{ name: "description", content: description }] : [])];
}

type BackLink = { to: string; label: string };

const widths = { narrow: "max-w-2xl", default: "max-w-6xl", wide: "max-w-7xl" } as const;

/** The frame of every page: optional back link, a heading with subtitle and actions, then the content. */
export function Page({
  title,
  subtitle,
  back,
  actions,
  width = "default",
  children,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  back?: BackLink;
  actions?: ReactNode;
  width?: keyof typeof widths;
  children?: ReactNode;
}) {
  return (
    <div className={`mx-auto w-full ${widths[width]} px-4 py-6 sm:px-6 sm:py-8`}>
      {back ? (
        <Link
          to={back.to}
          className="mb-4 inline-flex items-center gap-1 rounded text-sm font-medium text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4">
            <path
              fillRule="evenodd"
              d="M12.8 4.2a.75.75 0 0 1 0 1.06L8.06 10l4.74 4.74a.75.75 0 1 1-1.06 1.06l-5.27-5.27a.75.75 0 0 1 0-1.06l5.27-5.27a.75.75 0 0 1 1.06 0Z"
              clipRule="evenodd"
            />
          </svg>
          {back.label}
        </Link>
      ) : null}
      <header className="page-head">
        <div className="min-w-0">
          <h1 className="page-title">{title}</h1>
          {subtitle ? <p className="page-subtitle">{subtitle}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}

/** A titled section inside a page. */
export function Section({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="mt-8 first:mt-0">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Card({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <div className={`rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5 ${className}`}>{children}</div>
  );
}

/** What a list shows when it has nothing in it. */
export function EmptyState({
  title,
  message,
  action,
}: {
  title: string;
  message?: ReactNode;
  action?: { to: string; label: string };
}) {
  return (
    <div className="rounded-xl border border-dashed border-gray-300 bg-white px-6 py-12 text-center">
      <p className="text-base font-semibold text-gray-900">{title}</p>
      {message ? <p className="mx-auto mt-1 max-w-md text-sm text-gray-600">{message}</p> : null}
      {action ? (
        <LinkButton to={action.to} className="mt-4">
          {action.label}
        </LinkButton>
      ) : null}
    </div>
  );
}

/** A figure with its label, for summary rows. */
export function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Card>
      <p className="text-sm text-gray-600">{label}</p>
      <p className="mt-1 text-2xl font-bold text-gray-900">{value}</p>
      {hint ? <p className="mt-1 text-xs text-gray-500">{hint}</p> : null}
    </Card>
  );
}

type Variant = "primary" | "secondary" | "danger" | "ghost";
type Size = "sm" | "md";

const variants: Record<Variant, string> = {
  primary: "bg-brand-600 text-white shadow-sm hover:bg-brand-700",
  secondary: "border border-gray-300 bg-white text-gray-800 shadow-sm hover:bg-gray-50",
  danger: "bg-red-600 text-white shadow-sm hover:bg-red-700",
  ghost: "text-gray-700 hover:bg-gray-100",
};
const sizes: Record<Size, string> = { sm: "px-3 py-1.5 text-sm", md: "px-4 py-2 text-sm" };

export function buttonClass(variant: Variant = "primary", size: Size = "md", extra = "") {
  return `btn ${variants[variant]} ${sizes[size]}${extra ? ` ${extra}` : ""}`;
}

export function Button({
  variant,
  size,
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: Size }) {
  return <button type={type} className={buttonClass(variant, size, className)} {...props} />;
}

export function LinkButton({
  variant,
  size,
  className,
  ...props
}: ComponentProps<typeof Link> & { variant?: Variant; size?: Size }) {
  return <Link className={buttonClass(variant, size, className)} {...props} />;
}

const badgeTones = {
  gray: "bg-gray-100 text-gray-700",
  green: "bg-green-100 text-green-800",
  blue: "bg-blue-100 text-blue-800",
  yellow: "bg-yellow-100 text-yellow-800",
  red: "bg-red-100 text-red-800",
  brand: "bg-brand-100 text-brand-700",
} as const;

export function Badge({ tone = "gray", children }: { tone?: keyof typeof badgeTones; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${badgeTones[tone]}`}>
      {children}
    </span>
  );
}

/**
 * A status word with its colours (docs/product.md#orders): delivered green, shipped blue, processing yellow,
 * cancelled red.
 */
export function StatusBadge({ status }: { status: string }) {
  const tone =
    status === "delivered" || status === "completed" || status === "paid" || status === "active"
      ? "green"
      : status === "shipped" || status === "redeemed"
        ? "blue"
        : status === "processing" || status === "pending" || status === "pending_shipping" || status === "draft"
          ? "yellow"
          : status === "cancelled" || status === "refunded" || status === "expired"
            ? "red"
            : "gray";
  const label = status.replace(/_/g, " ");
  return <Badge tone={tone}>{label.charAt(0).toUpperCase() + label.slice(1)}</Badge>;
}

/** A date rendered the same on the server and in the browser (UTC), so hydration never disagrees. */
export function DateText({
  value,
  withTime = false,
}: {
  value: Date | string | number | null | undefined;
  withTime?: boolean;
}) {
  if (value === null || value === undefined) return <span>—</span>;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return <span>—</span>;
  return <time dateTime={date.toISOString()}>{formatUtcDate(date, withTime)}</time>;
}

/** Previous / next links for a paginated list (plain links, so they work without JavaScript). */
export function Pagination({
  page,
  hasNext,
  hrefFor,
}: {
  page: number;
  hasNext: boolean;
  hrefFor: (page: number) => string;
}) {
  if (page <= 1 && !hasNext) return null;
  return (
    <nav aria-label="Pagination" className="mt-8 flex items-center justify-between">
      {page > 1 ? (
        <LinkButton variant="secondary" to={hrefFor(page - 1)} rel="prev">
          Previous
        </LinkButton>
      ) : (
        <span />
      )}
      <span className="text-sm text-gray-600">Page {page}</span>
      {hasNext ? (
        <LinkButton variant="secondary" to={hrefFor(page + 1)} rel="next">
          Next
        </LinkButton>
      ) : (
        <span />
      )}
    </nav>
  );
}
