import { describe, expect, it } from "vitest";
import { drawMiniPrizes, miniPrizeCandidates, miniPrizeQuantity } from "~/domain/mini-prizes";
import {
  eventReturnsMoney,
  PAYOUT_EVENTS,
  PAYOUT_MESSAGES,
  PAYOUT_STATUS_VALUES,
  payoutEventFrom,
  payoutEventTo,
  payoutMethodProblem,
  transferIdempotencyKey,
  withdrawalFailedText,
  type PayoutEvent,
  type PayoutStatus,
} from "~/domain/payouts";

describe("payout state machine", () => {
  const allowed: Record<string, PayoutStatus> = {
    "pending/start": "processing",
    "processing/transfer_created": "completed",
    "processing/transfer_failed": "failed",
    "processing/transfer_reversed": "failed",
    "completed/transfer_reversed": "failed",
    "pending/cancel": "cancelled",
    "failed/retry": "pending",
    "pending/settle_manually": "completed",
    "failed/settle_manually": "completed",
  };

  it("allows exactly the payout transitions (cancel pending, retry failed, reversal fails a completed payout, an unpaid prize settled by hand)", () => {
    for (const status of PAYOUT_STATUS_VALUES) {
      for (const event of PAYOUT_EVENTS) {
        const next = payoutEventFrom(event).includes(status) ? payoutEventTo(event) : null;
        expect(next, `${status}/${event}`).toBe(allowed[`${status}/${event}`] ?? null);
      }
    }
  });

  it("returns the money on cancel, refusal and reversal only", () => {
    const returns = PAYOUT_EVENTS.filter((e: PayoutEvent) => eventReturnsMoney(e));
    expect(returns.sort()).toEqual(["cancel", "transfer_failed", "transfer_reversed"]);
  });

  it("uses the request id as the transfer's idempotency key, a new one per retry", () => {
    expect(transferIdempotencyKey("p1", 0)).toBe("p1");
    expect(transferIdempotencyKey("p1", 2)).toBe("p1-retry-2");
  });

  it("needs a default, verified method (the payout messages)", () => {
    expect(payoutMethodProblem(null)).toBe("No payout method configured for winner");
    expect(payoutMethodProblem({ verified: false, isDefault: true })).toBe("Payout method not verified");
    expect(payoutMethodProblem({ verified: true, isDefault: true })).toBeNull();
    expect(withdrawalFailedText(PAYOUT_MESSAGES.unavailable)).toBe("Withdrawal failed: Payout temporarily unavailable");
  });
});

describe("mini prize draw", () => {
  const hash = "00000000000000000002a7c4c1e48d76c5a37902165a270156b7a8d72728a054";
  const entries = Array.from({ length: 12 }, (_, n) => ({ userId: `fan-${n % 8}`, entryNumber: n }));

  it("candidates are one per fan (lowest entry), without the main winner or void entries", () => {
    const candidates = miniPrizeCandidates([...entries, { userId: "fan-9", entryNumber: 12, void: true }], "fan-3");
    expect(candidates.map((c) => c.userId)).toEqual(["fan-0", "fan-1", "fan-2", "fan-4", "fan-5", "fan-6", "fan-7"]);
    expect(candidates[0]).toEqual({ userId: "fan-0", entryNumber: 0 });
  });

  it("is reproducible from the block hash, with distinct winners per prize and 'unlimited' for everyone", async () => {
    const candidates = miniPrizeCandidates(entries, "fan-3");
    const prizes = [{ quantityText: "3" }, { quantityText: "unlimited" }, { quantityText: "50" }];
    const first = await drawMiniPrizes(hash, prizes, candidates);
    const again = await drawMiniPrizes(hash.toUpperCase(), prizes, candidates);
    expect(again).toEqual(first);
    const byPrize = (i: number) => first.filter((a) => a.prizeIndex === i).map((a) => a.userId);
    expect(byPrize(0)).toHaveLength(3);
    expect(new Set(byPrize(0)).size).toBe(3);
    expect(byPrize(1).sort()).toEqual(candidates.map((c) => c.userId).sort());
    expect(byPrize(2)).toHaveLength(candidates.length);
    expect(first.every((a) => a.userId !== "fan-3")).toBe(true);
    // Another block gives another draw.
    const other = await drawMiniPrizes(hash.replace(/4$/, "5"), prizes, candidates);
    expect(other.filter((a) => a.prizeIndex === 0).map((a) => a.userId)).not.toEqual(byPrize(0));
  });

  it("reads quantities like the profile does", () => {
    expect(miniPrizeQuantity(" 10 ")).toBe(10);
    expect(miniPrizeQuantity("unlimited")).toBe("unlimited");
    expect(miniPrizeQuantity("")).toBe("unlimited");
  });

  it("refuses a hash that is not 64 hex digits", async () => {
    await expect(drawMiniPrizes("xyz", [], [])).rejects.toThrow("Invalid hexadecimal hash");
  });
});
