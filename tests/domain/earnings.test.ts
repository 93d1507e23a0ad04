import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  choosePeriod,
  clickThroughRateText,
  customRange,
  dailySeries,
  DATE_RANGE_MESSAGES,
  periodRange,
  refundShares,
  saleAvailableAt,
  saleShares,
  withdrawalFeeCents,
  type EventShares,
} from "~/domain/earnings";
import {
  DEFAULT_REVENUE_RULES,
  distributePool,
  validateWithdrawal,
  withdrawableBalanceCents,
  type RevenueRule,
} from "~/domain/revenue";
import { earningsCsv } from "~/lib/earnings-csv";
import { parseCsv } from "../support/csv";

const DAY = 86_400_000;

describe("sale and refund shares", () => {
  it("split a sale at the recorded rule, parts adding up to the gross", () => {
    expect(saleShares(1999, DEFAULT_REVENUE_RULES.shop_sales)).toEqual({
      grossCents: 1999,
      poolCents: 200,
      hostCents: 1799,
      platformCents: 0,
    });
    expect(saleShares(1000, DEFAULT_REVENUE_RULES.ad_revenue)).toEqual({
      grossCents: 1000,
      poolCents: 300,
      hostCents: 500,
      platformCents: 200,
    });
    expect(saleShares(300, DEFAULT_REVENUE_RULES.guess_win_entries).hostCents).toBe(0);
  });

  it("a full refund takes back exactly the sale's parts; after the close the host carries the pool's part", () => {
    const sale = saleShares(1999, DEFAULT_REVENUE_RULES.shop_sales);
    expect(refundShares(1999, sale, 0, false)).toEqual({
      grossCents: -1999,
      poolCents: -200,
      hostCents: -1799,
      platformCents: -0,
    });
    expect(refundShares(1999, sale, 0, true)).toEqual({
      grossCents: -1999,
      poolCents: 0,
      hostCents: -1999,
      platformCents: -0,
    });
    // Two halves take back exactly the whole.
    const first = refundShares(1000, sale, 0, false);
    const second = refundShares(999, sale, 1000, false);
    expect(first.poolCents + second.poolCents).toBe(-200);
    expect(first.hostCents + second.hostCents).toBe(-1799);
    expect(() => refundShares(1000, sale, 1000, false)).toThrow(RangeError);
    expect(() => refundShares(0, sale, 0, false)).toThrow(RangeError);
  });
});

describe("pending and available", () => {
  const paid = new Date("2026-03-01T10:00:00Z");
  it("waits for delivery, then for both the 7-day return window and the 14-day refund window", () => {
    expect(saleAvailableAt(paid, null)).toBeNull();
    // Delivered at once (digital): the host's 14-day refund window is the later one.
    expect(saleAvailableAt(paid, paid)?.toISOString()).toBe("2026-03-15T10:00:00.000Z");
    // Delivered on day 10: 7 days after delivery is later.
    expect(saleAvailableAt(paid, new Date(paid.getTime() + 10 * DAY))?.toISOString()).toBe("2026-03-18T10:00:00.000Z");
  });
});

describe("platform fee on withdrawals", () => {
  it("withdrawable = balance minus the 4% fee, rounded in the host's favour", () => {
    expect(withdrawableBalanceCents(10_000)).toBe(9_600);
    expect(withdrawableBalanceCents(-500)).toBe(0);
    expect(withdrawableBalanceCents(10_000, 5)).toBe(9_500);
  });

  it("books the fee so that withdrawing everything withdrawable uses up the balance", () => {
    expect(withdrawalFeeCents(9_600, 10_000)).toBe(400);
    expect(withdrawalFeeCents(96, 99)).toBe(3);
    expect(withdrawalFeeCents(24, 24)).toBe(0);
    expect(() => withdrawalFeeCents(9_601, 10_000)).toThrow(RangeError);
  });

  it("keeps withdrawable = balance - fee after every withdrawal, so many small ones take no more than one (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50_000_000 }),
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(4, 0, 3.5, 10, 60),
        (start, permilles, feePercent) => {
          let balance = start;
          let taken = 0;
          for (const permille of permilles) {
            const withdrawable = withdrawableBalanceCents(balance, feePercent);
            const amount = Math.max(1, Math.floor((withdrawable * permille) / 1000));
            if (amount > withdrawable) break;
            const fee = withdrawalFeeCents(amount, balance, feePercent);
            balance -= amount + fee;
            taken += amount;
            expect(balance).toBeGreaterThanOrEqual(0);
            expect(withdrawableBalanceCents(balance, feePercent)).toBe(withdrawable - amount);
          }
          expect(taken).toBeLessThanOrEqual(withdrawableBalanceCents(start, feePercent));
        },
      ),
    );
  });

  it("answers the withdrawal messages", () => {
    expect(validateWithdrawal("0", 5000)).toEqual({ ok: false, message: "Please enter a valid amount to withdraw" });
    expect(validateWithdrawal("abc", 5000)).toEqual({ ok: false, message: "Please enter a valid amount to withdraw" });
    expect(validateWithdrawal("50.01", 5000)).toEqual({
      ok: false,
      message: "Withdrawal amount cannot exceed your withdrawable balance",
    });
    expect(validateWithdrawal("50", 5000)).toEqual({ ok: true, amountCents: 5000 });
  });
});

