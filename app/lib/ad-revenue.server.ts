import { z } from "zod";
import { getDb } from "~/db/client.server";
import { bookAdRevenue, hostExists, insertAdRevenueReport } from "~/db/queries/earnings.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { AD_REVENUE_MESSAGES, customRange } from "~/domain/earnings";
import { parseMoneyToCents } from "~/domain/money";
import { saleShares } from "~/domain/earnings";
import { addContribution } from "./pools.server";
import { recordAudit } from "~/db/queries/admin.server";

// Ad revenue without an ad network: the platform owner records a host's revenue, impressions and clicks for a
// period; it is split by the distribution rules in force (50% host into the earnings ledger, 30% into the host's
// open pool as an ad_revenue contribution, 20% platform, recorded on the ledger row).

const count = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^\d{1,12}$/, message)
    .transform(Number);

export const AdRevenueSchema = z
  .object({
    hostId: z.string({ error: AD_REVENUE_MESSAGES.host }).uuid(AD_REVENUE_MESSAGES.host),
    periodStart: z.string().trim().max(10),
    periodEnd: z.string().trim().max(10),
    amount: z
      .string({ error: AD_REVENUE_MESSAGES.amount })
      .max(20)
      .transform((text, ctx) => {
        const cents = parseMoneyToCents(text);
        if (cents === null || cents <= 0) {
          ctx.addIssue({ code: "custom", message: AD_REVENUE_MESSAGES.amount });
          return z.NEVER;
        }
        return cents;
      }),
    impressions: count(AD_REVENUE_MESSAGES.impressions),
    clicks: count(AD_REVENUE_MESSAGES.clicks),
  })
  .superRefine((v, ctx) => {
    const range = customRange(v.periodStart, v.periodEnd);
    if (!range.ok) ctx.addIssue({ code: "custom", path: ["periodStart"], message: range.message });
    if (v.clicks > v.impressions)
      ctx.addIssue({ code: "custom", path: ["clicks"], message: AD_REVENUE_MESSAGES.clicks });
  });

export type AdRevenueResult =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 409; message: string; fieldErrors: Record<string, string> };

export async function recordAdRevenue(
  env: Env,
  adminId: string,
  form: Record<string, unknown>,
): Promise<AdRevenueResult> {
  const parsed = AdRevenueSchema.safeParse(form);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0] ?? "form")] ??= issue.message;
    return {
      ok: false,
      status: 400,
      message: parsed.error.issues[0]?.message ?? "Please check the form",
      fieldErrors: fields,
    };
  }
  const v = parsed.data;
  const db = getDb(env);
  if (!(await hostExists(db, v.hostId)))
    return {
      ok: false,
      status: 400,
      message: AD_REVENUE_MESSAGES.host,
      fieldErrors: { hostId: AD_REVENUE_MESSAGES.host },
    };
  const report = await insertAdRevenueReport(db, {
    hostId: v.hostId,
    periodStart: v.periodStart,
    periodEnd: v.periodEnd,
    amountCents: v.amount,
    impressions: v.impressions,
    clicks: v.clicks,
    recordedBy: adminId,
  });
  if (!report) return { ok: false, status: 409, message: AD_REVENUE_MESSAGES.duplicate, fieldErrors: {} };
  const rule = (await getRevenueRules(db)).ad_revenue;
  await bookAdRevenue(
    db,
    {
      id: report.id,
      hostId: v.hostId,
      amountCents: v.amount,
      currency: "USD",
      periodStart: v.periodStart,
      periodEnd: v.periodEnd,
      recordedAt: report.createdAt,
    },
    rule,
  );
  const { poolCents } = saleShares(v.amount, rule);
  if (poolCents > 0) {
    await addContribution(env, {
      hostId: v.hostId,
      sourceType: "ad_revenue",
      sourceKey: `ad:${report.id}`,
      amountCents: poolCents,
      currency: "USD",
      userId: null,
      earnsEntry: false,
    });
  }
  await recordAudit(db, {
    adminId,
    action: "ad_revenue_recorded",
    targetUserId: v.hostId,
    detail: {
      reportId: report.id,
      amountCents: v.amount,
      impressions: v.impressions,
      clicks: v.clicks,
      periodStart: v.periodStart,
      periodEnd: v.periodEnd,
    },
  });
  return { ok: true, message: "Ad revenue recorded." };
}
