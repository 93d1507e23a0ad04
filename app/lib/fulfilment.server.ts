import { and, asc, eq, exists, gte, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type Db } from "~/db/client.server";
import { bookGuessEntry, bookShopSale } from "~/db/queries/earnings.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import {
  checkoutSessions,
  guessWinGames,
  guessWinParticipants,
  orders,
  paymentEvents,
  prizePoolContributions,
  productColors,
  productImages,
  products,
  productSizes,
  userProfiles,
  vouchers,
  type Address,
  type CheckoutSession,
} from "~/db/schema";
import { productCategory } from "~/domain/catalog";
import { orderNumber, voucherCode } from "~/domain/orders";
import { poolContributionCents } from "~/domain/revenue";
import { formatCents } from "~/domain/money";
import { notify } from "~/lib/notify.server";
import { addContribution } from "~/lib/pools.server";

// Applying payment events exactly once. A webhook event is recorded by id in payment_events; a checkout session is
// fulfilled by one atomic D1 batch whose gate is a conditional UPDATE (payment_status 'unpaid' -> 'paid') plus the
// unique checkout_session_id of orders, so racing or repeated deliveries create one order and take stock once.
// The steps after the batch (voucher, pool contribution) are idempotent and resumed by any later delivery.

/** Bad or unusable data in an event: acknowledged and recorded as failed, never retried. */
export class FulfilmentDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FulfilmentDataError";
  }
}

const AddressSchema = z.object({
  line1: z.string().nullish(),
  line2: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
  postal_code: z.string().nullish(),
  country: z.string().nullish(),
});

/** The fields of a Stripe `checkout.session` object that fulfilment reads. */
export const CheckoutSessionObjectSchema = z.object({
  id: z.string().min(1).max(255),
  object: z.literal("checkout.session"),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  payment_status: z.string(),
  status: z.string().nullish(),
  mode: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  payment_intent: z.union([z.string(), z.object({ id: z.string() }), z.null()]).optional(),
  customer_email: z.string().nullish(),
  customer_details: z
    .object({ email: z.string().nullish(), name: z.string().nullish(), address: AddressSchema.nullish() })
    .nullish(),
  collected_information: z
    .object({
      shipping_details: z.object({ name: z.string().nullish(), address: AddressSchema.nullish() }).nullish(),
    })
    .nullish(),
});
export type CheckoutSessionObject = z.infer<typeof CheckoutSessionObjectSchema>;

const EventEnvelopeSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.unknown() }),
});

export type FulfilOutcome =
  | {
      kind: "fulfilled" | "already_fulfilled";
      checkoutId: string;
      purpose: CheckoutSession["purpose"];
      orderId?: string;
      orderNumber?: string;
      poolId?: string | null;
      entryNumber?: number | null;
    }
  | { kind: "awaiting_payment" | "expired" | "unknown_session"; checkoutId?: string };

// --- lookups ---------------------------------------------------------------------------------------------------

/** Our checkout row for a provider session: by the session id, else by the reference carried in its metadata. */
export async function findCheckoutRow(
  db: Db,
  session: Pick<CheckoutSessionObject, "id" | "metadata" | "client_reference_id">,
): Promise<CheckoutSession | undefined> {
  const [byId] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id)).limit(1);
  if (byId) return byId;
  const reference = session.metadata?.checkout_id ?? session.client_reference_id;
  if (!reference) return undefined;
  const [byReference] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, reference)).limit(1);
  return byReference;
}

function paymentIntentOf(session: CheckoutSessionObject): string | null {
  const intent = session.payment_intent;
  return typeof intent === "string" ? intent : (intent?.id ?? null);
}

function shippingOf(session: CheckoutSessionObject): Address | null {
  const details = session.collected_information?.shipping_details;
  const address = details?.address ?? session.customer_details?.address;
  if (!address?.line1 && !address?.city) return null;
  return {
    name: details?.name ?? session.customer_details?.name ?? "",
    street: [address.line1, address.line2].filter(Boolean).join(", "),
    city: address.city ?? "",
    state: address.state ?? "",
    postal_code: address.postal_code ?? "",
    country: address.country ?? "",
  };
}

