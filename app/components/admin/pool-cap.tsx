import { Form } from "react-router";
import { Field, SubmitButton } from "~/components/form";
import { Card } from "~/components/page";
import { entryCapLimit, POOL_CAP_FLOOR_RANGE, POOL_CAP_PERCENT_RANGE, type PoolEntryCap } from "~/domain/pool-cap";

/**
 * The platform owner's per-person entry cap (decision 560), posted with intent=pool-cap; the admin page shows the
 * result message. The two numbers are the platform setting `pool_entry_cap`.
 */
export function PoolCapForm({
  cap,
  fieldErrors,
  pending,
}: {
  cap: PoolEntryCap;
  fieldErrors: Record<string, string>;
  pending?: boolean;
}) {
  return (
    <Card>
      <p className="text-sm text-gray-600" data-testid="pool-cap-rule">
        No account holds more than {cap.percent}% of a pool&apos;s entries (rounded down) at the moment it earns one, or{" "}
        {cap.floor} entries if that is more. In a pool of 1,000 entries one account may hold {entryCapLimit(1000, cap)}.
        Past the cap a payment still goes into the pool but earns no entry.
      </p>
      <Form method="post" className="mt-4 grid gap-3 sm:grid-cols-2">
        <input type="hidden" name="intent" value="pool-cap" />
        <Field
          label="Share of a pool's entries (%)"
          name="percent"
          type="number"
          inputMode="numeric"
          min={POOL_CAP_PERCENT_RANGE.min}
          max={POOL_CAP_PERCENT_RANGE.max}
          step={1}
          required
          defaultValue={cap.percent}
          error={fieldErrors.percent}
        />
        <Field
          label="Entries always allowed"
          name="floor"
          type="number"
          inputMode="numeric"
          min={POOL_CAP_FLOOR_RANGE.min}
          max={POOL_CAP_FLOOR_RANGE.max}
          step={1}
          required
          defaultValue={cap.floor}
          error={fieldErrors.floor}
        />
        <div className="sm:col-span-2">
          <SubmitButton pending={pending}>Save entry cap</SubmitButton>
        </div>
      </Form>
    </Card>
  );
}

/** The audit log's line for a cap change: "10% or 20 → 5% or 30". */
export function poolCapAuditSummary(detail: Record<string, unknown>): string {
  const text = (value: unknown) => {
    const cap = value as Partial<PoolEntryCap> | null;
    return cap && typeof cap.percent === "number" && typeof cap.floor === "number"
      ? `${cap.percent}% or ${cap.floor}`
      : "—";
  };
  return `${text(detail.from)} → ${text(detail.to)}`;
}
