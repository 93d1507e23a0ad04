// Payments: checkout sessions, provider events, processing fees, refunds (with their parts and a group buy's refunds), disputes, returns and the local provider's movements.
import { sql } from "drizzle-orm";
import { index, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  CHECKOUT_PAYMENT_STATUSES,
  CHECKOUT_PROVIDERS,
  CHECKOUT_PURPOSES,
  CHECKOUT_STATUSES,
  LOCAL_MOVEMENT_KINDS,
  PAYMENT_EVENT_STATUSES,
  REFUND_ORIGINS,
  REFUND_PART_KINDS,
  REFUND_STATES,
  REFUND_STATUSES,
  RETURN_REQUEST_STATUSES,
} from "../../domain/payments";
import type { RevenueRules } from "../../domain/revenue";
import { GROUP_BUY_REFUND_KINDS } from "../../domain/group-buy";
import { RETURN_REQUEST_KINDS } from "../../domain/shipping";
import { id, timestamp, createdAt, updatedAt, cents, currency, bool } from "./columns";
import { users } from "./accounts";
import { groupBuys } from "./group-buys";
import { orders } from "./orders";

export const checkoutSessions = sqliteTable(
  "checkout_sessions",
  {
    /** Stripe's session id, or a local one. */
    id: text("id").primaryKey(),
    provider: text("provider", { enum: CHECKOUT_PROVIDERS }).notNull(),
    purpose: text("purpose", { enum: CHECKOUT_PURPOSES }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    hostId: text("host_id").references(() => users.id, { onDelete: "set null" }),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    status: text("status", { enum: CHECKOUT_STATUSES }).notNull().default("open"),
    paymentStatus: text("payment_status", { enum: CHECKOUT_PAYMENT_STATUSES }).notNull().default("unpaid"),
    paymentIntentId: text("payment_intent_id"),
    customerEmail: text("customer_email"),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    url: text("url"),
    metadata: text("metadata", { mode: "json" })
      .$type<Record<string, string>>()
      .notNull()
      .$defaultFn(() => ({})),
    expiresAt: timestamp("expires_at"),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at"),
    /** The platform's revenue rules in force when it was paid (a later settings change never rewrites the past). */
    rates: text("rates", { mode: "json" }).$type<RevenueRules>(),
    /** Refunds plus lost disputes of this payment, in cents, and the resulting state. */
    refundedCents: cents("refunded_cents").notNull().default(0),
    refundState: text("refund_state", { enum: REFUND_STATES }).notNull().default("none"),
  },
  (t) => [
    index("checkout_sessions_user_created_idx").on(t.userId, t.createdAt),
    index("checkout_sessions_payment_intent_idx").on(t.paymentIntentId),
    // A charge names our checkout only by the reference in its metadata (findCheckoutByReference).
    index("checkout_sessions_reference_idx").on(sql`json_extract(${t.metadata}, '$.checkout_id')`),
  ],
);

/** Webhook events by provider event id: recording an id once makes delivery idempotent. */
export const paymentEvents = sqliteTable("payment_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  status: text("status", { enum: PAYMENT_EVENT_STATUSES }).notNull().default("received"),
  error: text("error"),
  receivedAt: createdAt("received_at"),
  processedAt: timestamp("processed_at"),
});

/**
 * A refund or dispute event of a payment not known yet (it arrived before the checkout's completion): held by event
 * id with its payment intent and charge and the event's object, and applied once the payment is known
 * (docs/decisions/380-held-payment-events.md). applied_at is set once it was applied.
 */
export const heldPaymentEvents = sqliteTable(
  "held_payment_events",
  {
    eventId: text("event_id").primaryKey(),
    type: text("type").notNull(),
    paymentIntentId: text("payment_intent_id"),
    chargeId: text("charge_id"),
    /** The event's data.object, as JSON. */
    object: text("object").notNull(),
    receivedAt: createdAt("received_at"),
    appliedAt: timestamp("applied_at"),
  },
  (t) => [
    index("held_payment_events_waiting_idx").on(t.appliedAt, t.receivedAt),
    index("held_payment_events_intent_idx").on(t.paymentIntentId),
  ],
);

/**
 * The payment processor's fee of each payment, from its balance transaction (the local provider reports a simulated
 * fee): the platform's cost, never charged to the host. One row per payment.
 */
