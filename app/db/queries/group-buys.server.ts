import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { hostNotSuspended } from "~/db/queries/admin.server";
import { payableCheckoutReferences } from "~/db/queries/checkout.server";
import type { Db } from "~/db/client.server";
import { mainImage } from "~/db/queries/products.server";
import { reserveContributionStatement, type ContributionKeyValues } from "~/db/queries/contribution-keys.server";
import { insertedAnyOrder, insertLineOrderStatements, pushLineStock, stockTakenFrom } from "~/db/queries/orders.server";
import {
  groupBuyProducts,
  groupBuyRefunds,
  groupBuys,
  groupBuyShares,
  groupBuyTiers,
  orders,
  productColors,
  products,
  productSizes,
  userProfiles,
  type NewOrder,
} from "~/db/schema";
import {
  GROUP_BUY_CURRENCY,
  type GroupBuyForm,
  type GroupBuyRefundKind,
  type GroupBuyStatus,
  isLessFavourable,
} from "~/domain/group-buy";
import { containsText } from "~/db/text-match.server";
import { MAX_CHECKOUT_LINES } from "~/domain/payments";

/**
 * The outer group buy's id inside a correlated subquery: drizzle leaves a column unqualified when the outer query has
 * one table, and an unqualified "id" would name the subquery's own table.
 */
const OUTER_GROUP_BUY_ID = sql.raw(`"group_buys"."id"`);

/** One group buy with its host's name, or undefined. */
export async function getGroupBuy(db: Db, id: string) {
  const [row] = await db
    .select({
      id: groupBuys.id,
      hostId: groupBuys.hostId,
      hostName: userProfiles.creatorName,
      name: groupBuys.name,
      description: groupBuys.description,
      status: groupBuys.status,
      targetCents: groupBuys.targetCents,
      currentSalesCents: groupBuys.currentSalesCents,
      currentParticipants: groupBuys.currentParticipants,
      currency: groupBuys.currency,
      endAt: groupBuys.endAt,
      finalDiscountPercent: groupBuys.finalDiscountPercent,
      finalisedAt: groupBuys.finalisedAt,
    })
    .from(groupBuys)
    .leftJoin(userProfiles, eq(userProfiles.userId, groupBuys.hostId))
    .where(and(eq(groupBuys.id, id), hostNotSuspended(groupBuys.hostId)))
    .limit(1);
  return row;
}

/** A group buy's discount tiers, lowest threshold first (2 to 6 of them). */
export function listGroupBuyTiers(db: Db, groupBuyId: string) {
  return db
    .select({
      salesThresholdCents: groupBuyTiers.salesThresholdCents,
      discountPercent: groupBuyTiers.discountPercent,
    })
    .from(groupBuyTiers)
    .where(eq(groupBuyTiers.groupBuyId, groupBuyId))
    .orderBy(asc(groupBuyTiers.position), asc(groupBuyTiers.salesThresholdCents))
    .limit(6);
}

/** The products offered in a group buy (active ones only: an archived product cannot be joined). */
export function listGroupBuyProducts(db: Db, groupBuyId: string, limit = 50) {
  return db
    .select({
      id: products.id,
      name: products.name,
      description: products.description,
      category: products.category,
      basePriceCents: products.basePriceCents,
      priceMinCents: products.priceMinCents,
      currency: products.currency,
      image: mainImage,
    })
    .from(groupBuyProducts)
    .innerJoin(products, eq(products.id, groupBuyProducts.productId))
    .where(and(eq(groupBuyProducts.groupBuyId, groupBuyId), eq(products.status, "active")))
    .orderBy(asc(products.name))
    .limit(limit);
}

/** The ids of the products a group buy offers (for the edit form). */
export async function listGroupBuyProductIds(db: Db, groupBuyId: string): Promise<string[]> {
  const rows = await db
    .select({ id: groupBuyProducts.productId })
    .from(groupBuyProducts)
    .where(eq(groupBuyProducts.groupBuyId, groupBuyId))
    .limit(200);
  return rows.map((r) => r.id);
}

/** A host's active products the create/edit form offers to pick from. */
export function listHostProductChoices(db: Db, hostId: string) {
  return db
    .select({
      id: products.id,
      name: products.name,
      basePriceCents: products.basePriceCents,
      currency: products.currency,
    })
    .from(products)
    .where(and(eq(products.hostId, hostId), eq(products.status, "active")))
    .orderBy(asc(products.name))
    .limit(200);
}

