// What a Connect provider is (Stripe Connect, or the local one in connect-local.server.ts), as payouts see it. A leaf:
// it imports no provider, so a provider and the code that picks one (connect.server.ts) never import each other.

export interface ConnectAccountInput {
  userId: string;
  email: string;
  /** Two-letter country, when known. */
  country: string | null;
}

export interface TransferInput {
  amountCents: number;
  currency: string;
  destination: string;
  /** The payout request id (a retry: `<id>-retry-<n>`): Stripe returns the same transfer for the same key. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** A transfer the provider refused (the message is shown to the user). */
export class TransferRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TransferRefusedError";
  }
}

export interface ConnectProvider {
  readonly name: "stripe" | "local";
  createExpressAccount(input: ConnectAccountInput): Promise<{ accountId: string }>;
  /** A one-time onboarding address for the account; the browser returns to `returnUrl`. */
  createOnboardingLink(accountId: string, returnUrl: string, refreshUrl: string): Promise<{ url: string }>;
  /** Creates the transfer (idempotent per key), or throws TransferRefusedError. */
  createTransfer(input: TransferInput): Promise<{ id: string }>;
}