function checkAmount(row: CheckoutSession, session: CheckoutSessionObject): void {
  if (typeof session.amount_total === "number" && session.amount_total !== row.amountCents) {
    throw new FulfilmentDataError(
      `amount ${session.amount_total} of session ${session.id} does not match checkout ${row.id} (${row.amountCents})`,
    );
  }
  if (session.currency && session.currency.toUpperCase() !== row.currency.toUpperCase()) {
    throw new FulfilmentDataError(`currency ${session.currency} of session ${session.id} is not ${row.currency}`);
  }
}

// --- fulfilment ------------------------------------------------------------------------------------------------

/**
 * Fulfils a paid checkout session (`checkout.session.completed` with payment_status 'paid', or
 * `checkout.session.async_payment_succeeded`). Safe to call any number of times, concurrently, from the webhook and
 * from the success page: the first call fulfils, later calls finish any step left undone and report
 * 'already_fulfilled'.
 */
export async function fulfilCheckoutSession(env: Env, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const db = getDb(env);
  const row = await findCheckoutRow(db, session);
  if (!row) return { kind: "unknown_session" };
  checkAmount(row, session);
  switch (row.purpose) {
    case "product":
      return fulfilProduct(env, db, row, session);
    case "host_deposit":
      return fulfilHostDeposit(env, db, row, session);
    case "guess_entry":
      return fulfilGuessEntry(env, db, row, session);
    default:
      throw new FulfilmentDataError(`checkout ${row.id} has purpose ${row.purpose}, which this handler does not fulfil`);
  }
}

function claimStatement(db: Db, row: CheckoutSession, session: CheckoutSessionObject, now: Date) {
  return db
    .update(checkoutSessions)
    .set({ status: "complete", paymentStatus: "paid", completedAt: now, paymentIntentId: paymentIntentOf(session) })
    .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.paymentStatus, "unpaid")))
    .returning({ id: checkoutSessions.id });
}

