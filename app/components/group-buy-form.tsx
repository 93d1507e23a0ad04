import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { Field, FormError, SubmitButton } from "~/components/form";
import { Button, Card, LinkButton } from "~/components/page";
import type {
  getGroupBuy,
  listGroupBuyProductIds,
  listGroupBuyTiers,
  listHostProductChoices,
} from "~/db/queries/group-buys.server";
import {
  DEFAULT_GROUP_BUY_TIERS,
  GROUP_BUY_DESCRIPTION_MAX,
  GROUP_BUY_DISCOUNT_MAX,
  GROUP_BUY_DISCOUNT_MIN,
  GROUP_BUY_NAME_MAX,
  GROUP_BUY_TARGET_MIN_CENTS,
  GROUP_BUY_TARGET_STEP_CENTS,
  GROUP_BUY_THRESHOLD_STEP_CENTS,
  GROUP_BUY_TIERS_MAX,
  GROUP_BUY_TIERS_MIN,
  type GroupBuyField,
  nextDefaultTier,
  parseTierNumber,
} from "~/domain/group-buy";
import { formatCents } from "~/domain/money";

/** The refusal the group buy management action answers a form with. */
export type GroupBuyActionResult = {
  ok: false;
  field?: GroupBuyField | "products" | "form";
  message: string;
  values?: Record<string, unknown>;
};

/** The group buy being edited, as the management loader sends it. */
type GroupBuyEditing = Pick<
  NonNullable<Awaited<ReturnType<typeof getGroupBuy>>>,
  "id" | "name" | "description" | "status" | "targetCents" | "endAt"
> & {
  participants: number;
  tiers: Awaited<ReturnType<typeof listGroupBuyTiers>>;
  productIds: Awaited<ReturnType<typeof listGroupBuyProductIds>>;
};

type TierRow = { threshold: string; discount: string };

function dateInputValue(value: Date | string | number): string {
  return new Date(value).toISOString().slice(0, 10);
}

