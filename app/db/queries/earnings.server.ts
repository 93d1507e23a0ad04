import { and, asc, count, desc, eq, gte, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  adRevenueReports,
  earningsLedger,
  groupBuyRefunds,
  groupBuys,
  orders,
  platformSettings,
  prizePools,
  users,
  userProfiles,
  type NewEarningsLedgerRow,
} from "~/db/schema";
import { MS_PER_DAY } from "~/domain/countdown";
import { RETURN_WINDOW_DAYS } from "~/domain/payments";
import { DEEMED_DELIVERY_DAYS } from "~/domain/shipping";
import {
  adRevenueEarning,
  guessEntryEarning,
  HOST_REFUND_WINDOW_DAYS,
  poolShareEarning,
  refundShares,
  REVENUE_KINDS,
  saleAvailableAt,
  saleShares,
  saleSourceKey,
  shopSaleEarning,
  WITHDRAWAL_FEE_SETTING_KEY,
  type DateRange,
  type EarningKind,
  type RevenueKind,
} from "~/domain/earnings";
import { recordedGroupBuyRule } from "~/domain/group-buy";
import { BALANCE_PLATFORM_FEE_PERCENT, type RevenueRule } from "~/domain/revenue";

// The host earnings ledger (domain/earnings.ts): append-only rows keyed by their source, balances as sums.

const L = earningsLedger;

/** Books one ledger row once: a repeat with the same source key adds nothing. Returns whether it was new. */
export async function bookEarning(db: Db, row: NewEarningsLedgerRow): Promise<boolean> {
  const inserted = await db
    .insert(earningsLedger)
    .values(row)
    .onConflictDoNothing({ target: earningsLedger.sourceKey })
    .returning({ id: earningsLedger.id });
  return inserted.length === 1;
}

export { saleSourceKey };

/** Books the host's share of a paid buy-now order (domain shopSaleEarning). */
export function bookShopSale(
  db: Db,
  order: Parameters<typeof shopSaleEarning>[0],
  rule: RevenueRule,
): Promise<boolean> {
  return bookEarning(db, shopSaleEarning(order, rule));
}

/** Books a paid Guess & Win entry fee (domain guessEntryEarning). */
export function bookGuessEntry(
  db: Db,
  entry: Parameters<typeof guessEntryEarning>[0],
  rule: RevenueRule,
): Promise<boolean> {
  return bookEarning(db, guessEntryEarning(entry, rule));
}

/** Books the host's 25% of a drawn pool, once per pool (domain poolShareEarning). */
export function bookPoolShare(db: Db, pool: Parameters<typeof poolShareEarning>[0]): Promise<boolean> {
  return bookEarning(db, poolShareEarning(pool));
}

// --- availability and balances ----------------------------------------------------------------------------------

/**
 * When a row's money is available (ms), in SQL: its own available_at, else (a physical order) the later of the
 * host's refund window after payment and the buyer's return window after delivery. Delivery is the order's
 * Delivered time, else (never marked) Shipped + 30 days; NULL while unshipped, and NULL (held) while the buyer's
 * "not received" report is open (docs/product.md#shipping-and-delivery, decision 580).
 */
const availableAtSql = sql<number | null>`coalesce(${L.availableAt}, (
  select case when exists (
      select 1 from return_requests r where r.order_id = o.id and r.kind = 'not_received' and r.status = 'requested'
    ) then null
    else max(${L.occurredAt} + ${HOST_REFUND_WINDOW_DAYS * MS_PER_DAY},
      coalesce(o.delivered_at, o.shipped_at + ${DEEMED_DELIVERY_DAYS * MS_PER_DAY}) + ${RETURN_WINDOW_DAYS * MS_PER_DAY})
    end
  from orders o where o.id = ${L.orderId}
))`;

/** The available balance of a host at `now`, as an SQL scalar (for the atomic withdrawal step). */
export function availableBalanceSql(hostId: string, now: Date): SQL<number> {
  return sql<number>`(select coalesce(sum(${L.amountCents}), 0) from ${L} where ${L.hostId} = ${hostId}
    and (${L.amountCents} < 0 or ${availableAtSql} <= ${now.getTime()}))`;
}

export interface HostBalances {
  /** Everything in the ledger. */
  balanceCents: number;
  /** Money the host may withdraw from (before the fee). Debits count at once. */
  availableCents: number;
  /** Credits still inside the return and refund windows (or waiting for delivery). */
  pendingCents: number;
  currency: string;
}