export interface HostGroupBuyFilter {
  search?: string;
  status?: GroupBuyStatus | "all";
}

/** A host's group buys, newest first, filtered by a name/description search and a status. */
export function listHostGroupBuys(db: Db, hostId: string, limit: number, filter: HostGroupBuyFilter = {}) {
  const conditions = [eq(groupBuys.hostId, hostId)];
  if (filter.status && filter.status !== "all") conditions.push(eq(groupBuys.status, filter.status));
  const search = filter.search?.trim();
  if (search) {
    const match = or(containsText(groupBuys.name, search), containsText(groupBuys.description, search));
    if (match) conditions.push(match);
  }
  return db
    .select({
      id: groupBuys.id,
      name: groupBuys.name,
      description: groupBuys.description,
      status: groupBuys.status,
      targetCents: groupBuys.targetCents,
      currentSalesCents: groupBuys.currentSalesCents,
      currentParticipants: groupBuys.currentParticipants,
      currency: groupBuys.currency,
      endAt: groupBuys.endAt,
      finalDiscountPercent: groupBuys.finalDiscountPercent,
    })
    .from(groupBuys)
    .where(and(...conditions))
    .orderBy(desc(groupBuys.createdAt), desc(groupBuys.id))
    .limit(limit);
}

/** The stats cards of /group-buy-management: counts by status, total sales and participants. */
export async function hostGroupBuyStats(db: Db, hostId: string) {
  const [row] = await db
    .select({
      total: sql<number>`count(*)`,
      active: sql<number>`coalesce(sum(case when ${groupBuys.status} = 'active' then 1 else 0 end), 0)`,
      completed: sql<number>`coalesce(sum(case when ${groupBuys.status} = 'completed' then 1 else 0 end), 0)`,
      salesCents: sql<number>`coalesce(sum(case when ${groupBuys.status} in ('active', 'completed') then ${groupBuys.currentSalesCents} else 0 end), 0)`,
      participants: sql<number>`coalesce(sum(case when ${groupBuys.status} in ('active', 'completed') then ${groupBuys.currentParticipants} else 0 end), 0)`,
    })
    .from(groupBuys)
    .where(eq(groupBuys.hostId, hostId));
  return {
    total: Number(row?.total ?? 0),
    active: Number(row?.active ?? 0),
    completed: Number(row?.completed ?? 0),
    salesCents: Number(row?.salesCents ?? 0),
    participants: Number(row?.participants ?? 0),
    currency: GROUP_BUY_CURRENCY,
  };
}

/** Whether the host has an active group buy (other than `exceptId`). */
export async function hostHasActiveGroupBuy(db: Db, hostId: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: groupBuys.id })
    .from(groupBuys)
    .where(and(eq(groupBuys.hostId, hostId), eq(groupBuys.status, "active")))
    .limit(2);
  return row !== undefined && row.id !== exceptId;
}

function isUniqueViolation(error: unknown): boolean {
  const text =
    error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : String(error);
  return /UNIQUE constraint|SQLITE_CONSTRAINT/i.test(text);
}

/** Keeps only ids of the host's own active products (anything else in a request is ignored, never linked). */
async function ownProductIds(db: Db, hostId: string, productIds: readonly string[]): Promise<string[]> {
  if (productIds.length === 0) return [];
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        eq(products.hostId, hostId),
        eq(products.status, "active"),
        inArray(products.id, [...new Set(productIds)].slice(0, 200)),
      ),
    )
    .limit(200);
  return rows.map((r) => r.id);
}

export type GroupBuyWriteResult =
  | { ok: true; id: string }
  | { ok: false; reason: "one_active" | "no_products" | "not_found" | "not_editable" | "less_favourable" };

/**
 * Creates an active group buy with its tiers and products in one batch. The partial unique index
 * `group_buys_one_active_per_host` makes a second active group buy of the same host fail, also when two tabs race.
 */
