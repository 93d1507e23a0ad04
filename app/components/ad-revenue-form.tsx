import { Form } from "react-router";
import { Field, SelectField, SubmitButton } from "./form";
import { Card } from "./page";

/**
 * The platform owner's form to record a host's ad revenue for a period (posted with intent=record-ad-revenue; the
 * admin page shows the result message).
 */
export function AdRevenueForm({
  hosts,
  fieldErrors,
  pending,
}: {
  hosts: { id: string; name: string; email: string }[];
  fieldErrors: Record<string, string>;
  pending?: boolean;
}) {
  return (
    <Card>
      <p className="text-sm text-gray-600">
        Split by the distribution rules: 50% to the host, 30% to the host's prize pool, 20% to the platform.
      </p>
      <Form method="post" className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <input type="hidden" name="intent" value="record-ad-revenue" />
        <SelectField
          label="Host"
          name="hostId"
          required
          placeholder="Choose a host"
          options={hosts.map((h) => ({ value: h.id, label: `${h.name} (${h.email})` }))}
          error={fieldErrors.hostId}
        />
        <Field label="Period start" name="periodStart" type="date" required error={fieldErrors.periodStart} />
        <Field label="Period end" name="periodEnd" type="date" required error={fieldErrors.periodEnd} />
        <Field label="Ad revenue (USD)" name="amount" inputMode="decimal" required error={fieldErrors.amount} />
        <Field label="Impressions" name="impressions" inputMode="numeric" required error={fieldErrors.impressions} />
        <Field label="Clicks" name="clicks" inputMode="numeric" required error={fieldErrors.clicks} />
        <div className="sm:col-span-2 lg:col-span-3">
          <SubmitButton pending={pending}>Record ad revenue</SubmitButton>
        </div>
      </Form>
    </Card>
  );
}
