import type { ReactNode } from "react";

/** How a check run in the browser stands (the verification page's draw checks and its public log check). */
export type CheckStatus = "running" | "ok" | "failed" | "skipped";
export type CheckResult = { title: string; status: CheckStatus; detail: ReactNode };

const ICON: Record<CheckStatus, { text: string; className: string }> = {
  running: { text: "…", className: "bg-gray-100 text-gray-600" },
  ok: { text: "✓", className: "bg-green-100 text-green-800" },
  failed: { text: "✗", className: "bg-red-100 text-red-800" },
  skipped: { text: "–", className: "bg-yellow-100 text-yellow-800" },
};

/** A list of checks, each with its mark, title (and its status for screen readers) and detail; announced politely. */
export function CheckList({ checks, testId }: { checks: readonly CheckResult[]; testId?: string }) {
  return (
    <ol className="mt-4 space-y-3" aria-live="polite" data-testid={testId}>
      {checks.map((check) => (
        <li key={check.title} className="flex gap-3 text-sm">
          <span
            aria-hidden="true"
            className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full font-bold ${ICON[check.status].className}`}
          >
            {ICON[check.status].text}
          </span>
          <span className="min-w-0">
            <span className="block font-medium text-gray-900">
              {check.title}
              <span className="sr-only">: {check.status}</span>
            </span>
            <span className="block text-gray-600">{check.detail}</span>
          </span>
        </li>
      ))}
    </ol>
  );
}