// --- the whole ledger, generated ----------------------------------------------------------------------------------

type Step =
  | { t: "sale"; gross: number; rule: number; groupBuy: boolean }
  | { t: "guess"; gross: number }
  | { t: "ad"; gross: number }
  | { t: "refund"; pick: number; permille: number }
  | { t: "dispute"; pick: number }
  | { t: "restore" }
  | { t: "draw" }
  | { t: "withdraw"; permille: number }
  | { t: "fail_withdrawal"; pick: number };

const RULES: RevenueRule[] = [
  DEFAULT_REVENUE_RULES.shop_sales,
  { prizePoolPercent: 12.5, hostPercent: 80, platformFeePercent: 7.5 },
  { prizePoolPercent: 10, hostPercent: 85.55, platformFeePercent: 4.45 },
];

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    t: fc.constant("sale" as const),
    gross: fc.integer({ min: 1, max: 500_000 }),
    rule: fc.integer({ min: 0, max: RULES.length - 1 }),
    groupBuy: fc.boolean(),
  }),
  fc.record({ t: fc.constant("guess" as const), gross: fc.integer({ min: 100, max: 10_000 }) }),
  fc.record({ t: fc.constant("ad" as const), gross: fc.integer({ min: 1, max: 1_000_000 }) }),
  fc.record({ t: fc.constant("refund" as const), pick: fc.nat(), permille: fc.integer({ min: 1, max: 1000 }) }),
  fc.record({ t: fc.constant("dispute" as const), pick: fc.nat() }),
  fc.constant({ t: "restore" as const }),
  fc.constant({ t: "draw" as const }),
  fc.record({ t: fc.constant("withdraw" as const), permille: fc.integer({ min: 1, max: 1000 }) }),
  fc.record({ t: fc.constant("fail_withdrawal" as const), pick: fc.nat() }),
);

interface Sale {
  shares: EventShares;
  refunded: number;
  round: number;
}