export async function createGroupBuy(
  db: Db,
  hostId: string,
  form: GroupBuyForm,
  productIds: readonly string[],
): Promise<GroupBuyWriteResult> {
  const own = await ownProductIds(db, hostId, productIds);
  if (own.length === 0) return { ok: false, reason: "no_products" };
  const id = crypto.randomUUID();
  try {
    await db.batch([
      db.insert(groupBuys).values({
        id,
        hostId,
        name: form.name,
        description: form.description,
        status: "active",
        targetCents: form.targetCents,
        currency: GROUP_BUY_CURRENCY,
        endAt: form.endAt,
      }),
      db.insert(groupBuyTiers).values(
        form.tiers.map((t, position) => ({
          groupBuyId: id,
          salesThresholdCents: t.salesThresholdCents,
          discountPercent: t.discountPercent,
          position,
        })),
      ),
      db.insert(groupBuyProducts).values(own.map((productId) => ({ groupBuyId: id, productId }))),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: "one_active" };
    throw error;
  }
  return { ok: true, id };
}

/**
 * Edits a group buy of the host. Completed and cancelled ones cannot be edited; once a fan has joined, the target and
 * tiers may not become less favourable (the update is guarded on the participant count it was judged on, so a join
 * racing the edit makes it fail rather than slip through).
 */
export async function updateGroupBuy(
  db: Db,
  hostId: string,
  id: string,
  form: GroupBuyForm,
  productIds: readonly string[],
): Promise<GroupBuyWriteResult> {
  const current = await getGroupBuy(db, id);
  if (!current || current.hostId !== hostId) return { ok: false, reason: "not_found" };
  if (current.status === "completed" || current.status === "cancelled") return { ok: false, reason: "not_editable" };
  const tiers = await listGroupBuyTiers(db, id);
  if (
    current.currentParticipants > 0 &&
    isLessFavourable({ targetCents: current.targetCents, tiers }, { targetCents: form.targetCents, tiers: form.tiers })
  ) {
    return { ok: false, reason: "less_favourable" };
  }
  const own = await ownProductIds(db, hostId, productIds);
  if (own.length === 0) return { ok: false, reason: "no_products" };
  const guard = and(
    eq(groupBuys.id, id),
    eq(groupBuys.hostId, hostId),
    eq(groupBuys.currentParticipants, current.currentParticipants),
    inArray(groupBuys.status, ["active", "draft"]),
  );
  const updated = await db
    .update(groupBuys)
    .set({
      name: form.name,
      description: form.description,
      targetCents: form.targetCents,
      endAt: form.endAt,
      updatedAt: new Date(),
    })
    .where(guard)
    .returning({ id: groupBuys.id });
  if (updated.length === 0) return { ok: false, reason: "not_editable" };
  await db.batch([
    db.delete(groupBuyTiers).where(eq(groupBuyTiers.groupBuyId, id)),
    db.insert(groupBuyTiers).values(
      form.tiers.map((t, position) => ({
        groupBuyId: id,
        salesThresholdCents: t.salesThresholdCents,
        discountPercent: t.discountPercent,
        position,
      })),
    ),
    db.delete(groupBuyProducts).where(eq(groupBuyProducts.groupBuyId, id)),
    db.insert(groupBuyProducts).values(own.map((productId) => ({ groupBuyId: id, productId }))),
  ]);
  return { ok: true, id };
}

/**
 * Deletes a group buy nobody joined (tiers, products and shares go with it). False when it has orders or a checkout
 * for it may still be paid: it is then cancelled instead, never deleted, and such a payment refunded in full.
 */
export async function deleteUnjoinedGroupBuy(db: Db, hostId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(groupBuys)
    .where(
      and(
        eq(groupBuys.id, id),
        eq(groupBuys.hostId, hostId),
        eq(groupBuys.currentParticipants, 0),
        sql`not exists (select 1 from ${orders} where ${orders.groupBuyId} = ${OUTER_GROUP_BUY_ID})`,
        sql`not ${payableCheckoutReferences({ groupBuyId: id })}`,
      ),
    )
    .returning({ id: groupBuys.id });
  return rows.length > 0;
}

/** Records Share for 2x Entry once per fan and group buy; true when this call recorded it. */
export async function recordGroupBuyShare(db: Db, userId: string, groupBuyId: string): Promise<boolean> {
  const rows = await db
    .insert(groupBuyShares)
    .values({ userId, groupBuyId })
    .onConflictDoNothing()
    .returning({ userId: groupBuyShares.userId });
  return rows.length > 0;
}

/** Whether the fan shared this group buy (their checkout then earns two entries). */
export async function hasSharedGroupBuy(db: Db, userId: string, groupBuyId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: groupBuyShares.userId })
    .from(groupBuyShares)
    .where(and(eq(groupBuyShares.userId, userId), eq(groupBuyShares.groupBuyId, groupBuyId)))
    .limit(1);
  return row !== undefined;
}