export const paymentProcessingFees = sqliteTable(
  "payment_processing_fees",
  {
    id: id(),
    paymentIntentId: text("payment_intent_id").notNull(),
    checkoutSessionId: text("checkout_session_id").references(() => checkoutSessions.id, { onDelete: "set null" }),
    provider: text("provider", { enum: CHECKOUT_PROVIDERS }).notNull(),
    balanceTransactionId: text("balance_transaction_id").notNull(),
    amountCents: cents("amount_cents").notNull(),
    feeCents: cents("fee_cents").notNull(),
    currency: currency(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_processing_fees_payment_intent_unique").on(t.paymentIntentId),
    index("payment_processing_fees_created_idx").on(t.createdAt),
  ],
);

/** One provider refund of a payment, by the provider's id; its latest status as the events reported it. */
export const refunds = sqliteTable(
  "refunds",
  {
    /** Stripe's refund id (re_…), or the local provider's. */
    id: text("id").primaryKey(),
    checkoutSessionId: text("checkout_session_id").notNull(),
    paymentIntentId: text("payment_intent_id").notNull(),
    /** The order it refunds (product purchases), else null (no order, or split over a cart's orders: refund_parts). */
    orderId: text("order_id"),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    status: text("status", { enum: REFUND_STATUSES }).notNull(),
    origin: text("origin", { enum: REFUND_ORIGINS }).notNull().default("provider"),
    reason: text("reason"),
    /** none -> applying -> applied -> restoring -> restored: the pool reversal, claimed step by step. */
    reversal: text("reversal").notNull().default("none"),
    /** When the buyer was mailed about this refund: claimed once, the first time it counts (decision 131). */
    buyerMailedAt: timestamp("buyer_mailed_at"),
    /** When the buyer was mailed that this refund did not go through (failed or canceled): claimed once (decision 150). */
    buyerFailureMailedAt: timestamp("buyer_failure_mailed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("refunds_checkout_idx").on(t.checkoutSessionId), index("refunds_order_idx").on(t.orderId)],
);

/**
 * What a refund or dispute naming no order (Stripe's dashboard, a chargeback) of a payment for several orders (a cart)
 * counts on each of them: one row per order, its amount fixed once when the refund or dispute is first stored
 * (`allocateAcrossOrders`), with the pool reversal of that order's part claimed step by step like a refund's
 * (docs/decisions/160-cart-refunds-and-disputes.md).
 */
export const refundParts = sqliteTable(
  "refund_parts",
  {
    /** 'refund' or 'dispute': which table `sourceId` is in. */
    kind: text("kind", { enum: REFUND_PART_KINDS }).notNull(),
    /** The provider's refund or dispute id. */
    sourceId: text("source_id").notNull(),
    orderId: text("order_id").notNull(),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    /** none -> applying -> applied -> restoring -> restored: this part's pool reversal. */
    reversal: text("reversal").notNull().default("none"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.sourceId, t.orderId] }), index("refund_parts_order_idx").on(t.orderId)],
);

/**
 * The one refund a group buy's end gives an order: the final tier's difference, or the whole amount when the group
 * buy is cancelled. The primary key makes it once per order, also when two finalisations race; `refund_id` is
 * null until the provider has accepted the refund (idempotency key `group-buy:<order id>`), so a retry resumes.
 */
export const groupBuyRefunds = sqliteTable(
  "group_buy_refunds",
  {
    orderId: text("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    groupBuyId: text("group_buy_id")
      .notNull()
      .references(() => groupBuys.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: GROUP_BUY_REFUND_KINDS }).notNull(),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    /** The pool share of this refund, reversed in the order's pool (0 when nothing goes back). */
    poolReversalCents: cents("pool_reversal_cents").notNull().default(0),
    refundId: text("refund_id"),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at"),
  },
  (t) => [index("group_buy_refunds_group_buy_idx").on(t.groupBuyId, t.refundId)],
);

/** A chargeback on a payment, by the provider's dispute id. A lost dispute counts as a refund. */
export const disputes = sqliteTable(
  "disputes",
  {
    id: text("id").primaryKey(),
    checkoutSessionId: text("checkout_session_id").notNull(),
    paymentIntentId: text("payment_intent_id").notNull(),
    /** The payment's only order, else null (no order, or split over a cart's orders: refund_parts). */
    orderId: text("order_id"),
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    /** Stripe's dispute status (needs_response, under_review, won, lost, …). */
    status: text("status").notNull(),
    fundsWithdrawn: bool("funds_withdrawn").notNull().default(false),
    fundsReinstated: bool("funds_reinstated").notNull().default(false),
    /** The pool reversal of a lost dispute, claimed like a refund's. */
    reversal: text("reversal").notNull().default("none"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("disputes_checkout_idx").on(t.checkoutSessionId)],
);

/** A buyer's request to return an order (within the return window); the host approves (a refund) or declines. */
export const returnRequests = sqliteTable(
  "return_requests",
  {
    id: id(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    /** A return, or the buyer's "not received" report (which holds the sale's earnings while open). */
    kind: text("kind", { enum: RETURN_REQUEST_KINDS }).notNull().default("return"),
    status: text("status", { enum: RETURN_REQUEST_STATUSES }).notNull().default("requested"),
    declineReason: text("decline_reason"),
    refundId: text("refund_id"),
    createdAt: createdAt(),
    decidedAt: timestamp("decided_at"),
  },
  (t) => [
    index("return_requests_host_idx").on(t.hostId, t.status),
    /** At most one open request per order. */
    uniqueIndex("return_requests_open_unique")
      .on(t.orderId)
      .where(sql`status = 'requested'`),
  ],
);

/**
 * The local payment provider's own record of the money it moved (decision 400): one row per capture, refund,
 * failed refund, dispute withdrawal and reinstatement, keyed by what it moved ('capture:<session>', 'refund:<re_…>').
 * Only the local provider writes it and nothing in the app reads it: it is what "the provider" holds, for checks.
 */
export const localProviderMovements = sqliteTable(
  "local_provider_movements",
  {
    id: text("id").primaryKey(),
    checkoutSessionId: text("checkout_session_id").notNull(),
    paymentIntentId: text("payment_intent_id").notNull(),
    kind: text("kind", { enum: LOCAL_MOVEMENT_KINDS }).notNull(),
    /** Positive; the kind says which way it moved (LOCAL_MOVEMENT_SIGN). */
    amountCents: cents("amount_cents").notNull(),
    currency: currency(),
    createdAt: createdAt(),
  },
  (t) => [index("local_provider_movements_checkout_idx").on(t.checkoutSessionId)],
);

export type PaymentEvent = typeof paymentEvents.$inferSelect;
export type NewPaymentEvent = typeof paymentEvents.$inferInsert;
export type NewPaymentProcessingFee = typeof paymentProcessingFees.$inferInsert;
export type CheckoutSession = typeof checkoutSessions.$inferSelect;
export type Refund = typeof refunds.$inferSelect;
export type Dispute = typeof disputes.$inferSelect;
export type ReturnRequest = typeof returnRequests.$inferSelect;
export type NewCheckoutSession = typeof checkoutSessions.$inferInsert;
export type LocalProviderMovement = typeof localProviderMovements.$inferSelect;