describe("the earnings ledger (property-based)", () => {
  it("conserves money to the cent through sales, guesses, ad revenue, refunds, disputes and their restores, group buys, draws and withdrawals; splits each drawn pool 60/25/15; never lets more than the withdrawable balance leave", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 80 }), (steps) => {
        // Ledger rows as the app books them: the host's part (amount) and the event's parts.
        const rows: { kind: string; amount: number; gross: number; pool: number; platform: number }[] = [];
        const sales: Sale[] = [];
        const withdrawals: { amount: number; fee: number; returned: boolean }[] = [];
        let charged = 0;
        let adRevenue = 0;
        let refunded = 0;
        let round = 0;
        let openPool = 0;
        const book = (kind: string, s: EventShares) =>
          rows.push({ kind, amount: s.hostCents, gross: s.grossCents, pool: s.poolCents, platform: s.platformCents });
        const balance = () => rows.reduce((sum, r) => sum + r.amount, 0);

        // Refunds and disputes not restored yet, newest last (a failed refund or a won dispute books their opposite).
        const reversals: { sale: Sale; cents: number; shares: EventShares; round: number }[] = [];
        const refund = (sale: Sale, cents: number) => {
          const closed = sale.round < round;
          const r = refundShares(cents, sale.shares, sale.refunded, closed);
          book("refund", r);
          reversals.push({ sale, cents, shares: r, round });
          sale.refunded += cents;
          refunded += cents;
          openPool += r.poolCents;
          expect(openPool).toBeGreaterThanOrEqual(0);
        };

        for (const step of steps) {
          switch (step.t) {
            case "sale":
            case "guess":
            case "ad": {
              const rule =
                step.t === "sale"
                  ? RULES[step.rule]!
                  : step.t === "guess"
                    ? DEFAULT_REVENUE_RULES.guess_win_entries
                    : DEFAULT_REVENUE_RULES.ad_revenue;
              const shares = saleShares(step.gross, rule);
              book(step.t, shares);
              openPool += shares.poolCents;
              if (step.t === "ad") adRevenue += step.gross;
              else {
                charged += step.gross;
                sales.push({ shares, refunded: 0, round });
              }
              // A finalised group buy: the tier refund is booked with it, at once.
              if (step.t === "sale" && step.groupBuy) refund(sales.at(-1)!, Math.max(1, Math.floor(step.gross / 10)));
              break;
            }
            case "refund":
            case "dispute": {
              const open = sales.filter((s) => s.refunded < s.shares.grossCents);
              const sale = open[step.pick % Math.max(1, open.length)];
              if (!sale) break;
              const left = sale.shares.grossCents - sale.refunded;
              const cents = step.t === "dispute" ? left : Math.max(1, Math.floor((left * step.permille) / 1000));
              refund(sale, cents);
              break;
            }
            case "restore": {
              // The newest refund failed (or the dispute was won) in the same pool round: its exact opposite row.
              const last = reversals.at(-1);
              if (!last || last.round !== round) break;
              reversals.pop();
              const s = last.shares;
              rows.push({
                kind: "refund",
                amount: -s.hostCents,
                gross: -s.grossCents,
                pool: -s.poolCents,
                platform: -s.platformCents,
              });
              last.sale.refunded -= last.cents;
              refunded -= last.cents;
              openPool -= s.poolCents;
              expect(openPool).toBeGreaterThanOrEqual(0);
              break;
            }
            case "draw": {
              const split = distributePool(openPool);
              expect(split.mainPrize + split.hostShare + split.platformShare).toBe(openPool);
              rows.push({ kind: "pool_share", amount: split.hostShare, gross: 0, pool: 0, platform: 0 });
              openPool = 0;
              round++;
              break;
            }
            case "withdraw": {
              const before = balance();
              const withdrawable = withdrawableBalanceCents(before);
              const amount = Math.floor((withdrawable * step.permille) / 1000);
              if (before <= 0) expect(withdrawable).toBe(0);
              if (amount <= 0) break;
              const fee = withdrawalFeeCents(amount, before);
              rows.push({ kind: "withdrawal", amount: -amount, gross: 0, pool: 0, platform: 0 });
              rows.push({ kind: "platform_fee", amount: -fee, gross: 0, pool: 0, platform: fee });
              withdrawals.push({ amount, fee, returned: false });
              expect(balance()).toBeGreaterThanOrEqual(0);
              expect(amount).toBeLessThanOrEqual(withdrawable);
              break;
            }
            case "fail_withdrawal": {
              const open = withdrawals.filter((w) => !w.returned);
              const w = open[step.pick % Math.max(1, open.length)];
              if (!w) break;
              w.returned = true;
              rows.push({ kind: "withdrawal_return", amount: w.amount, gross: 0, pool: 0, platform: 0 });
              rows.push({ kind: "fee_return", amount: w.fee, gross: 0, pool: 0, platform: -w.fee });
              break;
            }
          }
        }

        // charged + ad revenue = refunded + host credits + platform shares + pool contributions
        const money = rows.filter((r) => ["sale", "guess", "ad", "refund"].includes(r.kind));
        const hostCredits = money.reduce((s, r) => s + r.amount, 0);
        const platform = money.reduce((s, r) => s + r.platform, 0);
        const pool = money.reduce((s, r) => s + r.pool, 0);
        expect(charged + adRevenue).toBe(refunded + hostCredits + platform + pool);
        for (const r of money) expect(r.amount + r.pool + r.platform).toBe(r.gross);
        // Money leaving = withdrawals not returned; the fee stays with the platform.
        const out = withdrawals.filter((w) => !w.returned).reduce((s, w) => s + w.amount + w.fee, 0);
        const poolShares = rows.filter((r) => r.kind === "pool_share").reduce((s, r) => s + r.amount, 0);
        expect(balance()).toBe(hostCredits + poolShares - out);
      }),
      { numRuns: 300 },
    );
  });
});

