import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { AdRevenueForm } from "~/components/ad-revenue-form";
import { UnclaimedPrizes } from "~/components/unclaimed-prizes";
import { PoolCapForm, poolCapAuditSummary } from "~/components/admin/pool-cap";
import { ExcludedPlaces } from "~/components/admin/excluded-places";
import { PrizeClaims } from "~/components/admin/prize-claims";
import { adminClaimsSection, recordPrizeIdCheck } from "~/lib/prize-claims.server";
import { FreeEntriesAdmin } from "~/components/admin/free-entries";
import { freeEntriesAdminAction, loadFreeEntriesAdmin } from "~/lib/admin-free-entries.server";
import { Table } from "~/components/cards";
import { FormError } from "~/components/form";
import { Badge, Button, DateText, Page, pageMeta, Pagination, Section, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listAdminUsers, listAuditLog, listPausableGames, platformCounts } from "~/db/queries/admin.server";
import { processingFeeTotals } from "~/db/queries/checkout.server";
import { listDelayedDraws } from "~/db/queries/draw.server";
import { listHostsForAdRevenue } from "~/db/queries/earnings.server";
import { listUnclaimedPrizes } from "~/db/queries/payouts.server";
import { listUnmatchedPaymentEvents } from "~/db/queries/refunds.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import {
  ACCOUNT_STATUSES,
  ADMIN_AUDIT_PAGE_SIZE,
  ADMIN_MESSAGES,
  ADMIN_PAGE_SIZE,
  ADMIN_USER_SORT_LABELS,
  ADMIN_USER_SORTS,
  adminUserQuerySchema,
  type AdminUserQuery,
} from "~/domain/admin";
import { formatCents } from "~/domain/money";
import { UNMATCHED_EVENT_ALERT_MS } from "~/domain/payments";
import { REVENUE_SOURCES } from "~/domain/revenue";
import { REVENUE_SOURCE_LABELS } from "~/domain/revenue-settings";
import { requireAdmin } from "~/lib/guards.server";
import { recordAdRevenue } from "~/lib/ad-revenue.server";
import { settlePrizeByHand } from "~/lib/payments/connect/prizes.server";
import { getEnv } from "~/lib/context";
import { poolEntryCap, savePoolEntryCap } from "~/lib/pool-cap.server";
import { changeExcludedPlaces, loadExcludedPlacesAdmin } from "~/lib/excluded-places.server";
import { type AdminActionResult, changeAccountStatus, saveRevenueRules, toggleGamePause } from "./admin.server";
import type { Route } from "./+types/admin";
import { SEARCH_MAX_LENGTH } from "~/domain/search";

