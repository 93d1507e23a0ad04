import Stripe from "stripe";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { tellBankPayoutFailed, tellPayoutOutcome } from "./payout-notices.server";
import {
  applyAccountUpdate,
  recordConnectEvent,
  setConnectEventOutcome,
  applyPayoutEvent,
  getPayout,
  getPayoutByTransfer,
  recordBankPayout,
} from "~/db/queries/payouts.server";
import type { Payout } from "~/db/schema";
import { connectWebhookSecret } from "./connect.server";
import { localConnectEvent, signedConnectRequest } from "./connect-local.server";

// Stripe Connect events, verified with their own signing secret (STRIPE_CONNECT_WEBHOOK_SECRET) and applied once
// each (recorded by event id). Each handler is also safe out of order:
// - account.updated: applied only if no newer account event was applied (by the event's `created` time);
// - transfer.reversed: fails the payout of that transfer (from processing or completed) and returns its money,
//   only for the transfer of the payout's current attempt;
// - transfer.created: completes a payout whose transfer call answered but whose completion was not recorded;
// - payout.paid / payout.failed: the bank payout's status, shown for information; a failed one is told once.

export const CONNECT_TOLERANCE_SECONDS = 300;
const cryptoProvider = Stripe.createSubtleCryptoProvider();

const EventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: z.number().int().nonnegative(),
  account: z.string().max(255).nullish(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
type ConnectEvent = z.infer<typeof EventSchema>;

const AccountSchema = z.object({
  id: z.string().min(1),
  payouts_enabled: z.boolean().nullish(),
  country: z.string().nullish(),
  external_accounts: z
    .object({ data: z.array(z.object({ bank_name: z.string().nullish(), last4: z.string().nullish() }).passthrough()) })
    .nullish(),
});
const TransferSchema = z.object({ id: z.string().min(1), metadata: z.record(z.string(), z.string()).nullish() });
const BankPayoutSchema = z.object({
  id: z.string().min(1),
  arrival_date: z.number().int().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  failure_message: z.string().nullish(),
});

export type ConnectWebhookResult = { status: 200 | 400 | 500; body: Record<string, unknown> };

/** Verifies a delivery to /api/webhooks/stripe-connect and applies its event. */
export async function handleConnectWebhook(
  env: Env,
  body: string,
  signature: string | null | undefined,
): Promise<ConnectWebhookResult> {
  const secret = connectWebhookSecret(env);
  if (!secret) return { status: 500, body: { error: "Connect webhook secret not configured" } };
  if (!signature) return { status: 400, body: { error: "Missing Stripe-Signature header" } };
  let raw: unknown;
  try {
    raw = await Stripe.webhooks.constructEventAsync(body, signature, secret, CONNECT_TOLERANCE_SECONDS, cryptoProvider);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      return { status: 400, body: { error: "Invalid signature" } };
    return { status: 200, body: { received: true, ignored: "malformed payload" } };
  }
  const parsed = EventSchema.safeParse(raw);
  if (!parsed.success) return { status: 200, body: { received: true, ignored: "malformed event" } };
  return applyConnectEvent(env, parsed.data);
}

async function applyConnectEvent(env: Env, event: ConnectEvent): Promise<ConnectWebhookResult> {
  const db = getDb(env);
  const fresh = await recordConnectEvent(db, event.id, event.type);
  if (!fresh) return { status: 200, body: { received: true, duplicate: true } };
  try {
    const note = await dispatch(env, event);
    await setConnectEventOutcome(db, event.id, note ? "ignored" : "processed", note);
    return { status: 200, body: { received: true, ...(note ? { ignored: note } : {}) } };
  } catch (error) {
    console.error("connect webhook: event failed", { id: event.id, type: event.type, error });
    await setConnectEventOutcome(db, event.id, "failed", error instanceof Error ? error.message : String(error));
    return { status: 500, body: { error: "Temporary failure; please retry" } };
  }
}

/** Applies one event; returns a note when it was ignored. */
async function dispatch(env: Env, event: ConnectEvent): Promise<string | null> {
  const db = getDb(env);
  const now = new Date();
  const object = event.data.object;
  switch (event.type) {
    case "account.updated": {
      const account = AccountSchema.safeParse(object);
      if (!account.success) return "malformed account";
      const bank = account.data.external_accounts?.data[0];
      const applied = await applyAccountUpdate(db, {
        accountId: account.data.id,
        eventAt: new Date(event.created * 1000),
        payoutsEnabled: account.data.payouts_enabled === true,
        bankName: bank?.bank_name ?? null,
        last4: bank?.last4 ?? null,
        country: account.data.country ? account.data.country.toUpperCase() : null,
      });
      return applied ? null : "unknown account or an older event";
    }
    case "transfer.reversed": {
      const transfer = TransferSchema.safeParse(object);
      if (!transfer.success) return "malformed transfer";
      const payout = await getPayoutByTransfer(db, transfer.data.id);
      if (!payout) return "no payout for this transfer";
      const done = await applyPayoutEvent(db, payout, "transfer_reversed", now, {
        matchTransferId: transfer.data.id,
        failureReason: "The transfer was reversed",
      });
      await tellPayoutOutcome(env, done);
      return done ? null : "payout not in a reversible state";
    }
    case "transfer.created": {
      const transfer = TransferSchema.safeParse(object);
      if (!transfer.success) return "malformed transfer";
      const payoutId = transfer.data.metadata?.payout_id;
      const payout = payoutId ? await getPayout(db, payoutId) : undefined;
      if (!payout) return "no payout for this transfer";
      if (payout.status !== "processing" || String(payout.attempt) !== (transfer.data.metadata?.attempt ?? "0"))
        return "already settled";
      const done = await applyPayoutEvent(db, payout, "transfer_created", now, { transferId: transfer.data.id });
      await tellPayoutOutcome(env, done);
      return done ? null : "already settled";
    }
    case "payout.paid":
    case "payout.failed": {
      const bank = BankPayoutSchema.safeParse(object);
      if (!bank.success || !event.account) return "malformed payout";
      const recorded = await recordBankPayout(
        db,
        { payoutId: bank.data.metadata?.payout_request_id, accountId: event.account },
        {
          id: bank.data.id,
          status: event.type === "payout.paid" ? "paid" : "failed",
          arrivalAt: bank.data.arrival_date ? new Date(bank.data.arrival_date * 1000) : null,
        },
      );
      if (recorded) await tellBankPayoutFailed(env, recorded);
      return recorded ? null : "no payout to record it on";
    }
    default:
      return `unhandled event type ${event.type}`;
  }
}

/**
 * The local provider's bank payout after a completed transfer: a signed `payout.paid` event for the connected
 * account, delivered to the Connect webhook handler in-process (Stripe would pay out on its schedule).
 */
export async function simulateLocalBankPayout(env: Env, origin: string, payout: Payout): Promise<void> {
  if (!payout.connectedAccountId) return;
  const arrival = payout.estimatedArrivalAt ?? new Date();
  const event = localConnectEvent(
    "payout.paid",
    {
      id: `po_local_${payout.id.replace(/-/g, "").slice(0, 20)}_${payout.attempt}`,
      object: "payout",
      amount: payout.amountCents,
      currency: payout.currency.toLowerCase(),
      arrival_date: Math.floor(arrival.getTime() / 1000),
      status: "paid",
      metadata: { payout_request_id: payout.id },
    },
    payout.connectedAccountId,
  );
  await deliverLocalConnectEvent(env, origin, event);
}

/** Signs a local Connect event and applies it through the same verification as a delivery from Stripe. */
export async function deliverLocalConnectEvent(
  env: Env,
  origin: string,
  event: unknown,
): Promise<ConnectWebhookResult> {
  const secret = connectWebhookSecret(env);
  if (!secret) throw new Error("local Connect events need demo mode without a Stripe key");
  const request = await signedConnectRequest(origin, event, secret);
  return handleConnectWebhook(env, await request.text(), request.headers.get("Stripe-Signature"));
}