/** The create/edit form of a group buy: name, description, target, end date, discount tiers and products. */
export function GroupBuyForm({
  editing,
  productChoices,
  error,
}: {
  editing: GroupBuyEditing | null;
  productChoices: Awaited<ReturnType<typeof listHostProductChoices>>;
  error: GroupBuyActionResult | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const initialTiers = (editing?.tiers ?? DEFAULT_GROUP_BUY_TIERS).map((t) => ({
    threshold: String(t.salesThresholdCents / 100),
    discount: String(t.discountPercent),
  }));
  const [tiers, setTiers] = useState<TierRow[]>(initialTiers);
  const chosen = new Set(editing?.productIds ?? []);
  const today = new Date().toISOString().slice(0, 10);
  const fieldError = (field: string) => (error && error.field === field ? error.message : undefined);

  function addTier() {
    const last = tiers[tiers.length - 1];
    const next = nextDefaultTier(
      last
        ? {
            salesThresholdCents: parseTierNumber(last.threshold) * 100,
            discountPercent: parseTierNumber(last.discount),
          }
        : null,
    );
    setTiers([...tiers, { threshold: String(next.salesThresholdCents / 100), discount: String(next.discountPercent) }]);
  }

  return (
    <Card className="mb-6">
      <h2 className="text-lg font-semibold text-gray-900">{editing ? `Edit ${editing.name}` : "Create Group Buy"}</h2>
      {editing && editing.participants > 0 ? (
        <p className="mt-1 text-sm text-gray-600">
          Fans have joined: the target and tiers can only become more favourable.
        </p>
      ) : null}
      <Form method="post" className="mt-4 space-y-4" noValidate>
        <input type="hidden" name="intent" value={editing ? "update" : "create"} />
        {editing ? <input type="hidden" name="groupBuyId" value={editing.id} /> : null}
        {error && (error.field === "form" || error.field === "tiers") ? <FormError>{error.message}</FormError> : null}
        <Field
          label="Group buy name"
          name="name"
          defaultValue={editing?.name ?? ""}
          maxLength={GROUP_BUY_NAME_MAX}
          error={fieldError("name")}
        />
        <div>
          <label htmlFor="description" className="block text-sm font-medium text-gray-700">
            Description
          </label>
          <textarea
            id="description"
            name="description"
            rows={3}
            maxLength={GROUP_BUY_DESCRIPTION_MAX}
            defaultValue={editing?.description ?? ""}
            className="mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 text-sm"
            aria-invalid={fieldError("description") ? true : undefined}
          />
          {fieldError("description") ? <p className="mt-1 text-sm text-red-600">{fieldError("description")}</p> : null}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Target amount (RM)"
            name="targetAmount"
            type="number"
            min={GROUP_BUY_TARGET_MIN_CENTS / 100}
            step={GROUP_BUY_TARGET_STEP_CENTS / 100}
            defaultValue={editing ? String(editing.targetCents / 100) : ""}
            error={fieldError("targetAmount")}
          />
          <Field
            label="End date"
            name="endDate"
            type="date"
            min={today}
            defaultValue={editing ? dateInputValue(editing.endAt) : ""}
            error={fieldError("endDate")}
          />
        </div>

        <fieldset>
          <legend className="text-sm font-medium text-gray-700">Discount tiers (sales in RM, discount in %)</legend>
          <ul className="mt-2 space-y-2">
            {tiers.map((tier, i) => (
              <li key={i} className="flex flex-wrap items-end gap-2">
                <label className="text-sm">
                  <span className="block text-gray-600">Tier {i + 1} sales threshold (RM)</span>
                  <input
                    name="tierThreshold"
                    type="number"
                    min={0}
                    step={GROUP_BUY_THRESHOLD_STEP_CENTS / 100}
                    value={i === 0 ? "0" : tier.threshold}
                    readOnly={i === 0}
                    onChange={(e) => setTiers(tiers.map((t, j) => (j === i ? { ...t, threshold: e.target.value } : t)))}
                    className="mt-1 w-36 rounded-lg border border-gray-300 px-2 py-1"
                  />
                </label>
                <label className="text-sm">
                  <span className="block text-gray-600">Tier {i + 1} discount (%)</span>
                  <input
                    name="tierDiscount"
                    type="number"
                    min={GROUP_BUY_DISCOUNT_MIN}
                    max={GROUP_BUY_DISCOUNT_MAX}
                    step={1}
                    value={tier.discount}
                    onChange={(e) => setTiers(tiers.map((t, j) => (j === i ? { ...t, discount: e.target.value } : t)))}
                    className="mt-1 w-24 rounded-lg border border-gray-300 px-2 py-1"
                  />
                </label>
                {i > 0 && tiers.length > GROUP_BUY_TIERS_MIN ? (
                  <Button
                    type="button"
                    variant="secondary"
                    size="sm"
                    onClick={() => setTiers(tiers.filter((_, j) => j !== i))}
                  >
                    Remove tier {i + 1}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
          {tiers.length < GROUP_BUY_TIERS_MAX ? (
            <Button type="button" variant="secondary" size="sm" className="mt-2" onClick={addTier}>
              Add Tier
            </Button>
          ) : null}
        </fieldset>

        <fieldset>
          <legend className="text-sm font-medium text-gray-700">Products in this group buy</legend>
          {productChoices.length === 0 ? (
            <p className="mt-1 text-sm text-gray-600">
              You have no active products yet.{" "}
              <Link to="/add-product" className="font-semibold text-brand-700 underline">
                Add a product
              </Link>{" "}
              first.
            </p>
          ) : (
            <ul className="mt-2 grid gap-1 sm:grid-cols-2">
              {productChoices.map((p) => (
                <li key={p.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" name="productId" value={p.id} defaultChecked={chosen.has(p.id)} />
                    {p.name} · {formatCents(p.basePriceCents, p.currency)}
                  </label>
                </li>
              ))}
            </ul>
          )}
          {fieldError("products") ? <p className="mt-1 text-sm text-red-600">{fieldError("products")}</p> : null}
        </fieldset>

        <div className="flex gap-2">
          <SubmitButton pending={busy}>{editing ? "Save Changes" : "Create Group Buy"}</SubmitButton>
          <LinkButton to="/group-buy-management" variant="secondary">
            Cancel
          </LinkButton>
        </div>
      </Form>
    </Card>
  );
}