export async function hostBalances(db: Db, hostId: string, now: Date): Promise<HostBalances> {
  const [row] = await db
    .select({
      balance: sql<number>`coalesce(sum(${L.amountCents}), 0)`,
      available: sql<number>`coalesce(sum(case when ${L.amountCents} < 0 or ${availableAtSql} <= ${now.getTime()} then ${L.amountCents} else 0 end), 0)`,
      currency: sql<string | null>`max(${L.currency})`,
    })
    .from(L)
    .where(eq(L.hostId, hostId));
  const balanceCents = Number(row?.balance ?? 0);
  const availableCents = Number(row?.available ?? 0);
  return {
    balanceCents,
    availableCents,
    pendingCents: balanceCents - availableCents,
    currency: row?.currency ?? "USD",
  };
}

/** The platform fee on withdrawals in percent: the platform setting `withdrawal_fee_percent`, else 4. */
export async function getWithdrawalFeePercent(db: Db): Promise<number> {
  const [row] = await db
    .select({ value: platformSettings.settingValue })
    .from(platformSettings)
    .where(eq(platformSettings.settingKey, WITHDRAWAL_FEE_SETTING_KEY))
    .limit(1);
  const value = typeof row?.value === "string" ? Number(row.value) : typeof row?.value === "number" ? row.value : NaN;
  return Number.isFinite(value) && value >= 0 && value < 100 && Math.round(value * 100) === value * 100
    ? value
    : BALANCE_PLATFORM_FEE_PERCENT;
}

// --- revenue by period ------------------------------------------------------------------------------------------

const inRange = (range: DateRange) => and(gte(L.occurredAt, range.start), lt(L.occurredAt, range.end));

/** The revenue kind a row counts toward: its own, or for a refund the kind of what it refunds. */
const revenueKindSql = sql<string>`case when ${L.kind} = 'refund' then (
  case when ${L.orderId} is null then 'guess_entry'
       when (select o.purchase_mode from orders o where o.id = ${L.orderId}) = 'group-buy' then 'group_buy_sale'
       else 'shop_sale' end) else ${L.kind} end`;

const revenueRows = inArray(L.kind, [...REVENUE_KINDS, "refund"]);

export type RevenueTotals = Record<RevenueKind, { grossCents: number; hostCents: number }>;

/** Gross revenue and the host's part per source in a range, net of refunds. */
export async function revenueTotals(db: Db, hostId: string, range: DateRange): Promise<RevenueTotals> {
  const rows = await db
    .select({
      kind: revenueKindSql,
      gross: sql<number>`coalesce(sum(${L.grossCents}), 0)`,
      host: sql<number>`coalesce(sum(${L.amountCents}), 0)`,
    })
    .from(L)
    .where(and(eq(L.hostId, hostId), revenueRows, inRange(range)))
    .groupBy(revenueKindSql);
  const totals = Object.fromEntries(REVENUE_KINDS.map((k) => [k, { grossCents: 0, hostCents: 0 }])) as RevenueTotals;
  for (const row of rows) {
    if (row.kind in totals)
      totals[row.kind as RevenueKind] = { grossCents: Number(row.gross), hostCents: Number(row.host) };
  }
  return totals;
}

/** Gross revenue per UTC day ('YYYY-MM-DD') in a range, net of refunds. */
export async function dailyRevenue(db: Db, hostId: string, range: DateRange): Promise<Map<string, number>> {
  const day = sql<string>`strftime('%Y-%m-%d', ${L.occurredAt} / 1000, 'unixepoch')`;
  const rows = await db
    .select({ day, gross: sql<number>`coalesce(sum(${L.grossCents}), 0)` })
    .from(L)
    .where(and(eq(L.hostId, hostId), revenueRows, inRange(range)))
    .groupBy(day);
  return new Map(rows.map((r) => [r.day, Number(r.gross)]));
}

/** The host's part of everything in a range by kind (fees, withdrawals, pool shares included). */
export async function earningsByKind(db: Db, hostId: string, range: DateRange): Promise<Map<EarningKind, number>> {
  const rows = await db
    .select({ kind: L.kind, host: sql<number>`coalesce(sum(${L.amountCents}), 0)` })
    .from(L)
    .where(and(eq(L.hostId, hostId), inRange(range)))
    .groupBy(L.kind);
  return new Map(rows.map((r) => [r.kind, Number(r.host)]));
}