export const meta: Route.MetaFunction = () => pageMeta("Platform Owner");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const params = new URL(request.url).searchParams;
  const query = adminUserQuerySchema.parse({ q: params.get("q"), sort: params.get("sort"), page: params.get("page") });
  const auditPageParam = (value: string | null) => adminUserQuerySchema.shape.page.parse(value);
  const auditPage = auditPageParam(params.get("auditPage"));
  const db = getDb(getEnv(context));
  const [counts, users, audit, games, rules, adHosts, unclaimed, fees, unmatched, poolCap, excludedPlaces] =
    await Promise.all([
      platformCounts(db),
      listAdminUsers(db, query, ADMIN_PAGE_SIZE),
      listAuditLog(db, { page: auditPage, pageSize: ADMIN_AUDIT_PAGE_SIZE }),
      listPausableGames(db, 20),
      getRevenueRules(db),
      listHostsForAdRevenue(db),
      listUnclaimedPrizes(db, new Date()),
      processingFeeTotals(db, new Date(Date.now() - 30 * 86_400_000)),
      listUnmatchedPaymentEvents(db, new Date(Date.now() - UNMATCHED_EVENT_ALERT_MS)),
      poolEntryCap(getEnv(context)),
      loadExcludedPlacesAdmin(getEnv(context)),
    ]);
  // Refund and dispute events held for a payment that has not become known within the hour (decision 380).
  const unmatchedEvents = unmatched.map((e) => ({
    eventId: e.eventId,
    type: e.type,
    paymentIntentId: e.paymentIntentId,
    chargeId: e.chargeId,
    receivedAt: e.receivedAt,
    amount:
      typeof e.amountCents === "number" && typeof e.currency === "string"
        ? formatCents(e.amountCents, e.currency.toUpperCase())
        : "—",
  }));
  // Card processing fees are the platform's cost (never charged to hosts), from each payment's balance transaction.
  const processingFees = fees.map((f) => ({
    currency: f.currency,
    payments: Number(f.payments),
    total: formatCents(Number(f.feeCents), f.currency),
    recent: formatCents(Number(f.recentFeeCents), f.currency),
  }));
  const unclaimedPrizes = unclaimed.map((p) => ({
    payoutId: p.payoutId,
    winner: p.winnerName,
    email: p.email,
    amount: formatCents(p.amountCents, p.currency),
    status: p.status,
    reason: p.failureReason,
    country: p.country,
    payableAt: p.payableAt,
    poolId: p.poolId,
    claimConfirmed: p.claimConfirmed,
    idChecked: p.idChecked,
  }));
  // Draws whose committed block was refused (never swapped silently): why, until the pool is drawn.
  const delayedDraws = await listDelayedDraws(db);
  const prizeClaims = await adminClaimsSection(getEnv(context), auditPageParam(params.get("claimsPage")));
  const freeEntries = await loadFreeEntriesAdmin(getEnv(context), params);
  return {
    prizeClaims,
    freeEntries,
    counts,
    users,
    audit,
    auditPage,
    games,
    rules,
    query,
    adHosts,
    unclaimedPrizes,
    processingFees,
    unmatchedEvents,
    delayedDraws,
    poolCap,
    excludedPlaces,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const env = getEnv(context);
  const form = await request.formData();
  const intent = form.get("intent");
  const result: AdminActionResult =
    (await freeEntriesAdminAction(env, admin, intent, form)) ??
    (intent === "status"
      ? await changeAccountStatus(env, admin, form, new URL(request.url).origin)
      : intent === "pause"
        ? await toggleGamePause(env, admin, form)
        : intent === "rules"
          ? await saveRevenueRules(env, admin, form)
          : intent === "record-ad-revenue"
            ? await recordAdRevenue(env, admin.id, Object.fromEntries(form))
            : intent === "settle-prize"
              ? await settlePrizeByHand(
                  env,
                  admin.id,
                  String(form.get("payoutId") ?? ""),
                  String(form.get("note") ?? ""),
                )
              : intent === "pool-cap"
                ? await savePoolEntryCap(env, admin.id, form)
                : intent === "excluded-place"
                  ? await changeExcludedPlaces(env, admin.id, form)
                  : intent === "record-id-check"
                    ? await recordPrizeIdCheck(env, admin.id, Object.fromEntries(form))
                    : { ok: false, status: 400, message: ADMIN_MESSAGES.unknownAction });
  if (!result.ok) {
    return data(
      {
        ok: false as const,
        intent: String(intent ?? ""),
        message: result.message,
        fieldErrors: result.fieldErrors ?? {},
      },
      { status: result.status },
    );
  }
  return {
    ok: true as const,
    intent: String(intent ?? ""),
    message: result.message,
    fieldErrors: {} as Record<string, string>,
  };
}

function listHref(query: AdminUserQuery, change: Partial<AdminUserQuery>) {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.sort !== "joined") params.set("sort", next.sort);
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return text ? `/admin?${text}` : "/admin";
}

const ACTION_TEXT = {
  user_status_changed: "Changed account status",
  game_paused: "Paused a game",
  game_resumed: "Resumed a game",
  revenue_rules_updated: "Updated the revenue distribution rules",
  ad_revenue_recorded: "Recorded ad revenue",
  prize_settled_by_hand: "Settled a prize by hand",
  pool_cap_updated: "Changed the per-person entry cap",
  excluded_places_updated: "Changed the excluded places",
  prize_id_checked: "Recorded a prize winner's age and identity check",
  free_entry_voided: "Voided a free entry",
  postal_entry_recorded: "Recorded a postal entry",
} as const;