// --- closing: finalisation and cancellation ------------------------------------------------------------------------

/** Order statuses of a group-buy order whose payment went through (what finalisation refunds from). */
const PAID_ORDER_STATUSES = [
  "paid",
  "processing",
  "pending_shipping",
  "shipped",
  "delivered",
  "completed",
  "refunded",
] as const;

/** The paid orders of a group buy with what finalisation needs (amounts, RM value, payment, pool). */
export function listGroupBuyPaidOrders(db: Db, groupBuyId: string) {
  return db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      userId: orders.userId,
      hostId: orders.hostId,
      customerEmail: orders.customerEmail,
      productName: orders.productName,
      amountCents: orders.amountCents,
      refundedCents: orders.refundedCents,
      currency: orders.currency,
      salesRmCents: orders.salesRmCents,
      paymentIntentId: orders.paymentIntentId,
      checkoutSessionId: orders.checkoutSessionId,
      poolId: orders.poolId,
      metadata: orders.metadata,
    })
    .from(orders)
    .where(and(eq(orders.groupBuyId, groupBuyId), inArray(orders.status, [...PAID_ORDER_STATUSES])))
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .limit(10_000);
}

/** Whether an order belongs to a group buy not finalised yet, whose end books the order's sale in the host's earnings. */
export async function orderAwaitsGroupBuyEnd(db: Db, orderId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(groupBuys, eq(groupBuys.id, orders.groupBuyId))
    .where(and(eq(orders.id, orderId), isNull(groupBuys.finalisedAt)))
    .limit(1);
  return row !== undefined;
}

/**
 * The finalised group buys of the orders a refund or dispute counts on (its order, or the orders of its parts), while
 * the host's earnings hold no row of it yet (`<kind>:<id>`, or a part's `<kind>:<id>:<order id>`): none once it is
 * booked, so a later event of it does not book the group buy's end again.
 */
export async function listEndedGroupBuysOf(db: Db, kind: "refund" | "dispute", id: string): Promise<string[]> {
  const own =
    kind === "refund"
      ? sql`(select r.order_id from refunds r where r.id = ${id})`
      : sql`(select d.order_id from disputes d where d.id = ${id})`;
  const key = `${kind}:${id}`;
  const rows = await db
    .selectDistinct({ id: groupBuys.id })
    .from(groupBuys)
    .innerJoin(orders, eq(orders.groupBuyId, groupBuys.id))
    .where(
      and(
        sql`${groupBuys.finalisedAt} is not null`,
        or(
          sql`${orders.id} = ${own}`,
          sql`${orders.id} in (select p.order_id from refund_parts p where p.kind = ${kind} and p.source_id = ${id})`,
        ),
        // `<key>:…` as a key range (';' follows ':'), which the ledger's key index serves.
        sql`not exists (select 1 from earnings_ledger l where l.source_key = ${key} or (l.source_key > ${`${key}:`} and l.source_key < ${`${key};`}))`,
      ),
    );
  return rows.map((r) => r.id);
}

/** A group buy as closing it needs, also when its host is suspended (their fans are still refunded). */
export async function getGroupBuyForClose(db: Db, id: string) {
  const [row] = await db
    .select({
      id: groupBuys.id,
      hostId: groupBuys.hostId,
      name: groupBuys.name,
      status: groupBuys.status,
      targetCents: groupBuys.targetCents,
      endAt: groupBuys.endAt,
      finalDiscountPercent: groupBuys.finalDiscountPercent,
      finalisedAt: groupBuys.finalisedAt,
    })
    .from(groupBuys)
    .where(eq(groupBuys.id, id))
    .limit(1);
  return row;
}

/**
 * Moves an active group buy to completed (with its final discount) or cancelled, once: the update is guarded on
 * `status = 'active'`, so of two racing closes one wins. Returns false when it was not active any more.
 */
export async function claimGroupBuyClose(
  db: Db,
  id: string,
  next: { status: "completed" | "cancelled"; finalDiscountPercent: number },
): Promise<boolean> {
  const rows = await db
    .update(groupBuys)
    .set({ status: next.status, finalDiscountPercent: next.finalDiscountPercent, updatedAt: new Date() })
    .where(and(eq(groupBuys.id, id), eq(groupBuys.status, "active")))
    .returning({ id: groupBuys.id });
  return rows.length > 0;
}