/**
 * Group-buy sales not finalised yet (the revenue pages show them as Pending): paid group-buy orders whose group buy
 * has no finalised time yet, net of refunds. Finalisation books them into the ledger (or refunds them), so each
 * sale counts either here or there, never both.
 */
export async function pendingGroupBuyCents(db: Db, hostId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${orders.amountCents} - ${orders.refundedCents}), 0)` })
    .from(orders)
    .innerJoin(groupBuys, eq(groupBuys.id, orders.groupBuyId))
    .where(
      and(
        eq(orders.hostId, hostId),
        eq(orders.purchaseMode, "group-buy"),
        inArray(orders.status, ["paid", "processing", "pending_shipping", "shipped", "delivered", "completed"]),
        isNull(groupBuys.finalisedAt),
      ),
    );
  return Number(row?.total ?? 0);
}

// --- transactions -----------------------------------------------------------------------------------------------

const ledgerColumns = {
  id: L.id,
  kind: L.kind,
  sourceKey: L.sourceKey,
  amountCents: L.amountCents,
  grossCents: L.grossCents,
  poolCents: L.poolCents,
  platformCents: L.platformCents,
  currency: L.currency,
  description: L.description,
  orderId: L.orderId,
  payoutId: L.payoutId,
  poolId: L.poolId,
  referenceId: L.referenceId,
  occurredAt: L.occurredAt,
  availableAt: sql<number | null>`${availableAtSql}`,
  orderNumber: orders.orderNumber,
};

/** One page of a host's ledger rows in a range (optionally one kind), newest first, with the total count. */
export async function listLedger(
  db: Db,
  hostId: string,
  range: DateRange,
  options: { kind?: EarningKind; limit: number; offset: number },
) {
  const where = and(eq(L.hostId, hostId), inRange(range), options.kind ? eq(L.kind, options.kind) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select(ledgerColumns)
      .from(L)
      .leftJoin(orders, eq(orders.id, L.orderId))
      .where(where)
      .orderBy(desc(L.occurredAt), desc(L.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(L).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Every row of a range for the CSV export, oldest first (capped). */
export function exportLedger(db: Db, hostId: string, range: DateRange, cap = 10_000) {
  return db
    .select(ledgerColumns)
    .from(L)
    .leftJoin(orders, eq(orders.id, L.orderId))
    .where(and(eq(L.hostId, hostId), inRange(range)))
    .orderBy(asc(L.occurredAt), asc(L.id))
    .limit(cap);
}

/** One ledger row of a host by its id (or, for old links, by the order it books); undefined for anyone else's. */
export async function getLedgerRow(db: Db, hostId: string, id: string) {
  const [row] = await db
    .select({
      ...ledgerColumns,
      rates: L.rates,
      customerName: orders.customerName,
      quantity: orders.quantity,
      purchaseMode: orders.purchaseMode,
    })
    .from(L)
    .leftJoin(orders, eq(orders.id, L.orderId))
    .where(
      and(
        eq(L.hostId, hostId),
        sql`(${L.id} = ${id} or (${L.orderId} = ${id} and ${L.kind} in ('shop_sale', 'group_buy_sale')))`,
      ),
    )
    .orderBy(asc(L.occurredAt))
    .limit(1);
  return row;
}

/** The other rows booked against the same order, payout or pool (refunds of a sale, the fee of a withdrawal). */
export function relatedLedgerRows(
  db: Db,
  hostId: string,
  row: { id: string; orderId: string | null; payoutId: string | null; poolId: string | null },
) {
  const links: SQL[] = [];
  if (row.orderId) links.push(eq(L.orderId, row.orderId));
  if (row.payoutId) links.push(eq(L.payoutId, row.payoutId));
  // A pool links rows that belong to no order (deposits, prizes); an order's rows are related by their order, not
  // to every other order of the same pool.
  if (row.poolId && !row.orderId) links.push(eq(L.poolId, row.poolId));
  if (links.length === 0) return Promise.resolve([]);
  return db
    .select({ id: L.id, kind: L.kind, amountCents: L.amountCents, currency: L.currency, occurredAt: L.occurredAt })
    .from(L)
    .where(and(eq(L.hostId, hostId), sql`${L.id} <> ${row.id}`, sql`(${sql.join(links, sql` or `)})`))
    .orderBy(asc(L.occurredAt))
    .limit(20);
}

// --- ad revenue -------------------------------------------------------------------------------------------------

/** Records a host's ad revenue for a period; null when that host and period already have a report. */
export async function insertAdRevenueReport(
  db: Db,
  report: {
    hostId: string;
    periodStart: string;
    periodEnd: string;
    amountCents: number;
    impressions: number;
    clicks: number;
    recordedBy: string;
  },
): Promise<{ id: string; createdAt: Date } | null> {
  const [row] = await db
    .insert(adRevenueReports)
    .values({ ...report, currency: "USD" })
    .onConflictDoNothing({
      target: [adRevenueReports.hostId, adRevenueReports.periodStart, adRevenueReports.periodEnd],
    })
    .returning({ id: adRevenueReports.id, createdAt: adRevenueReports.createdAt });
  return row ?? null;
}

/** Books the host's share of an ad revenue report (domain adRevenueEarning). */
export function bookAdRevenue(
  db: Db,
  report: Parameters<typeof adRevenueEarning>[0],
  rule: RevenueRule,
): Promise<boolean> {
  return bookEarning(db, adRevenueEarning(report, rule));
}

/** A host's ad revenue reports, newest period first, with the host's share booked for each. */
export function listAdRevenueReports(db: Db, hostId: string, limit = 50) {
  return db
    .select({
      id: adRevenueReports.id,
      periodStart: adRevenueReports.periodStart,
      periodEnd: adRevenueReports.periodEnd,
      amountCents: adRevenueReports.amountCents,
      currency: adRevenueReports.currency,
      impressions: adRevenueReports.impressions,
      clicks: adRevenueReports.clicks,
      hostCents: L.amountCents,
      createdAt: adRevenueReports.createdAt,
    })
    .from(adRevenueReports)
    .leftJoin(L, eq(L.sourceKey, sql`'ad:' || ${adRevenueReports.id}`))
    .where(eq(adRevenueReports.hostId, hostId))
    .orderBy(desc(adRevenueReports.periodStart), desc(adRevenueReports.createdAt))
    .limit(limit);
}

/** Hosts the platform owner can record ad revenue for (those with a creator profile), by name. */
export function listHostsForAdRevenue(db: Db, limit = 500) {
  return db
    .select({ id: users.id, email: users.email, name: userProfiles.creatorName })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .orderBy(asc(userProfiles.creatorName))
    .limit(limit);
}

export async function hostExists(db: Db, hostId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: userProfiles.userId })
    .from(userProfiles)
    .where(eq(userProfiles.userId, hostId))
    .limit(1);
  return Boolean(row);
}

// --- group buys -------------------------------------------------------------------------------------------------

/**
 * Books a finalised group buy into the earnings ledger, per paid order: the sale at the rule in force when it was
 * paid (the pool percent recorded on the order), and its end-of-group-buy refund once the provider confirmed it
 * (the pool's part as the group buy reversed it while the pool was open; after the pool closed the host carries
 * it). An order whose refund is still pending is booked by a later call. Safe to call any number of times.
 */
export async function bookGroupBuySales(db: Db, groupBuyId: string, rule: RevenueRule): Promise<number> {
  const rows = await db
    .select({
      id: orders.id,
      hostId: orders.hostId,
      amountCents: orders.amountCents,
      currency: orders.currency,
      productName: orders.productName,
      productCategory: orders.productCategory,
      createdAt: orders.createdAt,
      metadata: orders.metadata,
      poolStatus: prizePools.status,
      refundCents: groupBuyRefunds.amountCents,
      refundPoolCents: groupBuyRefunds.poolReversalCents,
      refundId: groupBuyRefunds.refundId,
      refundedAt: groupBuyRefunds.completedAt,
    })
    .from(orders)
    .leftJoin(groupBuyRefunds, eq(groupBuyRefunds.orderId, orders.id))
    .leftJoin(prizePools, eq(prizePools.id, orders.poolId))
    .where(
      and(
        eq(orders.groupBuyId, groupBuyId),
        inArray(orders.status, ["paid", "processing", "pending_shipping", "shipped", "delivered", "completed"]),
      ),
    );
  let booked = 0;
  for (const o of rows) {
    if (o.refundCents !== null && !o.refundedAt) continue;
    // The split recorded at payment, the one its pool contribution was taken by (poolShareCents).
    const orderRule = recordedGroupBuyRule(o.metadata, rule);
    const sale = saleShares(o.amountCents, orderRule);
    const deliveredAtPayment = o.productCategory !== "physical";
    if (
      await bookEarning(db, {
        hostId: o.hostId,
        kind: "group_buy_sale",
        sourceKey: saleSourceKey(o.id),
        amountCents: sale.hostCents,
        grossCents: sale.grossCents,
        poolCents: sale.poolCents,
        platformCents: sale.platformCents,
        currency: o.currency,
        rates: orderRule,
        description: o.productName,
        orderId: o.id,
        availableAt: deliveredAtPayment ? saleAvailableAt(o.createdAt, o.createdAt) : null,
        occurredAt: o.createdAt,
      })
    )
      booked++;
    if (o.refundCents !== null && o.refundCents > 0 && o.refundedAt) {
      const split = refundShares(Math.min(o.refundCents, o.amountCents), sale, 0, false);
      const poolCents = o.poolStatus === "open" ? -Math.min(o.refundPoolCents ?? 0, o.refundCents) : 0;
      await bookEarning(db, {
        hostId: o.hostId,
        kind: "refund",
        sourceKey: `refund:group-buy:${o.id}`,
        amountCents: split.grossCents - poolCents - split.platformCents,
        grossCents: split.grossCents,
        poolCents,
        platformCents: split.platformCents,
        currency: o.currency,
        rates: orderRule,
        description: `Group buy tier refund: ${o.productName}`,
        orderId: o.id,
        availableAt: o.refundedAt,
        occurredAt: o.refundedAt,
      });
    }
  }
  return booked;
}

// --- refunds and disputes ---------------------------------------------------------------------------------------

/** A ledger row by its source key (the sale a refund takes back, or a refund a restore undoes). */
export async function getLedgerRowByKey(db: Db, sourceKey: string) {
  const [row] = await db.select().from(L).where(eq(L.sourceKey, sourceKey)).limit(1);
  return row;
}

/** The gross already given back (refund rows net of restores) of an order's or a guess's sale. */
/**
 * Books a refund row computed from the sale's refunded gross being `levelBeforeCents`, only while it still is: the
 * insert and a check that the level is now `levelBeforeCents - row.grossCents` run in one D1 batch (a transaction),
 * and a failing check aborts it (json() of text that is not JSON raises an error). So two refunds or disputes of one
 * order booked at the same moment cannot both take the same slice. "moved": the level changed meanwhile (compute
 * again); "exists": the key was booked before.
 */
export async function bookRefundEarningAtLevel(
  db: Db,
  row: NewEarningsLedgerRow,
  sale: { orderId: string | null; referenceId: string | null },
  levelBeforeCents: number,
): Promise<"booked" | "exists" | "moved"> {
  const target = sale.orderId ? sql`${L.orderId} = ${sale.orderId}` : sql`${L.referenceId} = ${sale.referenceId}`;
  const levelAfter = levelBeforeCents - row.grossCents!;
  const level = sql`(select -coalesce(sum(${L.grossCents}), 0) from ${L} where ${L.kind} = 'refund' and ${target})`;
  try {
    await db.batch([
      db.insert(earningsLedger).values(row),
      db
        .select({
          ok: sql<number>`case when ${level} = ${levelAfter} then 1 else json('the refunded level moved') end`,
        })
        .from(sql`(select 1)`),
    ]);
    return "booked";
  } catch (error) {
    if (await getLedgerRowByKey(db, row.sourceKey)) return "exists";
    if (
      /the refunded level moved|malformed JSON/i.test(
        String(error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : error),
      )
    )
      return "moved";
    throw error;
  }
}

export async function refundedGrossCents(
  db: Db,
  sale: { orderId: string | null; referenceId: string | null },
): Promise<number> {
  const target = sale.orderId
    ? eq(L.orderId, sale.orderId)
    : sale.referenceId
      ? eq(L.referenceId, sale.referenceId)
      : undefined;
  if (!target) return 0;
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${L.grossCents}), 0)` })
    .from(L)
    .where(and(eq(L.kind, "refund"), target));
  return Math.max(0, -(row?.total ?? 0));
}