function auditSummary(row: { action: keyof typeof ACTION_TEXT; detail: Record<string, unknown> }): string {
  const d = row.detail;
  if (row.action === "user_status_changed") {
    const parts = [`${String(d.from)} → ${String(d.to)}`];
    if (d.sessionsEnded) parts.push("sessions ended");
    if (d.payoutsHeld) parts.push("payouts held");
    if (d.payoutsReleased) parts.push("payouts released");
    if (typeof d.poolClosed === "string") parts.push("open pool closed");
    if (Array.isArray(d.groupBuysCancelled) && d.groupBuysCancelled.length > 0) {
      parts.push(`${d.groupBuysCancelled.length} group buy${d.groupBuysCancelled.length === 1 ? "" : "s"} cancelled`);
    }
    return parts.join(", ");
  }
  if (row.action === "game_paused" || row.action === "game_resumed") return `${String(d.from)} → ${String(d.to)}`;
  if (row.action === "ad_revenue_recorded")
    return `${String(d.periodStart)} to ${String(d.periodEnd)}: ${String(d.impressions)} impressions, ${String(d.clicks)} clicks`;
  if (row.action === "prize_settled_by_hand") return `Paid outside Stripe: ${String(d.note)}`;
  if (row.action === "pool_cap_updated") return poolCapAuditSummary(d);
  if (row.action === "excluded_places_updated")
    return `${d.change === "add" ? "Excluded" : "No longer excluded"}: ${String(d.name)} (${String(d.code)})`;
  if (row.action === "prize_id_checked") return `ID check: ${String(d.note)}`;
  if (row.action === "free_entry_voided")
    return `Entry #${String(d.entryNumber)} (${String(d.address)}): ${String(d.reason)}`;
  if (row.action === "postal_entry_recorded")
    return `Card ${String(d.cardReference)} received ${String(d.receivedOn)}: entry #${String(d.entryNumber)}`;
  return "Shares per source saved";
}

