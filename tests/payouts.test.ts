import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookEarning, hostBalances, relatedLedgerRows } from "~/db/queries/earnings.server";
import { createWithdrawal, getPayout } from "~/db/queries/payouts.server";
import {
  adminAuditLog,
  earningsLedger,
  orders,
  paymentEvents,
  payoutMethods,
  payouts,
  prizePoolContributions,
  prizePools,
  products,
} from "~/db/schema";
import { withdrawalFeeCents } from "~/domain/earnings";
import { withdrawableBalanceCents } from "~/domain/revenue";
import { localAccountObject, localConnectEvent } from "~/lib/payments/connect/connect-local.server";
import { cancelPayout, processPayout, requestWithdrawal, retryPayout } from "~/lib/payments/connect/payouts.server";
import { db, get, makeUser, ORIGIN, postForm, signIn } from "./helpers";
import { deliverConnectWebhook, deliverWebhook } from "./support/webhooks";

const DAY = 86_400_000;

/** A host with `availableCents` of earnings already available (an ad revenue row from last week). */
async function hostWithBalance(availableCents: number) {
  const host = await makeUser({ name: "Earner" });
  await bookEarning(db(), {
    hostId: host.id,
    kind: "ad_revenue",
    sourceKey: `test-credit:${crypto.randomUUID()}`,
    amountCents: availableCents,
    grossCents: availableCents * 2,
    poolCents: Math.floor(availableCents * 0.6),
    platformCents: availableCents * 2 - availableCents - Math.floor(availableCents * 0.6),
    description: "Test ad revenue",
    availableAt: new Date(Date.now() - 7 * DAY),
    occurredAt: new Date(Date.now() - 7 * DAY),
  });
  return host;
}