describe("revenue periods", () => {
  const now = new Date("2026-03-18T15:30:00Z");
  it("week is the last 7 days including today, month from day 1, year from 1 January", () => {
    expect(periodRange("week", now)).toEqual({
      start: new Date("2026-03-12T00:00:00Z"),
      end: new Date("2026-03-19T00:00:00Z"),
    });
    expect(periodRange("month", now)).toEqual({
      start: new Date("2026-03-01T00:00:00Z"),
      end: new Date("2026-03-19T00:00:00Z"),
    });
    expect(periodRange("year", now)).toEqual({
      start: new Date("2026-01-01T00:00:00Z"),
      end: new Date("2026-03-19T00:00:00Z"),
    });
    // On the 1st, the month is that one day; on 1 January, the year too.
    const jan1 = new Date("2027-01-01T00:00:00Z");
    expect(periodRange("month", jan1).start).toEqual(jan1);
    expect(periodRange("year", jan1).start).toEqual(jan1);
  });

  it("custom ranges are whole days, both ends included, checked", () => {
    expect(customRange("2026-02-01", "2026-02-28")).toEqual({
      ok: true,
      range: { start: new Date("2026-02-01T00:00:00Z"), end: new Date("2026-03-01T00:00:00Z") },
    });
    expect(customRange("2026-02-30", "2026-03-01")).toEqual({ ok: false, message: DATE_RANGE_MESSAGES.invalid });
    expect(customRange("2026-03-02", "2026-03-01")).toEqual({ ok: false, message: DATE_RANGE_MESSAGES.order });
    expect(customRange("2024-01-01", "2026-01-01")).toEqual({ ok: false, message: DATE_RANGE_MESSAGES.tooLong });
  });

  it("reads the period from the query, defaulting to the month", () => {
    expect(choosePeriod(new URLSearchParams(""), now)).toMatchObject({
      period: "month",
      from: "2026-03-01",
      to: "2026-03-18",
    });
    expect(choosePeriod(new URLSearchParams("period=bogus"), now).period).toBe("month");
    expect(choosePeriod(new URLSearchParams("from=2026-01-05&to=2026-01-06"), now)).toMatchObject({
      period: "custom",
      error: null,
    });
    expect(choosePeriod(new URLSearchParams("from=x&to=y"), now)).toMatchObject({
      period: "custom",
      error: DATE_RANGE_MESSAGES.invalid,
    });
  });

  it("the daily series lists every day of the range", () => {
    const series = dailySeries(periodRange("week", now), new Map([["2026-03-14", 500]]));
    expect(series).toHaveLength(7);
    expect(series[2]).toEqual({ day: "2026-03-14", cents: 500 });
    expect(series[0]).toEqual({ day: "2026-03-12", cents: 0 });
  });
});

describe("earnings CSV", () => {
  it("writes one line per row with plain decimals and the status", () => {
    const now = new Date("2026-03-18T00:00:00Z");
    const csv = earningsCsv(
      [
        {
          kind: "shop_sale",
          description: "Mug, large",
          orderNumber: "ORD-ABC",
          sourceKey: "sale:1",
          grossCents: 1999,
          poolCents: 200,
          platformCents: 0,
          amountCents: 1799,
          currency: "USD",
          occurredAt: new Date("2026-03-02T10:00:00Z"),
          availableAt: Date.parse("2026-03-16T10:00:00Z"),
        },
        {
          kind: "platform_fee",
          description: "=cmd",
          orderNumber: null,
          sourceKey: "fee:p:0",
          grossCents: 0,
          poolCents: 0,
          platformCents: 40,
          amountCents: -40,
          currency: "USD",
          occurredAt: new Date("2026-03-17T10:00:00Z"),
          availableAt: null,
        },
        {
          kind: "shop_sale",
          description: "Poster",
          orderNumber: "ORD-DEF",
          sourceKey: "sale:2",
          grossCents: 500,
          poolCents: 50,
          platformCents: 0,
          amountCents: 450,
          currency: "USD",
          occurredAt: new Date("2026-03-17T11:00:00Z"),
          availableAt: null,
        },
      ],
      now,
    );
    expect(parseCsv(csv)).toEqual([
      [
        "Date",
        "Type",
        "Description",
        "Reference",
        "Gross",
        "Prize Pool",
        "Platform",
        "Your Earnings",
        "Currency",
        "Status",
      ],
      [
        "2026-03-02T10:00:00.000Z",
        "Shop Sale",
        "Mug, large",
        "ORD-ABC",
        "19.99",
        "2.00",
        "0.00",
        "17.99",
        "USD",
        "Available",
      ],
      [
        "2026-03-17T10:00:00.000Z",
        "Platform Fee",
        "'=cmd",
        "fee:p:0",
        "0.00",
        "0.00",
        "0.40",
        "-0.40",
        "USD",
        "Available",
      ],
      ["2026-03-17T11:00:00.000Z", "Shop Sale", "Poster", "ORD-DEF", "5.00", "0.50", "0.00", "4.50", "USD", "Pending"],
    ]);
  });
});

describe("ad metrics", () => {
  it("CTR has one decimal", () => {
    expect(clickThroughRateText(25, 1000)).toBe("2.5");
    expect(clickThroughRateText(1, 3)).toBe("33.3");
    expect(clickThroughRateText(0, 0)).toBe("0.0");
  });
});
