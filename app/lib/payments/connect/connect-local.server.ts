import { eventEnvelope } from "~/lib/stripe-event";
import { TransferRefusedError, type ConnectProvider } from "./connect-types";
import { randomId, signPayload } from "../providers/local.server";

// The local Connect provider: Express accounts, onboarding, transfers and bank payouts simulated offline. The
// onboarding page (/payouts/local-onboarding/:account) and the transfer step send Stripe-format signed events to
// the Connect webhook handler, so the real event code runs. No money moves.

export const LOCAL_ONBOARDING_PATH = "/payouts/local-onboarding";
/** A transfer of exactly this amount (USD 13.13) is refused, so the failure path can be tried by hand. */
export const LOCAL_REFUSED_TRANSFER_CENTS = 1313;

export function createLocalConnectProvider(origin: string): ConnectProvider {
  return {
    name: "local",
    async createExpressAccount() {
      return { accountId: randomId("acct_local_", 16) };
    },
    async createOnboardingLink(accountId, returnUrl) {
      const url = new URL(`${origin}${LOCAL_ONBOARDING_PATH}/${encodeURIComponent(accountId)}`);
      url.searchParams.set("return", new URL(returnUrl).pathname);
      return { url: url.toString() };
    },
    async createTransfer(input) {
      if (input.amountCents === LOCAL_REFUSED_TRANSFER_CENTS) {
        throw new TransferRefusedError("Payout temporarily unavailable");
      }
      // Stable per idempotency key, like Stripe's: the same key gives the same transfer.
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(input.idempotencyKey));
      const hex = [...new Uint8Array(digest)]
        .slice(0, 12)
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
      return { id: `tr_local_${hex}` };
    },
  };
}

/** A Stripe-format Connect event (`account` is the connected account it concerns, as Stripe sets it). */
export function localConnectEvent(type: string, object: Record<string, unknown>, account?: string) {
  return eventEnvelope(type, object, randomId("evt_local_"), account);
}

/** The `account` object of an `account.updated` event for a local account. */
export function localAccountObject(
  accountId: string,
  opts: { payoutsEnabled: boolean; holderName: string; country: string },
) {
  return {
    id: accountId,
    object: "account",
    type: "express",
    country: opts.country,
    payouts_enabled: opts.payoutsEnabled,
    charges_enabled: false,
    details_submitted: opts.payoutsEnabled,
    business_profile: { name: opts.holderName },
    external_accounts: {
      object: "list",
      data: [
        {
          id: randomId("ba_local_", 16),
          object: "bank_account",
          bank_name: "Local Test Bank",
          last4: "6789",
          default_for_currency: true,
        },
      ],
    },
  };
}

/** A signed request as Stripe would POST it to /api/webhooks/stripe-connect. */
export async function signedConnectRequest(origin: string, event: unknown, secret: string): Promise<Request> {
  const payload = JSON.stringify(event, null, 2);
  // Delivered in-process, so the address only has to be well formed (the cron has no request origin).
  return new Request(new URL("/api/webhooks/stripe-connect", origin || "http://localhost"), {
    method: "POST",
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Stripe-Signature": await signPayload(payload, secret),
    },
    body: payload,
  });
}