export interface PlannedGroupBuyRefund {
  orderId: string;
  kind: GroupBuyRefundKind;
  amountCents: number;
  currency: string;
  poolReversalCents: number;
}

/** Records each order's one end-of-group-buy refund; an order that already has one keeps it (primary key). */
export async function recordGroupBuyRefunds(
  db: Db,
  groupBuyId: string,
  rows: readonly PlannedGroupBuyRefund[],
): Promise<void> {
  const positive = rows.filter((r) => r.amountCents > 0);
  for (let i = 0; i < positive.length; i += 10) {
    await db
      .insert(groupBuyRefunds)
      .values(positive.slice(i, i + 10).map((r) => ({ ...r, groupBuyId })))
      .onConflictDoNothing();
  }
}

/** Refunds recorded for a group buy that the provider has not accepted yet, with the payment to refund. */
export function listPendingGroupBuyRefunds(db: Db, groupBuyId: string) {
  return db
    .select({
      orderId: groupBuyRefunds.orderId,
      kind: groupBuyRefunds.kind,
      amountCents: groupBuyRefunds.amountCents,
      currency: groupBuyRefunds.currency,
      poolReversalCents: groupBuyRefunds.poolReversalCents,
      paymentIntentId: orders.paymentIntentId,
      checkoutSessionId: orders.checkoutSessionId,
      poolId: orders.poolId,
      hostId: orders.hostId,
      userId: orders.userId,
      orderNumber: orders.orderNumber,
      customerEmail: orders.customerEmail,
      productName: orders.productName,
    })
    .from(groupBuyRefunds)
    .innerJoin(orders, eq(orders.id, groupBuyRefunds.orderId))
    .where(and(eq(groupBuyRefunds.groupBuyId, groupBuyId), isNull(groupBuyRefunds.refundId)))
    .limit(200);
}

/**
 * Stores the provider's refund id on the group buy's refund (the refund itself, with the order's refunded total and,
 * when it is refunded in full, its status, was applied through the refunds pipeline), once: guarded on the refund id
 * still being empty. Returns false when it was already stored.
 */
export async function completeGroupBuyRefund(db: Db, orderId: string, refundId: string): Promise<boolean> {
  const stored = await db
    .update(groupBuyRefunds)
    .set({ refundId, completedAt: new Date() })
    .where(and(eq(groupBuyRefunds.orderId, orderId), isNull(groupBuyRefunds.refundId)))
    .returning({ orderId: groupBuyRefunds.orderId });
  return stored.length > 0;
}

/** Marks a closed group buy finalised once no refund of it is waiting for the provider. */
export async function markGroupBuyFinalised(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(groupBuys)
    .set({ finalisedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(groupBuys.id, id),
        inArray(groupBuys.status, ["completed", "cancelled"]),
        isNull(groupBuys.finalisedAt),
        sql`not exists (select 1 from ${groupBuyRefunds} where ${groupBuyRefunds.groupBuyId} = ${OUTER_GROUP_BUY_ID} and ${groupBuyRefunds.refundId} is null)`,
      ),
    )
    .returning({ id: groupBuys.id });
  return rows.length > 0;
}

/**
 * Group buys the cron must close (active past their end) or finish (closed, refunds not all done: never finalised,
 * or an order paid after the close whose end refund the provider has not accepted yet).
 */
export async function listGroupBuysToClose(db: Db, now: Date, limit = 20) {
  const due = await db
    .select({ id: groupBuys.id })
    .from(groupBuys)
    .where(and(eq(groupBuys.status, "active"), lte(groupBuys.endAt, now)))
    .limit(limit);
  const unfinished = await db
    .select({ id: groupBuys.id })
    .from(groupBuys)
    .where(
      and(
        inArray(groupBuys.status, ["completed", "cancelled"]),
        or(
          isNull(groupBuys.finalisedAt),
          sql`exists (select 1 from ${groupBuyRefunds} where ${groupBuyRefunds.groupBuyId} = ${OUTER_GROUP_BUY_ID} and ${groupBuyRefunds.refundId} is null)`,
        ),
      ),
    )
    .limit(limit);
  return { due: due.map((r) => r.id), unfinished: unfinished.map((r) => r.id) };
}

