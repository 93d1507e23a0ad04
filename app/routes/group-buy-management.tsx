import { data, Form, redirect, useSearchParams } from "react-router";
import { Link } from "~/components/link";
import { Field, FormError, SelectField } from "~/components/form";
import { Badge, Button, Card, DateText, EmptyState, LinkButton, Page, pageMeta, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { poolShareText } from "~/domain/revenue";
import {
  createGroupBuy,
  deleteUnjoinedGroupBuy,
  getGroupBuy,
  hostGroupBuyStats,
  hostHasActiveGroupBuy,
  listGroupBuyProductIds,
  listGroupBuyTiers,
  listHostGroupBuys,
  listHostProductChoices,
  updateGroupBuy,
} from "~/db/queries/group-buys.server";
import {
  GROUP_BUY_ACTION_MESSAGES,
  GROUP_BUY_STATUSES,
  type GroupBuyStatus,
  groupBuyProgressPercent,
  groupBuyStatusLabel,
  validateGroupBuyForm,
} from "~/domain/group-buy";
import { formatCents } from "~/domain/money";
import { forbidden, idParam, notFound, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { closeGroupBuy } from "~/lib/payments/refunds/group-buy-close.server";
import { flashToastCookie } from "~/lib/toast.server";
import { GroupBuyForm, type GroupBuyActionResult } from "~/components/group-buy-form";
import type { Route } from "./+types/group-buy-management";
import { SEARCH_MAX_LENGTH, searchText } from "~/domain/search";

export const meta: Route.MetaFunction = () => pageMeta("Group Buy Management");

const STATUS_FILTERS = [
  { value: "all", label: "All Status" },
  ...GROUP_BUY_STATUSES.map((s) => ({ value: s, label: groupBuyStatusLabel(s) })),
];

function statusFilter(value: string | null): GroupBuyStatus | "all" {
  return (GROUP_BUY_STATUSES as readonly string[]).includes(value ?? "") ? (value as GroupBuyStatus) : "all";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const db = getDb(getEnv(context));
  const url = new URL(request.url);
  const search = searchText(url.searchParams.get("q"));
  const status = statusFilter(url.searchParams.get("status"));
  const editParam = url.searchParams.get("edit");
  const [groupBuys, stats, hasActive, productChoices, rules] = await Promise.all([
    listHostGroupBuys(db, user.id, 100, { search, status }),
    hostGroupBuyStats(db, user.id),
    hostHasActiveGroupBuy(db, user.id),
    listHostProductChoices(db, user.id),
    getRevenueRules(db),
  ]);
  let editing = null;
  if (editParam) {
    const id = idParam(editParam);
    const g = await getGroupBuy(db, id);
    if (!g) notFound();
    if (g.hostId !== user.id) forbidden();
    const [tiers, productIds] = await Promise.all([listGroupBuyTiers(db, id), listGroupBuyProductIds(db, id)]);
    editing = {
      id: g.id,
      name: g.name,
      description: g.description,
      status: g.status,
      targetCents: g.targetCents,
      endAt: g.endAt,
      participants: g.currentParticipants,
      tiers,
      productIds,
    };
  }
  return {
    groupBuys,
    stats,
    hasActive,
    productChoices,
    editing,
    search,
    status,
    poolShare: poolShareText(rules, "group_buy_sales"),
  };
}

type ActionResult = GroupBuyActionResult;

function formValues(form: FormData) {
  return {
    name: form.get("name"),
    description: form.get("description"),
    targetAmount: form.get("targetAmount"),
    endDate: form.get("endDate"),
    tiers: form.getAll("tierThreshold").map((threshold, i) => ({
      salesThreshold: threshold,
      discountPercentage: form.getAll("tierDiscount")[i],
    })),
  };
}

const WRITE_MESSAGES = {
  one_active: GROUP_BUY_ACTION_MESSAGES.onlyOneActive,
  no_products: GROUP_BUY_ACTION_MESSAGES.productsRequired,
  not_editable: GROUP_BUY_ACTION_MESSAGES.completedNotEditable,
  less_favourable: GROUP_BUY_ACTION_MESSAGES.lessFavourable,
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");

  if (intent === "create" || intent === "update") {
    const input = formValues(form);
    // The first tier's threshold is fixed at 0, whatever the request says.
    if (input.tiers[0]) input.tiers[0] = { ...input.tiers[0], salesThreshold: "0" };
    const checked = validateGroupBuyForm(input, new Date());
    const productIds = form
      .getAll("productId")
      .filter((v): v is string => typeof v === "string")
      .slice(0, 200);
    if (!checked.ok)
      return data<ActionResult>({ ok: false, field: checked.field, message: checked.message }, { status: 400 });
    if (productIds.length === 0) {
      return data<ActionResult>(
        { ok: false, field: "products", message: GROUP_BUY_ACTION_MESSAGES.productsRequired },
        { status: 400 },
      );
    }
    let result;
    if (intent === "create") {
      result = await createGroupBuy(db, user.id, checked.value, productIds);
    } else {
      const id = idParam(String(form.get("groupBuyId") ?? ""));
      const existing = await getGroupBuy(db, id);
      if (!existing) notFound();
      if (existing.hostId !== user.id) forbidden();
      result = await updateGroupBuy(db, user.id, id, checked.value, productIds);
      if (!result.ok && result.reason === "not_editable" && existing.status === "cancelled") {
        return data<ActionResult>(
          { ok: false, field: "form", message: GROUP_BUY_ACTION_MESSAGES.cancelledNotEditable },
          { status: 409 },
        );
      }
    }
    if (!result.ok) {
      if (result.reason === "not_found") notFound();
      const status = result.reason === "no_products" ? 400 : 409;
      return data<ActionResult>(
        {
          ok: false,
          field: result.reason === "no_products" ? "products" : "form",
          message: WRITE_MESSAGES[result.reason],
        },
        { status },
      );
    }
    const message = intent === "create" ? "Group buy created successfully!" : "Group buy updated successfully!";
    return redirect("/group-buy-management", {
      headers: { "Set-Cookie": flashToastCookie({ message, type: "success" }) },
    });
  }

  if (intent === "delete" || intent === "complete") {
    const id = idParam(String(form.get("groupBuyId") ?? ""));
    const existing = await getGroupBuy(db, id);
    if (!existing) notFound();
    if (existing.hostId !== user.id) forbidden();
    if (intent === "delete") {
      if (await deleteUnjoinedGroupBuy(db, user.id, id)) {
        return redirect("/group-buy-management", {
          headers: { "Set-Cookie": flashToastCookie({ message: "Group buy deleted successfully!", type: "success" }) },
        });
      }
      // Fans joined: the group buy is cancelled, never deleted, and every fan who joined is refunded in full.
      const closed = await closeGroupBuy(env, id, { mode: "cancel", hostId: user.id });
      if (!closed.ok) return data<ActionResult>({ ok: false, field: "form", message: closed.message }, { status: 409 });
      return redirect("/group-buy-management", {
        headers: {
          "Set-Cookie": flashToastCookie({
            message: "Group buy cancelled: every participant is refunded in full",
            type: "success",
          }),
        },
      });
    }
    const closed = await closeGroupBuy(env, id, { mode: "early", hostId: user.id });
    if (!closed.ok) return data<ActionResult>({ ok: false, field: "form", message: closed.message }, { status: 409 });
    return redirect(`/group-buy-management`, {
      headers: {
        "Set-Cookie": flashToastCookie({
          message: "Group buy completed: refunds for the final tier are on their way",
          type: "success",
        }),
      },
    });
  }
  return data<ActionResult>({ ok: false, field: "form", message: "Unknown action" }, { status: 400 });
}

const tones = { active: "green", completed: "blue", cancelled: "red", draft: "gray" } as const;

export default function GroupBuyManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { groupBuys, stats, hasActive, productChoices, editing, search, status } = loaderData;
  const [params] = useSearchParams();
  const creating = params.get("new") === "1" || (actionData !== undefined && !editing);
  const showForm = editing !== null || creating;
  return (
    <Page
      title="Group Buy Management"
      subtitle="Create group buys with tiered discounts for your tribe."
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
      actions={
        <div className="text-right">
          {/* Create is disabled, with its note, only while a group buy is active (the server refuses a second). */}
          {hasActive ? (
            <>
              <span
                className={`inline-block cursor-not-allowed rounded-lg bg-gray-300 px-4 py-2 text-sm font-semibold text-gray-600`}
                aria-disabled="true"
                aria-describedby="one-active-note"
              >
                Create Group Buy
              </span>
              <p id="one-active-note" className="mt-1 text-xs text-gray-500">
                {GROUP_BUY_ACTION_MESSAGES.onlyOneActive}
              </p>
            </>
          ) : (
            <LinkButton to="/group-buy-management?new=1">Create Group Buy</LinkButton>
          )}
        </div>
      }
    >
      <div className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Total group buys" value={stats.total} />
        <Stat label="Active" value={stats.active} />
        <Stat label="Total sales" value={formatCents(stats.salesCents, stats.currency)} />
        <Stat label="Participants" value={stats.participants} />
      </div>

      {showForm ? (
        <GroupBuyForm key={editing?.id ?? "new"} editing={editing} productChoices={productChoices} error={actionData} />
      ) : null}
      {!showForm && actionData ? <FormError>{actionData.message}</FormError> : null}

      <Form method="get" className="mb-4 flex flex-wrap items-end gap-3" role="search">
        <Field
          label="Search group buys"
          name="q"
          type="search"
          maxLength={SEARCH_MAX_LENGTH}
          defaultValue={search}
          placeholder="Search by name or description"
        />
        <SelectField label="Status" name="status" options={STATUS_FILTERS} defaultValue={status} />
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </Form>

      {groupBuys.length === 0 ? (
        <EmptyState
          title="No group buys found"
          message="Group buys give your tribe tiered discounts; the difference is refunded automatically when a higher tier is reached."
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {groupBuys.map((g) => {
            const progress = groupBuyProgressPercent(g.currentSalesCents, g.targetCents);
            const editable = g.status === "active" || g.status === "draft";
            return (
              <li key={g.id}>
                <Card className="h-full">
                  <div className="flex items-start justify-between gap-2">
                    <h2 className="font-semibold text-gray-900">{g.name}</h2>
                    <Badge tone={tones[g.status]}>{groupBuyStatusLabel(g.status)}</Badge>
                  </div>
                  <p className="mt-2 text-sm text-gray-600">
                    {formatCents(g.currentSalesCents, g.currency)} of {formatCents(g.targetCents, g.currency)} ·{" "}
                    {g.currentParticipants} participants
                  </p>
                  <div
                    className="mt-2 h-2 overflow-hidden rounded-full bg-gray-200"
                    role="progressbar"
                    aria-label={`${g.name} progress`}
                    aria-valuenow={progress}
                    aria-valuemin={0}
                    aria-valuemax={100}
                  >
                    <div className="h-full bg-brand-500" style={{ width: `${Math.min(100, progress)}%` }} />
                  </div>
                  <p className="mt-2 text-xs text-gray-500">
                    {g.status === "active" ? (
                      <>
                        Ends <DateText value={g.endAt} />
                      </>
                    ) : g.finalDiscountPercent !== null ? (
                      `Final discount ${g.finalDiscountPercent}%`
                    ) : null}
                  </p>
                  <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
                    <Link to={`/group-buy-detail/${g.id}`} className="font-semibold text-brand-700 hover:underline">
                      View
                    </Link>
                    {editable ? (
                      <Link
                        to={`/group-buy-management?edit=${g.id}`}
                        className="font-semibold text-brand-700 hover:underline"
                      >
                        Edit
                      </Link>
                    ) : (
                      <span className="cursor-not-allowed text-gray-400" aria-disabled="true">
                        Edit
                      </span>
                    )}
                    {g.status === "active" && g.currentSalesCents >= g.targetCents ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="complete" />
                        <input type="hidden" name="groupBuyId" value={g.id} />
                        <button type="submit" className="font-semibold text-green-700 hover:underline">
                          Complete now
                        </button>
                      </Form>
                    ) : null}
                    {g.status === "active" || g.status === "draft" ? (
                      <Form
                        method="post"
                        onSubmit={(e) => {
                          if (!window.confirm(GROUP_BUY_ACTION_MESSAGES.deleteConfirm)) e.preventDefault();
                        }}
                      >
                        <input type="hidden" name="intent" value="delete" />
                        <input type="hidden" name="groupBuyId" value={g.id} />
                        <button type="submit" className="font-semibold text-red-700 hover:underline">
                          Delete
                        </button>
                      </Form>
                    ) : null}
                  </div>
                </Card>
              </li>
            );
          })}
        </ul>
      )}

      <Card className="mt-8">
        <h2 className="font-semibold text-gray-900">Group buy policy and benefits</h2>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-gray-700">
          <li>{`${loaderData.poolShare} of all sales contribute to the prize pool.`}</li>
          <li>Double-entry bonus for fans who share the group buy.</li>
          <li>Automatic refunds if a higher tier is reached.</li>
          <li>Revenue is finalised after completion and refunds.</li>
        </ul>
      </Card>
    </Page>
  );
}