function positiveInt(value: string | undefined): number | null {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

async function fulfilProduct(env: Env, db: Db, row: CheckoutSession, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const meta = row.metadata;
  const quantity = positiveInt(meta.quantity);
  const unitPriceCents = positiveInt(meta.unit_price_cents);
  if (!meta.product_id || !meta.size || !quantity || !unitPriceCents || !row.hostId) {
    throw new FulfilmentDataError(`checkout ${row.id} lacks the product, size, quantity, price or host`);
  }
  const [product] = await db.select().from(products).where(eq(products.id, meta.product_id)).limit(1);
  if (!product) throw new FulfilmentDataError(`product ${meta.product_id} of checkout ${row.id} no longer exists`);
  const [[size], [colour], [image]] = await Promise.all([
    db
      .select({ id: productSizes.id })
      .from(productSizes)
      .where(and(eq(productSizes.productId, product.id), eq(productSizes.name, meta.size)))
      .orderBy(asc(productSizes.position))
      .limit(1),
    meta.color
      ? db
          .select({ id: productColors.id })
          .from(productColors)
          .where(and(eq(productColors.productId, product.id), eq(productColors.name, meta.color)))
          .orderBy(asc(productColors.position))
          .limit(1)
      : Promise.resolve([]),
    db
      .select({ url: productImages.url })
      .from(productImages)
      .where(eq(productImages.productId, product.id))
      .orderBy(asc(productImages.position))
      .limit(1),
  ]);

  const category = productCategory(product.category);
  const orderId = await freshOrderId(db, category === "voucher");
  const number = await freeOrderNumber(db, session.id, orderId);
  const now = new Date();
  const isNewOrder = exists(db.select({ one: sql`1` }).from(orders).where(eq(orders.id, orderId)));

  const claim = claimStatement(db, row, session, now);
  const insertOrder = db
    .insert(orders)
    .values({
      id: orderId,
      orderNumber: number,
      userId: row.userId,
      hostId: row.hostId,
      productId: product.id,
      checkoutSessionId: session.id,
      paymentIntentId: paymentIntentOf(session),
      status: category === "physical" ? "processing" : "paid",
      purchaseMode: "buy-now",
      amountCents: row.amountCents,
      unitPriceCents,
      currency: row.currency,
      quantity,
      sizeName: meta.size,
      colorName: meta.color ?? null,
      customerEmail: session.customer_details?.email ?? session.customer_email ?? row.customerEmail,
      customerName: session.customer_details?.name ?? null,
      shippingAddress: category === "physical" ? shippingOf(session) : null,
      productName: product.name,
      productImage: image?.url ?? null,
      productCategory: category,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: orders.checkoutSessionId })
    .returning({ id: orders.id });
  // Stock is taken only by the delivery whose order row was inserted, and never below zero.
  const takeSize = db
    .update(productSizes)
    .set({ availableUnits: sql`${productSizes.availableUnits} - ${quantity}` })
    .where(and(eq(productSizes.id, size?.id ?? ""), gte(productSizes.availableUnits, quantity), isNewOrder))
    .returning({ id: productSizes.id });
  const takeColour = db
    .update(productColors)
    .set({ availableUnits: sql`${productColors.availableUnits} - ${quantity}` })
    .where(and(eq(productColors.id, colour?.id ?? ""), gte(productColors.availableUnits, quantity), isNewOrder))
    .returning({ id: productColors.id });
  const countSale = db
    .update(products)
    .set({
      salesCount: sql`${products.salesCount} + ${quantity}`,
      revenueCents: sql`${products.revenueCents} + ${row.amountCents}`,
    })
    .where(and(eq(products.id, product.id), isNewOrder));
  const countHostSale = db
    .update(userProfiles)
    .set({
      totalSales: sql`${userProfiles.totalSales} + ${quantity}`,
      totalRevenueCents: sql`${userProfiles.totalRevenueCents} + ${row.amountCents}`,
    })
    .where(and(eq(userProfiles.userId, row.hostId), isNewOrder));

  const [claimed, inserted, sizeTaken, colourTaken] = await db.batch([
    claim,
    insertOrder,
    takeSize,
    takeColour,
    countSale,
    countHostSale,
  ]);
  const isNew = inserted.length === 1;
  if (isNew && (sizeTaken.length === 0 || (meta.color && colourTaken.length === 0))) {
    // Paid for, but the stock ran out (or the variant vanished) between checkout and payment: the host must act.
    console.warn("fulfilment: order paid without enough stock", { orderId, checkout: row.id, product: product.id });
    await db
      .update(orders)
      .set({ metadata: { stock_shortfall: true } })
      .where(eq(orders.id, orderId));
  }
  if (!isNew && claimed.length === 1) {
    console.warn("fulfilment: checkout claimed but its order already existed", { checkout: row.id });
  }

  const [order] = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      poolId: orders.poolId,
      entryNumber: orders.entryNumber,
      amountCents: orders.amountCents,
      currency: orders.currency,
    })
    .from(orders)
    .where(eq(orders.checkoutSessionId, session.id))
    .limit(1);
  if (!order) throw new Error(`order for checkout ${row.id} is missing after fulfilment`);

  if (category === "voucher") {
    await db
      .insert(vouchers)
      .values({
        code: voucherCode(order.id),
        orderId: order.id,
        productId: product.id,
        hostId: row.hostId,
        buyerId: row.userId,
        valueCents: product.voucherValueCents ?? unitPriceCents,
        currency: product.currency,
        status: "active",
        expiresAt: product.voucherExpiresAt ?? new Date(now.getTime() + 365 * 24 * 60 * 60 * 1000),
      })
      .onConflictDoNothing({ target: vouchers.orderId });
  }

  const rules = await getRevenueRules(db);
  // The host's share into the earnings ledger, once per order (a resumed delivery books nothing new).
  await bookShopSale(
    db,
    { ...order, hostId: row.hostId, productName: product.name, productCategory: category, paidAt: row.completedAt ?? now },
    rules.shop_sales,
  );

  let { poolId, entryNumber } = order;
  if (poolId === null) {
    const contribution = await contribute(env, db, {
      hostId: row.hostId,
      sourceType: "product_purchase",
      sourceKey: contributionKey(session.id),
      amountCents: poolContributionCents("shop_sales", order.amountCents, rules),
      currency: order.currency,
      userId: row.userId,
      earnsEntry: true,
    });
    poolId = contribution.poolId;
    entryNumber = contribution.entryNumber;
    await db
      .update(orders)
      .set({ poolId, entryNumber })
      .where(and(eq(orders.id, order.id), isNull(orders.poolId)));
  }

  if (isNew) {
    await notify(env, row.hostId, "sale", {
      subject: `New order ${order.orderNumber}: ${product.name}`,
      text: `You sold ${quantity} x ${product.name} (${formatCents(order.amountCents, order.currency)}). Order ${order.orderNumber} is waiting in Customer Orders.`,
      url: "/orders",
    });
  }

  return {
    kind: isNew ? "fulfilled" : "already_fulfilled",
    checkoutId: row.id,
    purpose: row.purpose,
    orderId: order.id,
    orderNumber: order.orderNumber,
    poolId,
    entryNumber,
  };
}