/** Gives the user a verified, default Connect account through the Connect webhook (as onboarding would). */
async function verifiedAccount(userId: string, created = Math.floor(Date.now() / 1000)) {
  const accountId = `acct_local_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
  await db()
    .insert(payoutMethods)
    .values({ userId, holderName: "Earner", accountLast4: "", bankName: "", connectedAccountId: accountId });
  const event = {
    ...localConnectEvent(
      "account.updated",
      localAccountObject(accountId, { payoutsEnabled: true, holderName: "Earner", country: "US" }),
      accountId,
    ),
    created,
  };
  const res = await deliverConnectWebhook(event);
  expect(res.status).toBe(200);
  return accountId;
}

async function ledgerKinds(hostId: string) {
  const rows = await db().select().from(earningsLedger).where(eq(earningsLedger.hostId, hostId));
  return rows.map((r) => `${r.kind}:${r.amountCents}`).sort();
}

describe("payout methods through Stripe Connect (local provider)", () => {
  it("onboards a host: Express account, onboarding page, account.updated makes the method verified and default", async () => {
    const host = await makeUser({ name: "Onboarder" });
    const cookie = await signIn(host.email);
    const start = await postForm("/payouts", { intent: "connect" }, { cookie });
    expect(start.status).toBe(302);
    const location = new URL(start.headers.get("Location")!);
    expect(location.pathname).toMatch(/^\/payouts\/local-onboarding\/acct_local_/);
    const [pending] = await db().select().from(payoutMethods).where(eq(payoutMethods.userId, host.id));
    expect(pending).toMatchObject({ verified: false, isDefault: false });

    // Someone else cannot open this account's onboarding.
    const other = await makeUser();
    expect((await get(location.pathname, { cookie: await signIn(other.email) })).status).toBe(404);

    const page = await get(`${location.pathname}${location.search}`, { cookie });
    expect(page.status).toBe(200);
    const done = await postForm(
      location.pathname,
      { outcome: "complete", country: "us", back: "/payouts" },
      { cookie },
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/payouts");
    const [method] = await db().select().from(payoutMethods).where(eq(payoutMethods.userId, host.id));
    expect(method).toMatchObject({
      verified: true,
      isDefault: true,
      bankName: "Local Test Bank",
      accountLast4: "6789",
      country: "US",
    });
    const list = await (await get("/payouts", { cookie })).text();
    expect(list).toContain("Verified");
    expect(list).toContain("•••• 6789");
  });

  it("applies account.updated once and never lets an older event undo a newer one", async () => {
    const host = await makeUser();
    const t = Math.floor(Date.now() / 1000);
    const accountId = await verifiedAccount(host.id, t);
    const older = {
      ...localConnectEvent(
        "account.updated",
        localAccountObject(accountId, { payoutsEnabled: false, holderName: "x", country: "US" }),
        accountId,
      ),
      created: t - 60,
    };
    const res = await deliverConnectWebhook(older);
    expect(await res.json()).toMatchObject({ received: true, ignored: "unknown account or an older event" });
    const [method] = await db().select().from(payoutMethods).where(eq(payoutMethods.connectedAccountId, accountId));
    expect(method).toMatchObject({ verified: true, isDefault: true });
    // A replay of the same event id is a duplicate.
    expect(await (await deliverConnectWebhook(older)).json()).toMatchObject({ duplicate: true });
    // A newer event disabling payouts wins and removes the default.
    const newer = {
      ...localConnectEvent(
        "account.updated",
        localAccountObject(accountId, { payoutsEnabled: false, holderName: "x", country: "US" }),
        accountId,
      ),
      created: t + 60,
    };
    await deliverConnectWebhook(newer);
    const [after] = await db().select().from(payoutMethods).where(eq(payoutMethods.connectedAccountId, accountId));
    expect(after).toMatchObject({ verified: false, isDefault: false });
  });

  it("refuses unsigned or wrongly signed Connect events, and the payment webhook's secret", async () => {
    const event = localConnectEvent("account.updated", { id: "acct_x" });
    expect((await deliverConnectWebhook(event, { secret: "whsec_wrong" })).status).toBe(400);
    expect(
      (await deliverConnectWebhook(event, { secret: "whsec_local_development_only_not_a_real_secret" })).status,
    ).toBe(400);
    const res = await SELF.fetch(`${ORIGIN}/api/webhooks/stripe-connect`, {
      method: "POST",
      body: JSON.stringify(event),
    });
    expect(res.status).toBe(400);
  });
});

describe("withdrawals", () => {
  it("answers the product's messages and changes nothing on bad input", async () => {
    const host = await hostWithBalance(10_000);
    const cookie = await signIn(host.email);
    const noMethod = await postForm("/revenue-management", { intent: "withdraw", amount: "10" }, { cookie });
    expect(noMethod.status).toBe(400);
    expect(await noMethod.text()).toContain("Please add a verified payout method before withdrawing.");
    await verifiedAccount(host.id);
    for (const [amount, message] of [
      ["0", "Please enter a valid amount to withdraw"],
      ["-5", "Please enter a valid amount to withdraw"],
      ["abc", "Please enter a valid amount to withdraw"],
      ["96.01", "Withdrawal amount cannot exceed your withdrawable balance"],
    ] as const) {
      const res = await postForm("/revenue-management", { intent: "withdraw", amount }, { cookie });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
    }
    expect(await ledgerKinds(host.id)).toEqual(["ad_revenue:10000"]);
  });

  it("withdraws the whole withdrawable balance: completed with a transfer, the fee booked once, the bank payout shown", async () => {
    const host = await hostWithBalance(10_000);
    const cookie = await signIn(host.email);
    await verifiedAccount(host.id);
    const page = await (await get("/revenue-management", { cookie })).text();
    expect(page).toContain("USD 100.00");
    expect(page).toContain("USD 96.00");
    const res = await postForm("/revenue-management", { intent: "withdraw", amount: "96" }, { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Withdrawal of USD 96.00 sent");
    expect(html).toContain("Estimated arrival");
    const [payout] = await db().select().from(payouts).where(eq(payouts.userId, host.id));
    expect(html).toContain(payout!.id);
    expect(payout).toMatchObject({
      status: "completed",
      amountCents: 9600,
      feeCents: 400,
      payoutType: "host_earnings",
      bankPayoutStatus: "paid",
    });
    expect(payout!.transferId).toMatch(/^tr_local_/);
    expect(await ledgerKinds(host.id)).toEqual(["ad_revenue:10000", "platform_fee:-400", "withdrawal:-9600"]);
    const balances = await hostBalances(db(), host.id, new Date());
    expect(balances.availableCents).toBe(0);
    const history = await (await get("/payouts", { cookie })).text();
    expect(history).toContain("Completed");
    expect(history).toContain("Paid");
  });

  it("lets at most the withdrawable balance leave when requests race", async () => {
    const host = await hostWithBalance(10_000);
    await verifiedAccount(host.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => requestWithdrawal(env, ORIGIN, host.id, "40")));
    const ok = results.filter((r) => r.ok);
    expect(ok.length).toBe(2);
    for (const r of results.filter((r) => !r.ok)) {
      expect(r).toMatchObject({ message: "Withdrawal amount cannot exceed your withdrawable balance" });
    }
    const balances = await hostBalances(db(), host.id, new Date());
    expect(balances.availableCents).toBeGreaterThanOrEqual(0);
    const out = await db().select().from(payouts).where(eq(payouts.userId, host.id));
    expect(out.reduce((s, p) => s + p.amountCents + p.feeCents, 0)).toBeLessThanOrEqual(10_000);
    // withdrawable = balance - fee still holds.
    expect(withdrawableBalanceCents(balances.availableCents)).toBe(9_600 - 8_000);
  });

  it("a negative balance blocks withdrawals", async () => {
    const host = await hostWithBalance(1_000);
    await verifiedAccount(host.id);
    await bookEarning(db(), {
      hostId: host.id,
      kind: "refund",
      sourceKey: `test-dispute:${crypto.randomUUID()}`,
      amountCents: -3_000,
      grossCents: -3_000,
      availableAt: new Date(),
      occurredAt: new Date(),
    });
    const result = await requestWithdrawal(env, ORIGIN, host.id, "1");
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      message: "Your balance is negative: withdrawals resume once new earnings cover it.",
    });
  });
});

describe("payout transitions", () => {
  async function pendingWithdrawal(amountCents = 5_000) {
    const host = await hostWithBalance(10_000);
    const accountId = await verifiedAccount(host.id);
    const [method] = await db().select().from(payoutMethods).where(eq(payoutMethods.userId, host.id));
    const id = crypto.randomUUID();
    const feeCents = withdrawalFeeCents(amountCents, 10_000);
    const created = await createWithdrawal(db(), {
      id,
      hostId: host.id,
      amountCents,
      feeCents,
      currency: "USD",
      methodId: method!.id,
      accountId,
      now: new Date(),
    });
    expect(created).toBe(true);
    return { host, id, accountId, feeCents };
  }

  it("cancels a pending request once and returns its amount and fee", async () => {
    const { host, id } = await pendingWithdrawal();
    expect(await cancelPayout(env, host.id, id)).toEqual({ ok: true });
    expect(await cancelPayout(env, host.id, id)).toMatchObject({ ok: false, status: 409 });
    const other = await makeUser();
    expect(await cancelPayout(env, other.id, id)).toMatchObject({ ok: false, status: 404 });
    expect((await getPayout(db(), id))!.status).toBe("cancelled");
    expect((await hostBalances(db(), host.id, new Date())).availableCents).toBe(10_000);
  });

  it("a refused transfer fails and returns the money; a retry takes it again and completes with a new transfer key", async () => {
    const host = await hostWithBalance(10_000);
    await verifiedAccount(host.id);
    const refused = await requestWithdrawal(env, ORIGIN, host.id, "13.13");
    expect(refused.ok && refused.payout).toMatchObject({
      status: "failed",
      failureReason: "Payout temporarily unavailable",
      transferId: null,
    });
    const id = refused.ok ? refused.payout.id : "";
    expect((await hostBalances(db(), host.id, new Date())).availableCents).toBe(10_000);
    // A cancelled or completed payout cannot be retried; a failed one can.
    const retried = await retryPayout(env, ORIGIN, host.id, id);
    // The local provider refuses 13.13 every time: failed again, money returned again, attempt counted.
    expect(retried.ok && retried.payout).toMatchObject({ status: "failed", attempt: 1 });
    expect((await hostBalances(db(), host.id, new Date())).availableCents).toBe(10_000);
    expect(await retryPayout(env, ORIGIN, (await makeUser()).id, id)).toMatchObject({
      ok: false,
      message: "Payout request not found or not in failed state",
    });
  });

  it("transfer.reversed fails a completed payout once (replayed 5 times) and returns amount and fee; a retry pays again", async () => {
    const { host, id } = await pendingWithdrawal();
    const done = await processPayout(env, ORIGIN, id);
    expect(done).toMatchObject({ status: "completed" });
    const reversal = localConnectEvent("transfer.reversed", {
      id: done!.transferId,
      object: "transfer",
      metadata: { payout_id: id },
    });
    for (let i = 0; i < 5; i++) expect((await deliverConnectWebhook(reversal)).status).toBe(200);
    // The same reversal under new event ids (Stripe may resend) changes nothing more either.
    await deliverConnectWebhook({ ...reversal, id: `evt_again_${crypto.randomUUID()}` });
    const failed = await getPayout(db(), id);
    expect(failed).toMatchObject({ status: "failed", failureReason: "The transfer was reversed" });
    expect((await hostBalances(db(), host.id, new Date())).availableCents).toBe(10_000);

    const retried = await retryPayout(env, ORIGIN, host.id, id);
    expect(retried.ok && retried.payout).toMatchObject({ status: "completed", attempt: 1 });
    const newTransfer = retried.ok ? retried.payout.transferId : null;
    expect(newTransfer).not.toBe(done!.transferId);
    // The old transfer's reversal arriving late does not touch the new attempt.
    await deliverConnectWebhook({ ...reversal, id: `evt_late_${crypto.randomUUID()}` });
    expect((await getPayout(db(), id))!.status).toBe("completed");
    const kinds = await ledgerKinds(host.id);
    expect(kinds.filter((k) => k.startsWith("withdrawal:"))).toHaveLength(2);
    expect(kinds.filter((k) => k.startsWith("withdrawal_return:"))).toHaveLength(1);
    expect((await hostBalances(db(), host.id, new Date())).availableCents).toBe(
      10_000 - 5_000 - withdrawalFeeCents(5_000, 10_000),
    );
  });

  it("transfer.created completes a payout left processing; payout.failed and payout.paid are recorded", async () => {
    const { id, accountId } = await pendingWithdrawal();
    await db().update(payouts).set({ status: "processing" }).where(eq(payouts.id, id));
    const created = localConnectEvent("transfer.created", {
      id: "tr_from_event",
      object: "transfer",
      metadata: { payout_id: id, attempt: "0" },
    });
    await deliverConnectWebhook(created);
    await deliverConnectWebhook(created);
    expect(await getPayout(db(), id)).toMatchObject({ status: "completed", transferId: "tr_from_event" });
    const bankFailed = localConnectEvent(
      "payout.failed",
      { id: "po_test_1", object: "payout", metadata: { payout_request_id: id } },
      accountId,
    );
    await deliverConnectWebhook(bankFailed);
    expect(await getPayout(db(), id)).toMatchObject({ bankPayoutStatus: "failed", bankPayoutId: "po_test_1" });
    const [event] = await db()
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.id, bankFailed.id)));
    expect(event?.status).toBe("processed");
  });
});

describe("ad revenue recorded by the platform owner", () => {
  it("splits 50/20/30, feeds the pool, shows CTR with one decimal, and refuses bad input and duplicates", async () => {
    const admin = await makeUser({ role: "admin", name: "Owner" });
    const host = await makeUser({ name: "Video Host" });
    const cookie = await signIn(admin.email);
    const fields = {
      intent: "record-ad-revenue",
      hostId: host.id,
      periodStart: "2026-01-01",
      periodEnd: "2026-01-31",
      amount: "100.00",
      impressions: "12000",
      clicks: "300",
    };
    const bad = await postForm("/admin", { ...fields, clicks: "13000" }, { cookie });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Clicks must be a whole number between 0 and the number of impressions.");
    const ok = await postForm("/admin", fields, { cookie });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Ad revenue recorded.");
    expect((await postForm("/admin", fields, { cookie })).status).toBe(409);
    expect(await ledgerKinds(host.id)).toEqual(["ad_revenue:5000"]);
    const [row] = await db().select().from(earningsLedger).where(eq(earningsLedger.hostId, host.id));
    expect(row).toMatchObject({ grossCents: 10_000, poolCents: 3_000, platformCents: 2_000 });
    const [contribution] = await db()
      .select()
      .from(prizePoolContributions)
      .where(eq(prizePoolContributions.hostId, host.id));
    expect(contribution).toMatchObject({ sourceType: "ad_revenue", amountCents: 3_000 });
    // The platform owner's action is in the audit log, once (the duplicate changed nothing).
    const audit = await db().select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, host.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "ad_revenue_recorded", adminId: admin.id });
    expect(await (await get("/admin", { cookie })).text()).toContain("Recorded ad revenue");
    // A fan cannot record ad revenue.
    expect((await postForm("/admin", fields, { cookie: await signIn(host.email) })).status).toBe(403);
    const ads = await (await get("/ads-revenue", { cookie: await signIn(host.email) })).text();
    expect(ads).toContain("12,000");
    expect(ads).toContain("2.5%");
    expect(ads).toContain("USD 50.00");
  });
});

describe("revenue pages, periods and export", () => {
  it("counts each period from its boundary, exports the period's rows as CSV, and hides other hosts' transactions", async () => {
    const host = await makeUser({ name: "Period Host" });
    const now = new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const startOfMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const startOfYear = Date.UTC(now.getUTCFullYear(), 0, 1);
    const at = (ms: number, cents: number, label: string) =>
      bookEarning(db(), {
        hostId: host.id,
        kind: "shop_sale",
        sourceKey: `test-sale:${crypto.randomUUID()}`,
        amountCents: cents - cents / 10,
        grossCents: cents,
        poolCents: cents / 10,
        description: label,
        availableAt: new Date(ms),
        occurredAt: new Date(ms),
      });
    await at(today + 1000, 1000, "today");
    await at(today - 6 * DAY + 1000, 2000, "six days ago");
    await at(today - 7 * DAY + 1000, 4000, "seven days ago");
    await at(startOfMonth, 8000, "first of the month");
    await at(startOfMonth - 1, 16000, "last month");
    await at(startOfYear, 32000, "first of January");
    await at(startOfYear - 1, 64000, "last year");
    const cookie = await signIn(host.email);

    const csv = async (query: string) => {
      const res = await get(`/revenue/export.csv?${query}`, { cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toContain("text/csv");
      return (await res.text()).trim().split("\r\n");
    };
    const week = await csv("period=week");
    expect(week[0]).toBe("Date,Type,Description,Reference,Gross,Prize Pool,Platform,Your Earnings,Currency,Status");
    expect(week.some((l) => l.includes("six days ago"))).toBe(true);
    expect(week.some((l) => l.includes("seven days ago"))).toBe(false);
    const month = await csv("period=month");
    expect(month.some((l) => l.includes("first of the month"))).toBe(true);
    expect(month.some((l) => l.includes("last month"))).toBe(false);
    const year = await csv("period=year");
    expect(year.some((l) => l.includes("first of January"))).toBe(true);
    expect(year.some((l) => l.includes("last year"))).toBe(false);
    expect(year.find((l) => l.includes("first of January"))).toMatch(
      /,Shop Sale,first of January,test-sale:[^,]+,320\.00,32\.00,0\.00,288\.00,USD,Available$/,
    );
    expect((await get("/revenue/export.csv?from=2026-02-30&to=2026-03-01", { cookie })).status).toBe(400);

    const revenue = await (await get("/revenue?period=year", { cookie })).text();
    expect(revenue).toContain("first of January");
    expect(revenue).not.toContain("last year");
    const [row] = await db()
      .select()
      .from(earningsLedger)
      .where(and(eq(earningsLedger.hostId, host.id), eq(earningsLedger.description, "today")));
    const detail = await get(`/transaction/${row!.id}`, { cookie });
    expect(detail.status).toBe(200);
    expect(await detail.text()).toContain("Shop Sale");
    const stranger = await makeUser();
    const hidden = await get(`/transaction/${row!.id}`, { cookie: await signIn(stranger.email) });
    expect(hidden.status).toBe(404);
    expect(await hidden.text()).toContain("Transaction Not Found");
  });
});

describe("fulfilment books the host's share once", () => {
  it("a paid digital order: one shop_sale row at the rule in force, pending for the refund window, replay-safe", async () => {
    const { products: productsTable, productSizes, checkoutSessions } = await import("~/db/schema");
    const { createProductCheckout } = await import("~/lib/payments/checkout/checkout-session.server");
    const host = await makeUser({ name: "Seller" });
    const fan = await makeUser({ name: "Fan" });
    const [product] = await db()
      .insert(productsTable)
      .values({ hostId: host.id, name: "E-book", category: "digital" })
      .returning();
    await db()
      .insert(productSizes)
      .values({ productId: product!.id, name: "PDF", priceCents: 1999, availableUnits: 10, position: 0 });
    const started = await createProductCheckout(env, {
      user: { id: fan.id, email: fan.email, role: "user", creatorName: "Fan", avatarUrl: null, emailConfirmed: true },
      productId: product!.id,
      sizeName: "PDF",
      colorName: null,
      quantity: 1,
      origin: ORIGIN,
    });
    if (!started.ok) throw new Error(started.message);
    const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, started.sessionId));
    const event = {
      id: `evt_test_${crypto.randomUUID().replace(/-/g, "")}`,
      object: "event",
      created: Math.floor(Date.now() / 1000),
      type: "checkout.session.completed",
      data: {
        object: {
          id: row!.id,
          object: "checkout.session",
          amount_total: row!.amountCents,
          currency: "usd",
          client_reference_id: row!.metadata.checkout_id,
          metadata: row!.metadata,
          payment_status: "paid",
          status: "complete",
          payment_intent: "pi_local_test_ebook",
        },
      },
    };
    for (let i = 0; i < 3; i++) {
      const res = await deliverWebhook({ ...event, id: i === 2 ? `${event.id}_resent` : event.id });
      expect(res.status).toBe(200);
    }
    const rows = await db().select().from(earningsLedger).where(eq(earningsLedger.hostId, host.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "shop_sale",
      grossCents: 1999,
      poolCents: 200,
      amountCents: 1799,
      platformCents: 0,
      rates: { prizePoolPercent: 10, hostPercent: 90, platformFeePercent: 0 },
    });
    expect(rows[0]!.availableAt!.getTime() - rows[0]!.occurredAt.getTime()).toBe(14 * DAY);
    const balances = await hostBalances(db(), host.id, new Date());
    expect(balances).toMatchObject({ balanceCents: 1799, availableCents: 0, pendingCents: 1799 });
    expect((await hostBalances(db(), host.id, new Date(Date.now() + 15 * DAY))).availableCents).toBe(1799);
    // The processor's fee (the local provider's simulated 2.9% + 30 cents) is recorded once, as the platform's cost:
    // the host's row above is untouched by it.
    const { paymentProcessingFees } = await import("~/db/schema");
    const fees = await db()
      .select()
      .from(paymentProcessingFees)
      .where(eq(paymentProcessingFees.paymentIntentId, "pi_local_test_ebook"));
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({
      amountCents: 1999,
      feeCents: 88,
      currency: "USD",
      provider: "local",
      checkoutSessionId: row!.id,
    });
    expect(fees[0]!.balanceTransactionId).toMatch(/^txn_local_/);
    const admin = await makeUser({ role: "admin" });
    const adminPage = await (await get("/admin", { cookie: await signIn(admin.email) })).text();
    expect(adminPage.replaceAll("<!-- -->", "")).toMatch(
      /Payment processing fees \(the platform(&#x27;|')s cost\): USD [\d,.]+ on \d+ payments?/,
    );
  });
});

describe("a transaction's related transactions", () => {
  it("are its own order's rows, not those of other orders paid into the same pool", async () => {
    const host = await makeUser({ name: "Related Host" });
    const productId = crypto.randomUUID();
    await db().insert(products).values({ id: productId, hostId: host.id, name: "Tea Tin" });
    const [pool] = await db()
      .insert(prizePools)
      .values({ hostId: host.id, targetCents: 100_000, currency: "USD", endAt: new Date(Date.now() + 86_400_000) })
      .returning();
    const order = async () => {
      const id = crypto.randomUUID();
      await db()
        .insert(orders)
        .values({
          id,
          orderNumber: `ORD-${id.slice(-8).toUpperCase()}`,
          hostId: host.id,
          productId,
          status: "paid",
          amountCents: 1000,
          unitPriceCents: 1000,
          quantity: 1,
          currency: "USD",
          productName: "Tea Tin",
          productCategory: "physical",
          poolId: pool!.id,
        });
      return id;
    };
    const [a, b] = [await order(), await order()];
    const book = (orderId: string, kind: "shop_sale" | "refund", cents: number, description: string) =>
      bookEarning(db(), {
        hostId: host.id,
        kind,
        sourceKey: `${kind}:${orderId}`,
        amountCents: cents,
        grossCents: cents,
        description,
        orderId,
        poolId: pool!.id,
      });
    await book(a, "shop_sale", 900, "sale A");
    await book(a, "refund", -900, "refund A");
    await book(b, "shop_sale", 900, "sale B");
    await book(b, "refund", -900, "refund B");
    const [refundA] = await db()
      .select()
      .from(earningsLedger)
      .where(and(eq(earningsLedger.hostId, host.id), eq(earningsLedger.description, "refund A")));
    const related = await relatedLedgerRows(db(), host.id, refundA!);
    expect(related.map((r) => r.id)).toHaveLength(1);
    const [saleA] = await db()
      .select()
      .from(earningsLedger)
      .where(and(eq(earningsLedger.hostId, host.id), eq(earningsLedger.description, "sale A")));
    expect(related[0]!.id).toBe(saleA!.id);
  });
});
