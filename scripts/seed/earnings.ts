// The hosts' earnings ledger for sales and guesses, and the platform settings (the revenue rules and the seed's
// marker).
import { guessEntryEarning, shopSaleEarning } from "../../app/domain/earnings";
import { DEFAULT_REVENUE_RULES, REVENUE_RULES_SETTING_KEY } from "../../app/domain/revenue";
import { parseRevenueRulesForm } from "../../app/domain/revenue-settings";
import type { Rows } from "./context";
import { NOW } from "./random";

/** Bump when the demo data changes shape; a database holding any version is left alone. */
const SEED_VERSION = 1;
export const SEED_MARKER_KEY = "seed_version";

/**
 * One row per paid buy-now order and per paid guess, built by the same functions the app books them with
 * (domain/earnings.ts). Every seeded order is paid; group-buy orders stay Pending until their group buy is finalised.
 */
export function addSaleEarnings(rows: Rows): void {
  for (const order of rows.orders) {
    if (order.purchaseMode === "group-buy") continue;
    rows.earningsLedger.push(
      shopSaleEarning(
        {
          id: order.id!,
          hostId: order.hostId,
          amountCents: order.amountCents,
          currency: order.currency ?? "USD",
          productName: order.productName ?? "",
          productCategory: order.productCategory ?? "physical",
          paidAt: order.createdAt!,
        },
        DEFAULT_REVENUE_RULES.shop_sales,
      ),
    );
  }
  const gameById = new Map(rows.guessWinGames.map((g) => [g.id!, g]));
  for (const p of rows.guessWinParticipants) {
    const game = gameById.get(p.gameId);
    if (!game || p.kind !== "paid" || p.paymentStatus !== "paid" || !p.entryFeeCents) continue;
    rows.earningsLedger.push(
      guessEntryEarning(
        {
          guessId: p.id!,
          hostId: game.hostId,
          amountCents: p.entryFeeCents,
          currency: "USD",
          question: game.question,
          paidAt: p.createdAt!,
        },
        DEFAULT_REVENUE_RULES.guess_win_entries,
      ),
    );
  }
}

/** The default revenue rules as the admin's form saves them, and the marker (written in the same batch as the data). */
export function addPlatformSettings(rows: Rows): void {
  const shares = { pool: "prizePoolPercent", host: "hostPercent", platform: "platformFeePercent" } as const;
  const form = parseRevenueRulesForm((field) => {
    const [source, share] = field.split(".") as [keyof typeof DEFAULT_REVENUE_RULES, keyof typeof shares];
    return String(DEFAULT_REVENUE_RULES[source][shares[share]]);
  });
  if (!form.ok) throw new Error(`Seed: the default revenue rules do not validate: ${JSON.stringify(form.errors)}`);
  rows.platformSettings.push({ settingKey: REVENUE_RULES_SETTING_KEY, settingValue: form.setting });
  // The marker goes in the same transaction as the data: a seed either happened completely or not at all.
  rows.platformSettings.push({
    settingKey: SEED_MARKER_KEY,
    settingValue: { version: SEED_VERSION, seededAt: new Date(NOW).toISOString() },
  });
}