async function fulfilHostDeposit(
  env: Env,
  db: Db,
  row: CheckoutSession,
  session: CheckoutSessionObject,
): Promise<FulfilOutcome> {
  if (!row.hostId) throw new FulfilmentDataError(`deposit checkout ${row.id} has no host`);
  const [claimed] = await claimStatement(db, row, session, new Date());
  // The contribution is keyed by the session, so a resumed or repeated call adds it once.
  const contribution = await contribute(env, db, {
    hostId: row.hostId,
    sourceType: "host_deposit",
    sourceKey: contributionKey(session.id),
    amountCents: row.amountCents,
    currency: row.currency,
    userId: row.userId,
    earnsEntry: false,
  });
  return {
    kind: claimed ? "fulfilled" : "already_fulfilled",
    checkoutId: row.id,
    purpose: row.purpose,
    poolId: contribution.poolId,
    entryNumber: null,
  };
}

/**
 * A paid guess: one atomic batch claims the session, inserts the participant (payment_key = session id, unique, so
 * a repeat inserts nothing) with is_correct decided here, and bumps the game's counters only when the row is new.
 * Then 100% of the fee goes to the host's pool (keyed by the session); only a correct guess earns an entry.
 */
async function fulfilGuessEntry(env: Env, db: Db, row: CheckoutSession, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const meta = row.metadata;
  if (!meta.game_id || !meta.answer || !row.hostId || !row.userId) {
    throw new FulfilmentDataError(`guess checkout ${row.id} lacks the game, answer, host or user`);
  }
  const [game] = await db
    .select({
      id: guessWinGames.id,
      hostId: guessWinGames.hostId,
      correctAnswer: guessWinGames.correctAnswer,
      question: guessWinGames.question,
    })
    .from(guessWinGames)
    .where(eq(guessWinGames.id, meta.game_id))
    .limit(1);
  if (!game) throw new FulfilmentDataError(`game ${meta.game_id} of checkout ${row.id} no longer exists`);
  const isCorrect = meta.answer === game.correctAnswer;
  const now = new Date();
  const participantId = crypto.randomUUID();
  const isNewParticipant = exists(
    db.select({ one: sql`1` }).from(guessWinParticipants).where(eq(guessWinParticipants.id, participantId)),
  );

  const [claimed, inserted] = await db.batch([
    claimStatement(db, row, session, now),
    db
      .insert(guessWinParticipants)
      .values({
        id: participantId,
        gameId: game.id,
        userId: row.userId,
        answer: meta.answer,
        isCorrect,
        kind: "paid",
        entryFeeCents: row.amountCents,
        currency: row.currency,
        paymentStatus: "paid",
        paymentKey: session.id,
        createdAt: now,
      })
      .onConflictDoNothing({ target: guessWinParticipants.paymentKey })
      .returning({ id: guessWinParticipants.id }),
    db
      .update(guessWinGames)
      .set({
        participantsCount: sql`${guessWinGames.participantsCount} + 1`,
        totalEntryFeesCents: sql`${guessWinGames.totalEntryFeesCents} + ${row.amountCents}`,
        updatedAt: sql`${guessWinGames.updatedAt}`,
      })
      .where(and(eq(guessWinGames.id, game.id), isNewParticipant)),
  ]);
  const isNew = inserted.length === 1;
  if (!isNew && claimed.length === 1) {
    console.warn("fulfilment: guess checkout claimed but its participant already existed", { checkout: row.id });
  }

  const [participant] = await db
    .select({ id: guessWinParticipants.id, poolId: guessWinParticipants.poolId, entryNumber: guessWinParticipants.entryNumber })
    .from(guessWinParticipants)
    .where(eq(guessWinParticipants.paymentKey, session.id))
    .limit(1);
  if (!participant) throw new Error(`participant for checkout ${row.id} is missing after fulfilment`);

  const rules = await getRevenueRules(db);
  await bookGuessEntry(
    db,
    {
      participantId: participant.id,
      hostId: row.hostId,
      amountCents: row.amountCents,
      currency: row.currency,
      question: game.question,
      paidAt: row.completedAt ?? now,
    },
    rules.guess_win_entries,
  );

  let { poolId, entryNumber } = participant;
  if (poolId === null) {
    const contribution = await contribute(env, db, {
      hostId: row.hostId,
      sourceType: "guess_entry",
      sourceKey: contributionKey(session.id),
      amountCents: row.amountCents,
      currency: row.currency,
      userId: row.userId,
      earnsEntry: isCorrect,
    });
    poolId = contribution.poolId;
    entryNumber = isCorrect ? contribution.entryNumber : null;
    await db
      .update(guessWinParticipants)
      .set({ poolId, entryNumber })
      .where(and(eq(guessWinParticipants.id, participant.id), isNull(guessWinParticipants.poolId)));
  }
  return { kind: isNew ? "fulfilled" : "already_fulfilled", checkoutId: row.id, purpose: row.purpose, poolId, entryNumber };
}

