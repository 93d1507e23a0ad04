import Stripe from "stripe";
import { isLocalPaymentsEnabled, PaymentsNotConfiguredError } from "../providers/provider.server";
import { createLocalConnectProvider } from "./connect-local.server";
import { TransferRefusedError, type ConnectProvider } from "./connect-types";
import { createStripeClient } from "../providers/stripe.server";

// Stripe Connect for payouts: hosts and winners get an Express account, finish Stripe's onboarding, and we transfer
// money to it; Stripe then pays it out to their bank on its schedule. Connect events (account.updated,
// transfer.*, payout.*) arrive on their own endpoint with their own signing secret. Without a Stripe key (demo
// mode) the local provider simulates all of it offline and sends the same signed events.

/** The signing secret of the local provider's Connect events (used only without a Stripe key, in demo mode). */
export const LOCAL_CONNECT_WEBHOOK_SECRET = "whsec_local_connect_development_only_not_a_real_secret";

type ConnectEnv = Pick<Env, "DEMO_MODE" | "STRIPE_SECRET_KEY" | "STRIPE_CONNECT_WEBHOOK_SECRET">;

/** STRIPE_CONNECT_WEBHOOK_SECRET, else (local payments only) the fixed local secret; null: events cannot be verified. */
export function connectWebhookSecret(env: ConnectEnv): string | null {
  if (env.STRIPE_CONNECT_WEBHOOK_SECRET) return env.STRIPE_CONNECT_WEBHOOK_SECRET;
  return isLocalPaymentsEnabled(env) ? LOCAL_CONNECT_WEBHOOK_SECRET : null;
}

export function getConnectProvider(env: ConnectEnv, origin: string, httpClient?: Stripe.HttpClient): ConnectProvider {
  if (env.STRIPE_SECRET_KEY) return createStripeConnectProvider(createStripeClient(env.STRIPE_SECRET_KEY, httpClient));
  if (isLocalPaymentsEnabled(env)) return createLocalConnectProvider(origin);
  throw new PaymentsNotConfiguredError();
}

function createStripeConnectProvider(stripe: Stripe): ConnectProvider {
  return {
    name: "stripe",
    async createExpressAccount(input) {
      const account = await stripe.accounts.create(
        {
          type: "express",
          email: input.email,
          ...(input.country ? { country: input.country } : {}),
          capabilities: { transfers: { requested: true } },
          metadata: { user_id: input.userId },
        },
        { idempotencyKey: `connect-account-${input.userId}` },
      );
      return { accountId: account.id };
    },
    async createOnboardingLink(accountId, returnUrl, refreshUrl) {
      const link = await stripe.accountLinks.create({
        account: accountId,
        type: "account_onboarding",
        return_url: returnUrl,
        refresh_url: refreshUrl,
      });
      return { url: link.url };
    },
    async createTransfer(input) {
      try {
        const transfer = await stripe.transfers.create(
          {
            amount: input.amountCents,
            currency: input.currency.toLowerCase(),
            destination: input.destination,
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return { id: transfer.id };
      } catch (error) {
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError ||
          error instanceof Stripe.errors.StripeCardError
        ) {
          throw new TransferRefusedError(
            /insufficient/i.test(error.message)
              ? "Insufficient funds in platform account"
              : "Failed to initiate payout",
          );
        }
        throw error;
      }
    },
  };
}