/** The sizes and colours (with stock) of a group buy's products, by product id. */
export async function listGroupBuyVariants(db: Db, productIds: readonly string[]) {
  const ids = [...productIds].slice(0, 50);
  if (ids.length === 0) return new Map<string, { sizes: VariantRow[]; colours: VariantRow[] }>();
  const [sizes, colours] = await Promise.all([
    db
      .select({
        productId: productSizes.productId,
        name: productSizes.name,
        priceCents: productSizes.priceCents,
        currency: productSizes.currency,
        availableUnits: productSizes.availableUnits,
      })
      .from(productSizes)
      .where(inArray(productSizes.productId, ids))
      .orderBy(asc(productSizes.position))
      .limit(1000),
    db
      .select({
        productId: productColors.productId,
        name: productColors.name,
        hex: productColors.hex,
        availableUnits: productColors.availableUnits,
      })
      .from(productColors)
      .where(inArray(productColors.productId, ids))
      .orderBy(asc(productColors.position))
      .limit(1000),
  ]);
  const out = new Map<string, { sizes: VariantRow[]; colours: VariantRow[] }>();
  for (const id of ids) out.set(id, { sizes: [], colours: [] });
  for (const s of sizes)
    out.get(s.productId)?.sizes.push({
      name: s.name,
      priceCents: s.priceCents,
      currency: s.currency,
      availableUnits: s.availableUnits,
      hex: null,
    });
  for (const c of colours)
    out
      .get(c.productId)
      ?.colours.push({ name: c.name, priceCents: null, currency: null, availableUnits: c.availableUnits, hex: c.hex });
  return out;
}

export interface VariantRow {
  name: string;
  priceCents: number | null;
  currency: string | null;
  availableUnits: number;
  hex: string | null;
}

/**
 * The host's group-buy revenue: per group buy, what its paid orders brought in net of refunds. Until a group buy is
 * finalised (ended and every refund done) its total is unknown and shown as 'Pending'.
 */
export async function hostGroupBuyRevenue(db: Db, hostId: string, limit = 20) {
  const paidStatuses = sql.join(
    PAID_ORDER_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const rows = await db
    .select({
      id: groupBuys.id,
      name: groupBuys.name,
      status: groupBuys.status,
      finalisedAt: groupBuys.finalisedAt,
      finalDiscountPercent: groupBuys.finalDiscountPercent,
      paidCents: sql<number>`coalesce((select sum(${orders.amountCents}) from ${orders} where ${orders.groupBuyId} = ${OUTER_GROUP_BUY_ID} and ${orders.status} in (${paidStatuses})), 0)`,
      refundedCents: sql<number>`coalesce((select sum(${orders.refundedCents}) from ${orders} where ${orders.groupBuyId} = ${OUTER_GROUP_BUY_ID} and ${orders.status} in (${paidStatuses})), 0)`,
      orderCount: sql<number>`(select count(*) from ${orders} where ${orders.groupBuyId} = ${OUTER_GROUP_BUY_ID} and ${orders.status} in (${paidStatuses}))`,
    })
    .from(groupBuys)
    .where(and(eq(groupBuys.hostId, hostId), inArray(groupBuys.status, ["active", "completed", "cancelled"])))
    .orderBy(desc(groupBuys.createdAt))
    .limit(limit);
  return rows.map((r) => ({
    ...r,
    paidCents: Number(r.paidCents),
    refundedCents: Number(r.refundedCents),
    orderCount: Number(r.orderCount),
    /** Null while pending: the final figure exists only once the group buy is finalised. */
    netCents: r.finalisedAt ? Number(r.paidCents) - Number(r.refundedCents) : null,
    currency: "USD",
  }));
}

// --- paying: a group-buy checkout's orders -------------------------------------------------------------------------

export interface GroupBuyOrderLine {
  order: NewOrder & { id: string; checkoutSessionId: string; productId: string; quantity: number; amountCents: number };
  sizeId: string | null;
  colourId: string | null;
}

/**
 * Fulfils a paid group-buy checkout in ONE D1 batch: claims the checkout (`claim`, unpaid -> paid), inserts one order
 * per line (unique per checkout session and line, so a repeat inserts nothing), and only when this call inserted
 * them takes the stock, counts the sales, adds the RM value to the group buy's sales and, when the fan had no earlier
 * paid order in it, one participant.
 */
export async function insertPaidGroupBuyOrders(
  db: Db,
  input: {
    claim: BatchItem<"sqlite">;
    groupBuyId: string;
    userId: string | null;
    salesRmCents: number;
    lines: readonly GroupBuyOrderLine[];
    /** The payment's pool contributions, reserved in this batch when its orders are new. */
    contributions: readonly ContributionKeyValues[];
  },
) {
  const first = input.lines[0];
  if (!first) throw new RangeError("a group-buy checkout has at least one line");
  const isNew = sql`exists (select 1 from ${orders} where ${orders.id} = ${first.order.id})`;
  // One statement per order and per line's stock: no statement's parameters grow with the lines (decision 370).
  const statements: BatchItem<"sqlite">[] = [input.claim, ...insertLineOrderStatements(db, input.lines)];
  const stockAt = input.lines.map((line) => pushLineStock(db, statements, line, isNew));
  const earlier = input.userId
    ? sql`not exists (select 1 from ${orders} where ${orders.groupBuyId} = ${input.groupBuyId} and ${orders.userId} = ${input.userId} and ${orders.checkoutSessionId} <> ${first.order.checkoutSessionId})`
    : sql`1`;
  statements.push(
    db
      .update(groupBuys)
      .set({
        currentSalesCents: sql`${groupBuys.currentSalesCents} + ${input.salesRmCents}`,
        currentParticipants: sql`${groupBuys.currentParticipants} + (case when ${earlier} then 1 else 0 end)`,
      })
      .where(and(eq(groupBuys.id, input.groupBuyId), isNew)),
  );
  for (const contribution of input.contributions)
    statements.push(reserveContributionStatement(db, contribution, isNew));
  const results = (await db.batch(
    statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]],
  )) as unknown as unknown[][];
  return {
    claimed: results[0]?.length === 1,
    inserted: insertedAnyOrder(results, input.lines.length),
    stockTaken: stockTakenFrom(results, input.lines, stockAt),
  };
}