/** The pool ledger's source key of a checkout payment. */
export function contributionKey(sessionId: string): string {
  return `checkout:${sessionId}`;
}

type ContributionInput = Parameters<typeof addContribution>[1];

/** addContribution, with the ledger's own record as the answer when a repeat does not report the entry. */
async function contribute(env: Env, db: Db, input: ContributionInput): Promise<{ poolId: string; entryNumber: number | null }> {
  const result = await addContribution(env, input);
  if (!result.duplicate || result.entryNumber !== null || !input.earnsEntry) return result;
  const [recorded] = await db
    .select({ poolId: prizePoolContributions.poolId, entryNumber: prizePoolContributions.entryNumber })
    .from(prizePoolContributions)
    .where(eq(prizePoolContributions.sourceKey, input.sourceKey))
    .limit(1);
  return recorded ?? result;
}

/** A new order id; for a voucher, one whose voucher code ('VCH-' + last 8) is not taken yet. */
async function freshOrderId(db: Db, needsVoucherCode: boolean): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const id = crypto.randomUUID();
    if (!needsVoucherCode || attempt >= 5) return id;
    const [taken] = await db
      .select({ id: vouchers.id })
      .from(vouchers)
      .where(eq(vouchers.code, voucherCode(id)))
      .limit(1);
    if (!taken) return id;
  }
}

/** The order number from the session id, unless another checkout's order already has it (then from the order id). */
async function freeOrderNumber(db: Db, sessionId: string, orderId: string): Promise<string> {
  const preferred = orderNumber(sessionId, orderId);
  const [taken] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.orderNumber, preferred), ne(orders.checkoutSessionId, sessionId)))
    .limit(1);
  return taken ? orderNumber(null, orderId) : preferred;
}

/** `checkout.session.completed` with payment still to come (bank transfer): the session is complete, unpaid. */
export async function markAwaitingPayment(env: Env, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const db = getDb(env);
  const row = await findCheckoutRow(db, session);
  if (!row) return { kind: "unknown_session" };
  checkAmount(row, session);
  await db
    .update(checkoutSessions)
    .set({ status: "complete", paymentIntentId: paymentIntentOf(session) })
    .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.paymentStatus, "unpaid")));
  return { kind: "awaiting_payment", checkoutId: row.id };
}

/** `checkout.session.expired` or `async_payment_failed`: an unpaid session will never be paid. */
export async function markUnpaidSessionExpired(env: Env, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const db = getDb(env);
  const row = await findCheckoutRow(db, session);
  if (!row) return { kind: "unknown_session" };
  await db
    .update(checkoutSessions)
    .set({ status: "expired" })
    .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.paymentStatus, "unpaid")));
  return { kind: "expired", checkoutId: row.id };
}

// --- webhook events --------------------------------------------------------------------------------------------

export type WebhookResult = {
  status: 200 | 500;
  body: { received: true; duplicate?: true; ignored?: string; failed?: true } | { error: string };
};