export default function Admin({ loaderData, actionData }: Route.ComponentProps) {
  const { counts, users, audit, auditPage, games, rules, query } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const rulesErrors = actionData?.intent === "rules" ? actionData.fieldErrors : {};
  return (
    <Page title="Admin Dashboard" subtitle="Platform Owner" back={{ to: "/", label: "Back to Home" }}>
      {actionData ? (
        actionData.ok ? (
          <p
            role="status"
            className="mb-4 rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800"
          >
            {actionData.message}
          </p>
        ) : (
          <div className="mb-4">
            <FormError>{actionData.message}</FormError>
          </div>
        )
      ) : null}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Users" value={counts.users} />
        <Stat label="Products" value={counts.products} />
        <Stat label="Orders" value={counts.orders} />
        <Stat label="Games" value={counts.games} />
      </div>
      <p className="mt-3 text-sm text-gray-600" data-testid="processing-fees">
        {"Payment processing fees (the platform's cost): "}
        {loaderData.processingFees.length === 0
          ? "none yet"
          : loaderData.processingFees
              .map(
                (f) =>
                  `${f.total} on ${f.payments} ${f.payments === 1 ? "payment" : "payments"} (${f.recent} in the last 30 days)`,
              )
              .join(" · ")}
      </p>

      <Section title="Users">
        <Form method="get" className="mb-3 flex flex-wrap items-end gap-2" role="search">
          <label className="flex-1 text-sm">
            <span className="block font-medium text-gray-700">Search users</span>
            <input
              type="search"
              name="q"
              defaultValue={query.q}
              maxLength={SEARCH_MAX_LENGTH}
              placeholder="Name or e-mail"
              className="mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 text-sm"
            />
          </label>
          <label className="text-sm">
            <span className="block font-medium text-gray-700">Sort by</span>
            <select
              name="sort"
              defaultValue={query.sort}
              className="mt-1 block rounded-lg border border-gray-300 px-3 py-2 text-sm"
            >
              {ADMIN_USER_SORTS.map((s) => (
                <option key={s} value={s}>
                  {ADMIN_USER_SORT_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </Form>
        {users.users.length === 0 ? (
          <p className="rounded-xl border border-gray-200 bg-white p-6 text-center text-sm text-gray-600">
            No users match this search.
          </p>
        ) : (
          <Table head={["Name", "E-mail", "Role", "Status", "Followers", "Revenue", "Joined"]}>
            {users.users.map((u) => (
              <tr key={u.id}>
                <td className="px-4 py-2 font-medium text-gray-900">
                  <Link to={`/profile/${u.id}`} className="hover:underline">
                    {u.creatorName}
                  </Link>
                  {u.payoutsHeld ? (
                    <span className="ml-2">
                      <Badge tone="red">Payouts held</Badge>
                    </span>
                  ) : null}
                </td>
                <td className="px-4 py-2">{u.email}</td>
                <td className="px-4 py-2">{u.role === "admin" ? <Badge tone="brand">Admin</Badge> : "User"}</td>
                <td className="px-4 py-2">
                  {u.role === "admin" ? (
                    <span className="capitalize">{u.status}</span>
                  ) : (
                    <Form method="post" className="flex items-center gap-2">
                      <input type="hidden" name="intent" value="status" />
                      <input type="hidden" name="userId" value={u.id} />
                      <label className="sr-only" htmlFor={`status-${u.id}`}>
                        Status of {u.creatorName}
                      </label>
                      <select
                        id={`status-${u.id}`}
                        name="status"
                        defaultValue={u.status}
                        className="rounded-lg border border-gray-300 px-2 py-1 text-sm capitalize"
                      >
                        {ACCOUNT_STATUSES.map((s) => (
                          <option key={s} value={s}>
                            {s}
                          </option>
                        ))}
                      </select>
                      <Button type="submit" size="sm" variant="secondary" disabled={busy}>
                        Save
                      </Button>
                    </Form>
                  )}
                </td>
                <td className="px-4 py-2">{u.followersCount}</td>
                <td className="px-4 py-2 whitespace-nowrap">{formatCents(u.totalRevenueCents, "USD")}</td>
                <td className="px-4 py-2 whitespace-nowrap">
                  <DateText value={u.createdAt} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination page={query.page} hasNext={users.hasMore} hrefFor={(page) => listHref(query, { page })} />
      </Section>

      <Section title="Game Pause">
        {games.length === 0 ? (
          <p className="rounded-xl border border-gray-200 bg-white p-6 text-center text-sm text-gray-600">
            No active or paused games.
          </p>
        ) : (
          <Table head={["Game", "Host", "Status", ""]}>
            {games.map((g) => (
              <tr key={g.id}>
                <td className="px-4 py-2 font-medium text-gray-900">
                  <Link to={`/view-game/${g.id}`} className="hover:underline">
                    {g.question}
                  </Link>
                </td>
                <td className="px-4 py-2">{g.hostName ?? "—"}</td>
                <td className="px-4 py-2">
                  <Badge tone={g.status === "paused" ? "yellow" : "green"}>
                    {g.status === "paused" ? "Paused" : "Active"}
                  </Badge>
                </td>
                <td className="px-4 py-2 text-right">
                  <Form method="post">
                    <input type="hidden" name="intent" value="pause" />
                    <input type="hidden" name="gameId" value={g.id} />
                    <Button type="submit" size="sm" variant="secondary" disabled={busy}>
                      {g.status === "paused" ? "Resume" : "Pause"}
                    </Button>
                  </Form>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>

      <Section title="Revenue distribution rules">
        <Form method="post" className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
          <input type="hidden" name="intent" value="rules" />
          <p className="mb-3 text-sm text-gray-600">
            Each source's prize pool, host and platform shares must add up to 100%.
          </p>
          <div className="space-y-4">
            {REVENUE_SOURCES.map((source) => {
              const rule = rules[source];
              const error = rulesErrors[source];
              return (
                <fieldset key={source} aria-describedby={error ? `${source}-error` : undefined}>
                  <legend className="text-sm font-semibold text-gray-900">{REVENUE_SOURCE_LABELS[source]}</legend>
                  <div className="mt-1 grid grid-cols-3 gap-2">
                    {(
                      [
                        ["pool", "Prize pool %", rule.prizePoolPercent],
                        ["host", "Host %", rule.hostPercent],
                        ["platform", "Platform %", rule.platformFeePercent],
                      ] as const
                    ).map(([field, label, value]) => (
                      <label key={field} className="text-sm text-gray-700">
                        {label}
                        <input
                          type="number"
                          name={`${source}.${field}`}
                          defaultValue={value}
                          min={0}
                          max={100}
                          step={0.01}
                          required
                          aria-invalid={error ? true : undefined}
                          className="mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 text-sm aria-[invalid=true]:border-red-500"
                        />
                      </label>
                    ))}
                  </div>
                  {error ? (
                    <p id={`${source}-error`} className="mt-1 text-sm text-red-600">
                      {error}
                    </p>
                  ) : null}
                </fieldset>
              );
            })}
          </div>
          <Button type="submit" className="mt-4" disabled={busy}>
            Save rules
          </Button>
        </Form>
      </Section>

      <Section title="Excluded places">
        <ExcludedPlaces
          data={loaderData.excludedPlaces}
          busy={busy}
          error={actionData?.intent === "excluded-place" && !actionData.ok ? actionData.message : undefined}
        />
      </Section>

      <Section title="Ad revenue">
        <AdRevenueForm
          hosts={loaderData.adHosts}
          fieldErrors={actionData?.intent === "record-ad-revenue" ? actionData.fieldErrors : {}}
        />
      </Section>

      <Section title="Per-person entry cap">
        <PoolCapForm
          cap={loaderData.poolCap}
          fieldErrors={actionData?.intent === "pool-cap" ? actionData.fieldErrors : {}}
        />
      </Section>

      <Section title="Unclaimed prizes">
        <UnclaimedPrizes prizes={loaderData.unclaimedPrizes} fieldErrors={{}} />
      </Section>

      <Section title="Prize claims">
        <PrizeClaims
          {...loaderData.prizeClaims}
          hrefFor={(page) => `/admin?claimsPage=${page}`}
          fieldErrors={actionData?.intent === "record-id-check" ? actionData.fieldErrors : {}}
        />
      </Section>

      <Section title="Unmatched payment events">
        {loaderData.unmatchedEvents.length === 0 ? (
          <p
            className="rounded-xl border border-gray-200 bg-white p-6 text-center text-sm text-gray-600"
            data-testid="unmatched-events"
          >
            No refund or dispute event has been waiting for its payment for over an hour.
          </p>
        ) : (
          <div data-testid="unmatched-events">
            <p className="mb-2 text-sm text-gray-600">
              Refund and dispute events of a payment that has not arrived within an hour. Each is applied as soon as its
              payment does.
            </p>
            <Table head={["Received", "Event", "Type", "Amount", "Payment intent", "Charge"]}>
              {loaderData.unmatchedEvents.map((e) => (
                <tr key={e.eventId}>
                  <td className="px-4 py-2 whitespace-nowrap">
                    <DateText value={e.receivedAt} withTime />
                  </td>
                  <td className="px-4 py-2 font-mono text-xs">{e.eventId}</td>
                  <td className="px-4 py-2">{e.type}</td>
                  <td className="px-4 py-2">{e.amount}</td>
                  <td className="px-4 py-2 font-mono text-xs">{e.paymentIntentId ?? "—"}</td>
                  <td className="px-4 py-2 font-mono text-xs">{e.chargeId ?? "—"}</td>
                </tr>
              ))}
            </Table>
          </div>
        )}
      </Section>

      <Section title="Delayed draws">
        {loaderData.delayedDraws.length === 0 ? (
          <p className="text-sm text-gray-600">No draw is delayed.</p>
        ) : (
          <ul className="space-y-2 text-sm">
            {loaderData.delayedDraws.map((draw) => (
              <li key={draw.id}>
                <Link to={`/winner-selection/${draw.id}`} className="font-medium text-brand-700 hover:underline">
                  Pool {draw.id}
                </Link>
                : {draw.reason}{" "}
                {draw.height === null
                  ? "(waiting for a new commitment)"
                  : `(committed afresh to block #${draw.height})`}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <FreeEntriesAdmin data={loaderData.freeEntries} actionData={actionData} busy={busy} />

      <Section title="Audit log">
        {audit.rows.length === 0 ? (
          <p className="rounded-xl border border-gray-200 bg-white p-6 text-center text-sm text-gray-600">
            No admin actions yet.
          </p>
        ) : (
          <Table head={["When", "Admin", "Action", "Target", "Details"]}>
            {audit.rows.map((row) => (
              <tr key={row.id}>
                <td className="px-4 py-2 whitespace-nowrap">
                  <DateText value={row.createdAt} withTime />
                </td>
                <td className="px-4 py-2">{row.adminName ?? "—"}</td>
                <td className="px-4 py-2">{ACTION_TEXT[row.action]}</td>
                <td className="px-4 py-2">{row.targetName ?? row.gameQuestion ?? "Platform"}</td>
                <td className="px-4 py-2">{auditSummary(row)}</td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination
          page={auditPage}
          hasNext={audit.hasMore}
          hrefFor={(page) => `${listHref(query, {})}${listHref(query, {}).includes("?") ? "&" : "?"}auditPage=${page}`}
        />
      </Section>
    </Page>
  );
}