/**
 * A group-buy order cancelled for want of stock no longer counts toward the group buy's sales. Call once, after
 * `cancelUndeliverableOrder` reported that it cancelled the order.
 */
export async function withdrawGroupBuySales(db: Db, groupBuyId: string, salesRmCents: number): Promise<void> {
  await db
    .update(groupBuys)
    .set({ currentSalesCents: sql`max(0, ${groupBuys.currentSalesCents} - ${salesRmCents})` })
    .where(eq(groupBuys.id, groupBuyId));
}

/** The orders of a checkout that pays several (a group buy's or a cart's), line by line. */
export function listCheckoutOrders(db: Db, checkoutSessionId: string) {
  return db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      hostId: orders.hostId,
      productId: orders.productId,
      productName: orders.productName,
      productCategory: orders.productCategory,
      quantity: orders.quantity,
      sizeName: orders.sizeName,
      colorName: orders.colorName,
      unitPriceCents: orders.unitPriceCents,
      amountCents: orders.amountCents,
      currency: orders.currency,
      poolId: orders.poolId,
      entryNumber: orders.entryNumber,
      metadata: orders.metadata,
      status: orders.status,
      refundReason: orders.refundReason,
    })
    .from(orders)
    .where(eq(orders.checkoutSessionId, checkoutSessionId))
    .orderBy(asc(orders.line))
    .limit(MAX_CHECKOUT_LINES);
}

/** A group buy's sales now and the part of them one checkout's orders made (to tell whether it reached a tier). */
export async function getGroupBuySalesAfterCheckout(db: Db, groupBuyId: string, checkoutSessionId: string) {
  const [row] = await db
    .select({
      name: groupBuys.name,
      currentSalesCents: groupBuys.currentSalesCents,
      checkoutSalesCents: sql<number>`(select coalesce(sum(${orders.salesRmCents}), 0) from ${orders} where ${orders.checkoutSessionId} = ${checkoutSessionId} and ${orders.status} <> 'cancelled')`,
    })
    .from(groupBuys)
    .where(eq(groupBuys.id, groupBuyId))
    .limit(1);
  return row;
}

/** The accounts holding a paid order of the group buy (notified when it reaches a tier). */
export async function listGroupBuyBuyerIds(db: Db, groupBuyId: string, limit = 5000): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: sql<string>`${orders.userId}` })
    .from(orders)
    .where(
      and(eq(orders.groupBuyId, groupBuyId), sql`${orders.userId} is not null`, sql`${orders.status} <> 'cancelled'`),
    )
    .limit(limit);
  return rows.map((r) => r.userId);
}