/** Whether a retry of the same event could succeed (D1 or a Durable Object briefly unavailable), not bad data. */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof FulfilmentDataError || error instanceof z.ZodError || error instanceof SyntaxError) return false;
  const message = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
  return !/constraint failed|SQLITE_CONSTRAINT|FOREIGN KEY|NOT NULL constraint|CHECK constraint/i.test(message);
}

type Handled = { outcome: "processed" | "ignored"; duplicate?: boolean; note?: string };

async function dispatch(env: Env, type: string, object: unknown): Promise<Handled> {
  const handlers: Record<string, (session: CheckoutSessionObject) => Promise<FulfilOutcome>> = {
    "checkout.session.completed": (session) =>
      session.payment_status === "paid" || session.payment_status === "no_payment_required"
        ? fulfilCheckoutSession(env, session)
        : markAwaitingPayment(env, session),
    "checkout.session.async_payment_succeeded": (session) => fulfilCheckoutSession(env, session),
    "checkout.session.async_payment_failed": (session) => markUnpaidSessionExpired(env, session),
    "checkout.session.expired": (session) => markUnpaidSessionExpired(env, session),
  };
  const handler = handlers[type];
  if (!handler) return { outcome: "ignored", note: `unhandled event type ${type}` };
  const parsed = CheckoutSessionObjectSchema.safeParse(object);
  if (!parsed.success) return { outcome: "ignored", note: "malformed checkout.session object" };
  const result = await handler(parsed.data);
  if (result.kind === "unknown_session") return { outcome: "ignored", note: `unknown checkout session ${parsed.data.id}` };
  return { outcome: "processed", duplicate: result.kind === "already_fulfilled" };
}

/**
 * Applies one verified webhook event: records its id once, dispatches it, and records the outcome. Repeats of a
 * processed event are acknowledged as duplicates; an event being (or having failed to be) processed is applied
 * again, which fulfilment makes harmless. 500 only when a retry could help.
 */
export async function processStripeEvent(env: Env, event: unknown): Promise<WebhookResult> {
  const envelope = EventEnvelopeSchema.safeParse(event);
  if (!envelope.success) {
    console.warn("webhook: acknowledged an event without id, type or data");
    return { status: 200, body: { received: true, ignored: "malformed event" } };
  }
  const { id, type, data } = envelope.data;
  const db = getDb(env);
  try {
    const recorded = await db
      .insert(paymentEvents)
      .values({ id, type, status: "received" })
      .onConflictDoNothing({ target: paymentEvents.id })
      .returning({ id: paymentEvents.id });
    if (recorded.length === 0) {
      const [existing] = await db
        .select({ status: paymentEvents.status })
        .from(paymentEvents)
        .where(eq(paymentEvents.id, id))
        .limit(1);
      if (existing?.status === "processed" || existing?.status === "ignored") {
        return { status: 200, body: { received: true, duplicate: true } };
      }
    }
  } catch (error) {
    console.error("webhook: could not record event", { id, type, error });
    return { status: 500, body: { error: "Temporarily unable to record the event" } };
  }

  try {
    const handled = await dispatch(env, type, data.object);
    if (handled.outcome === "ignored") console.info("webhook: ignored event", { id, type, note: handled.note });
    await db
      .update(paymentEvents)
      .set({ status: handled.outcome, processedAt: new Date(), error: handled.note ?? null })
      .where(eq(paymentEvents.id, id));
    return {
      status: 200,
      body: {
        received: true,
        ...(handled.duplicate ? { duplicate: true as const } : {}),
        ...(handled.outcome === "ignored" ? { ignored: handled.note ?? "ignored" } : {}),
      },
    };
  } catch (error) {
    const retry = isRetryableError(error);
    const message = error instanceof Error ? error.message : String(error);
    console.error("webhook: event failed", { id, type, retry, error });
    try {
      await db
        .update(paymentEvents)
        .set({ status: "failed", error: message.slice(0, 1000) })
        .where(eq(paymentEvents.id, id));
    } catch (recordError) {
      console.error("webhook: could not record the failure", { id, recordError });
    }
    return retry
      ? { status: 500, body: { error: "Temporary failure; please retry" } }
      : { status: 200, body: { received: true, failed: true } };
  }
}
