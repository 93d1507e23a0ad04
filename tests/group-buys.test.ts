import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  earningsLedger,
  groupBuyProducts,
  groupBuyRefunds,
  groupBuys,
  groupBuyShares,
  groupBuyTiers,
  mailOutbox,
  orders,
  products,
} from "~/db/schema";
import { GROUP_BUY_ACTION_MESSAGES, GROUP_BUY_MESSAGES } from "~/domain/group-buy";
import { bookGroupBuySales } from "~/db/queries/earnings.server";
import { closeGroupBuy } from "~/lib/payments/refunds/group-buy-close.server";
import { applyRefund } from "~/lib/payments/refunds/refunds.server";
import { runScheduled } from "../workers/scheduled";
import { db, get, makeUser, ORIGIN, randomIp, signIn } from "./helpers";

// Group buys on the host's side: the create/edit form's rules (server-checked, each with its message), one active
// group buy per host (the database decides, also for two racing tabs), ownership, and the end: final-tier refunds,
// cancellation refunds in full, target not met refunds nothing, early completion only at the target, and a close run
// twice at once refunds each order once.

const DAY = 24 * 60 * 60 * 1000;
const future = () => new Date(Date.now() + 10 * DAY).toISOString().slice(0, 10);

function post(path: string, fields: [string, string][], cookie: string) {
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      Cookie: cookie,
      Origin: ORIGIN,
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": randomIp(),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

type FormOver = Partial<Record<"name" | "description" | "targetAmount" | "endDate", string>> & {
  tiers?: [string, string][];
  productIds?: string[];
};

function formFields(productId: string, over: FormOver = {}, intent = "create"): [string, string][] {
  const fields: [string, string][] = [
    ["intent", intent],
    ["name", over.name ?? "Kitchen Group Buy"],
    ["description", over.description ?? "Everything for the kitchen, cheaper together."],
    ["targetAmount", over.targetAmount ?? "5000"],
    ["endDate", over.endDate ?? future()],
  ];
  for (const [threshold, discount] of over.tiers ?? [
    ["0", "5"],
    ["2000", "8"],
    ["5000", "12"],
  ]) {
    fields.push(["tierThreshold", threshold], ["tierDiscount", discount]);
  }
  for (const id of over.productIds ?? [productId]) fields.push(["productId", id]);
  return fields;
}

async function makeHost(name: string) {
  const host = await makeUser({ name });
  const cookie = await signIn(host.email);
  const [product] = await db()
    .insert(products)
    .values({ hostId: host.id, name: `${name} Mug`, basePriceCents: 2000 })
    .returning();
  return { ...host, cookie, productId: product!.id };
}

async function hostGroupBuys(hostId: string) {
  return db().select().from(groupBuys).where(eq(groupBuys.hostId, hostId));
}

/** A paid group-buy order: `usd` charged, worth `rm` RM cents at payment. */
async function paidOrder(
  host: { id: string; productId: string },
  groupBuyId: string,
  buyer: { id: string; email: string },
  usd: number,
  rm: number,
  refunded = 0,
) {
  const id = crypto.randomUUID();
  await db()
    .insert(orders)
    .values({
      id,
      orderNumber: `ORD-${id.slice(-8).toUpperCase()}`,
      userId: buyer.id,
      hostId: host.id,
      productId: host.productId,
      groupBuyId,
      checkoutSessionId: `cs_local_${id}`,
      paymentIntentId: `pi_local_${id}`,
      status: "paid",
      purchaseMode: "group-buy",
      amountCents: usd,
      unitPriceCents: usd,
      currency: "USD",
      customerEmail: buyer.email,
      productName: "Mug",
      refundedCents: refunded,
      salesRmCents: rm,
    });
  await db()
    .update(groupBuys)
    .set({ currentSalesCents: rm, currentParticipants: 1 })
    .where(eq(groupBuys.id, groupBuyId));
  return id;
}

/** A group buy inserted directly: target RM 5,000, tiers 0 at 5%, 2,000 at 10%, 5,000 at 20%. */
async function directGroupBuy(hostId: string, productId: string, opts: { endAt?: Date } = {}) {
  const [g] = await db()
    .insert(groupBuys)
    .values({
      hostId,
      name: "Direct",
      status: "active",
      targetCents: 500_000,
      currency: "MYR",
      endAt: opts.endAt ?? new Date(Date.now() + DAY),
    })
    .returning();
  await db()
    .insert(groupBuyTiers)
    .values([
      { groupBuyId: g!.id, salesThresholdCents: 0, discountPercent: 5, position: 0 },
      { groupBuyId: g!.id, salesThresholdCents: 200_000, discountPercent: 10, position: 1 },
      { groupBuyId: g!.id, salesThresholdCents: 500_000, discountPercent: 20, position: 2 },
    ]);
  await db().insert(groupBuyProducts).values({ groupBuyId: g!.id, productId });
  return g!.id;
}

const refundsOf = (orderId: string) => db().select().from(groupBuyRefunds).where(eq(groupBuyRefunds.orderId, orderId));
const orderRow = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0]!;

describe("create/edit form rules, checked by the server", () => {
  let host: Awaited<ReturnType<typeof makeHost>>;
  beforeAll(async () => {
    host = await makeHost("Rules Host");
  });

  const cases: [string, FormOver, string][] = [
    ["a missing name", { name: " " }, GROUP_BUY_MESSAGES.name],
    [
      "a name over 120 characters (the input's maxLength)",
      { name: "n".repeat(121) },
      "Group buy name must be at most 120 characters",
    ],
    ["a missing description", { description: "" }, GROUP_BUY_MESSAGES.description],
    [
      "a description over 2,000 characters",
      { description: "d".repeat(2001) },
      "Description must be at most 2000 characters",
    ],
    [
      "an end date that does not exist",
      { endDate: "2027-02-31" },
      "That end date does not exist; please choose a real day",
    ],
    ["a target below RM 1,000", { targetAmount: "900" }, GROUP_BUY_MESSAGES.target],
    [
      "a target off the RM 1,000 step",
      { targetAmount: "1500" },
      "Please enter a target amount in steps of RM 1,000 (such as 1,000, 2,000 or 3,000)",
    ],
    [
      "a target typed with a thousands separator",
      { targetAmount: "1,500" },
      "Please enter the target amount in digits only, such as 2000",
    ],
    ["a missing end date", { endDate: "" }, GROUP_BUY_MESSAGES.endDateMissing],
    ["an end date in the past", { endDate: "2020-01-01" }, GROUP_BUY_MESSAGES.endDatePast],
    [
      "one valid tier",
      {
        tiers: [
          ["0", "5"],
          ["2000", "0"],
        ],
      },
      GROUP_BUY_MESSAGES.tiersTooFew,
    ],
    [
      "a discount above 50 (not counted)",
      {
        tiers: [
          ["0", "5"],
          ["2000", "60"],
        ],
      },
      GROUP_BUY_MESSAGES.tiersTooFew,
    ],
    [
      "thresholds not rising",
      {
        tiers: [
          ["0", "5"],
          ["2000", "8"],
          ["2000", "12"],
        ],
      },
      GROUP_BUY_MESSAGES.thresholdOrder,
    ],
    [
      "discounts not rising",
      {
        tiers: [
          ["0", "5"],
          ["2000", "8"],
          ["5000", "8"],
        ],
      },
      GROUP_BUY_MESSAGES.discountOrder,
    ],
    [
      "invalid tier input (becomes 0)",
      {
        tiers: [
          ["0", "5"],
          ["abc", "8"],
        ],
      },
      GROUP_BUY_MESSAGES.thresholdOrder,
    ],
    [
      "seven tiers",
      {
        tiers: [
          ["0", "5"],
          ["1000", "8"],
          ["2000", "10"],
          ["3000", "12"],
          ["4000", "14"],
          ["5000", "16"],
          ["6000", "18"],
        ],
      },
      GROUP_BUY_MESSAGES.tiersTooMany,
    ],
    ["no product chosen", { productIds: [] }, GROUP_BUY_ACTION_MESSAGES.productsRequired],
    ["only another host's product", { productIds: ["not-mine"] }, GROUP_BUY_ACTION_MESSAGES.productsRequired],
  ];
  for (const [what, over, message] of cases) {
    it(`refuses ${what} with '${message}' and creates nothing`, async () => {
      const res = await post("/group-buy-management", formFields(host.productId, over), host.cookie);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(await res.text()).toContain(message.replace(/'/g, "&#x27;"));
      expect(await hostGroupBuys(host.id)).toHaveLength(0);
    });
  }

  it("fixes the first tier's threshold at 0 and stores the group buy in RM with its tiers and products", async () => {
    const res = await post(
      "/group-buy-management",
      formFields(host.productId, {
        tiers: [
          ["500", "5"],
          ["2000", "8"],
        ],
      }),
      host.cookie,
    );
    expect(res.status).toBe(302);
    const [g] = await hostGroupBuys(host.id);
    expect(g).toMatchObject({ status: "active", currency: "MYR", targetCents: 500_000, name: "Kitchen Group Buy" });
    const tiers = await db().select().from(groupBuyTiers).where(eq(groupBuyTiers.groupBuyId, g!.id));
    expect(tiers.map((t) => [t.salesThresholdCents, t.discountPercent]).sort((a, b) => a[0]! - b[0]!)).toEqual([
      [0, 5],
      [200_000, 8],
    ]);
    const html = await (await get("/group-buy-management", { cookie: host.cookie })).text();
    expect(html).toContain("Kitchen Group Buy");
    expect(html).toContain(GROUP_BUY_ACTION_MESSAGES.onlyOneActive);
    await db().delete(groupBuys).where(eq(groupBuys.hostId, host.id));
  });
});

describe("one active group buy per host", () => {
  it("refuses a second, also when two tabs create at once: exactly one succeeds", async () => {
    const host = await makeHost("Two Tabs");
    const [a, b] = await Promise.all([
      post("/group-buy-management", formFields(host.productId, { name: "Tab A" }), host.cookie),
      post("/group-buy-management", formFields(host.productId, { name: "Tab B" }), host.cookie),
    ]);
    expect([a.status, b.status].sort()).toEqual([302, 409]);
    expect(await (a.status === 409 ? a : b).text()).toContain(GROUP_BUY_ACTION_MESSAGES.onlyOneActive);
    const rows = await hostGroupBuys(host.id);
    expect(rows.filter((r) => r.status === "active")).toHaveLength(1);
    const again = await post("/group-buy-management", formFields(host.productId, { name: "Third" }), host.cookie);
    expect(again.status).toBe(409);
    expect(await hostGroupBuys(host.id)).toHaveLength(1);
  });

  it("notes 'Only one group buy can be active at a time' only while one is active", async () => {
    const host = await makeHost("Note Host");
    const note = GROUP_BUY_ACTION_MESSAGES.onlyOneActive;
    const before = await (await get("/group-buy-management", { cookie: host.cookie })).text();
    expect(before).not.toContain(note);
    expect(before).toContain('href="/group-buy-management?new=1"');
    expect((await post("/group-buy-management", formFields(host.productId), host.cookie)).status).toBe(302);
    const after = await (await get("/group-buy-management", { cookie: host.cookie })).text();
    expect(after).toContain(note);
    expect(after).not.toContain('href="/group-buy-management?new=1"');
  });
});

describe("ownership and edits", () => {
  it("another host cannot edit, complete or delete it (403), and nothing changes", async () => {
    const owner = await makeHost("Owner Host");
    const other = await makeHost("Other Host");
    const id = await directGroupBuy(owner.id, owner.productId);
    for (const fields of [
      [...formFields(other.productId, { name: "Hijacked" }, "update"), ["groupBuyId", id]] as [string, string][],
      [
        ["intent", "complete"],
        ["groupBuyId", id],
      ] as [string, string][],
      [
        ["intent", "delete"],
        ["groupBuyId", id],
      ] as [string, string][],
    ]) {
      const res = await post("/group-buy-management", fields, other.cookie);
      expect(res.status).toBe(403);
    }
    expect((await get(`/group-buy-management?edit=${id}`, { cookie: other.cookie })).status).toBe(403);
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    expect(g).toMatchObject({ name: "Direct", status: "active" });
  });

  it("once a fan joined, a higher target or a lower tier is refused; a more favourable edit is accepted", async () => {
    const host = await makeHost("Edit Host");
    const fan = await makeUser({ name: "Edit Fan" });
    const id = await directGroupBuy(host.id, host.productId);
    await paidOrder(host, id, fan, 1000, 4545);
    const edit = (over: FormOver) =>
      post("/group-buy-management", [...formFields(host.productId, over, "update"), ["groupBuyId", id]], host.cookie);
    const higher = await edit({
      targetAmount: "6000",
      tiers: [
        ["0", "5"],
        ["2000", "10"],
        ["5000", "20"],
      ],
    });
    expect(higher.status).toBe(409);
    expect(await higher.text()).toContain(GROUP_BUY_ACTION_MESSAGES.lessFavourable);
    const lower = await edit({
      targetAmount: "5000",
      tiers: [
        ["0", "5"],
        ["2000", "10"],
        ["5000", "15"],
      ],
    });
    expect(lower.status).toBe(409);
    const better = await edit({
      name: "Better Deal",
      targetAmount: "4000",
      tiers: [
        ["0", "6"],
        ["2000", "10"],
        ["5000", "20"],
      ],
    });
    expect(better.status).toBe(302);
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    expect(g).toMatchObject({ name: "Better Deal", targetCents: 400_000 });
  });

  it("a completed group buy cannot be edited", async () => {
    const host = await makeHost("Done Host");
    const id = await directGroupBuy(host.id, host.productId);
    await db().update(groupBuys).set({ status: "completed" }).where(eq(groupBuys.id, id));
    const res = await post(
      "/group-buy-management",
      [...formFields(host.productId, {}, "update"), ["groupBuyId", id]],
      host.cookie,
    );
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(GROUP_BUY_ACTION_MESSAGES.completedNotEditable);
  });
});

describe("delete, cancel and finalise", () => {
  it("deletes a group buy nobody joined", async () => {
    const host = await makeHost("Delete Host");
    const id = await directGroupBuy(host.id, host.productId);
    const res = await post(
      "/group-buy-management",
      [
        ["intent", "delete"],
        ["groupBuyId", id],
      ],
      host.cookie,
    );
    expect(res.status).toBe(302);
    expect(await db().select().from(groupBuys).where(eq(groupBuys.id, id))).toHaveLength(0);
  });

  it("cancels (never deletes) one with participants and refunds every participant in full, with a mail", async () => {
    const host = await makeHost("Cancel Host");
    const fans = [await makeUser({ name: "Cancel Fan A" }), await makeUser({ name: "Cancel Fan B" })];
    const id = await directGroupBuy(host.id, host.productId);
    const a = await paidOrder(host, id, fans[0]!, 3000, 13_636);
    const b = await paidOrder(host, id, fans[1]!, 5000, 22_727, 1000);
    const res = await post(
      "/group-buy-management",
      [
        ["intent", "delete"],
        ["groupBuyId", id],
      ],
      host.cookie,
    );
    expect(res.status).toBe(302);
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    expect(g).toMatchObject({ status: "cancelled" });
    expect(g!.finalisedAt).not.toBeNull();
    expect(await orderRow(a)).toMatchObject({ refundedCents: 3000, status: "refunded" });
    expect(await orderRow(b)).toMatchObject({ refundedCents: 5000, status: "refunded" });
    expect((await refundsOf(a))[0]).toMatchObject({ kind: "cancellation", amountCents: 3000 });
    expect((await refundsOf(a))[0]!.refundId).toBeTruthy();
    // One mail per refund, from the refund path; the cron resuming the close sends none more.
    await runScheduled(env, new Date());
    for (const [fan, amount] of [
      [fans[0]!, "USD 30.00"],
      [fans[1]!, "USD 40.00"],
    ] as const) {
      const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, fan.email));
      const refundMails = mails.filter((m) => m.subject.startsWith("Refund of"));
      expect(refundMails).toHaveLength(1);
      expect(refundMails[0]!.subject).toMatch(new RegExp(`^Refund of ${amount} for order `));
      expect(refundMails[0]!.textBody).toContain('Reason: The group buy "');
      expect(refundMails[0]!.textBody).toContain("was cancelled.");
    }
  });

  it("a group buy cancelled elsewhere (the admin suspending its host) is refunded in full by the cron", async () => {
    const host = await makeHost("Suspended Host");
    const fan = await makeUser({ name: "Suspended Fan" });
    const id = await directGroupBuy(host.id, host.productId);
    const a = await paidOrder(host, id, fan, 4_200, 19_091);
    await db().update(groupBuys).set({ status: "cancelled" }).where(eq(groupBuys.id, id));
    await runScheduled(env, new Date());
    await runScheduled(env, new Date());
    expect(await orderRow(a)).toMatchObject({ refundedCents: 4_200, status: "refunded" });
    expect(await refundsOf(a)).toHaveLength(1);
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    expect(g!.finalisedAt).not.toBeNull();
  });

  it("a group buy with an order is never deleted, even if its participant counter says 0", async () => {
    const host = await makeHost("Counter Host");
    const fan = await makeUser({ name: "Counter Fan" });
    const id = await directGroupBuy(host.id, host.productId);
    const a = await paidOrder(host, id, fan, 2_500, 11_364);
    await db().update(groupBuys).set({ currentParticipants: 0 }).where(eq(groupBuys.id, id));
    const res = await post(
      "/group-buy-management",
      [
        ["intent", "delete"],
        ["groupBuyId", id],
      ],
      host.cookie,
    );
    expect(res.status).toBe(302);
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    expect(g!.status).toBe("cancelled");
    expect(await orderRow(a)).toMatchObject({ refundedCents: 2_500 });
  });

  it("early completion below the target is refused and changes nothing", async () => {
    const host = await makeHost("Early Host");
    const fan = await makeUser({ name: "Early Fan" });
    const id = await directGroupBuy(host.id, host.productId);
    await paidOrder(host, id, fan, 10_000, 45_454);
    const res = await post(
      "/group-buy-management",
      [
        ["intent", "complete"],
        ["groupBuyId", id],
      ],
      host.cookie,
    );
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(GROUP_BUY_ACTION_MESSAGES.earlyBelowTarget);
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    expect(g!.status).toBe("active");
  });

  it("the host completes early once the target is met: the final tier's refund per order", async () => {
    const host = await makeHost("Target Host");
    const fans = [await makeUser({ name: "Target Fan A" }), await makeUser({ name: "Target Fan B" })];
    const id = await directGroupBuy(host.id, host.productId);
    const a = await paidOrder(host, id, fans[0]!, 99_999, 454_541);
    const b = await paidOrder(host, id, fans[1]!, 11_001, 50_005);
    const res = await post(
      "/group-buy-management",
      [
        ["intent", "complete"],
        ["groupBuyId", id],
      ],
      host.cookie,
    );
    expect(res.status).toBe(302);
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    expect(g).toMatchObject({ status: "completed", finalDiscountPercent: 20 });
    // 20% off 999.99 is 799.992, floored to 799.99: refund 200.00. 20% off 110.01 is 88.008 -> 88.00: refund 22.01.
    expect(await orderRow(a)).toMatchObject({ refundedCents: 20_000, status: "paid" });
    expect(await orderRow(b)).toMatchObject({ refundedCents: 2_201 });
    // The host's revenue shows the final figure: charged 1,110.00 minus 222.01 refunded is 887.99.
    const revenue = await (await get("/revenue", { cookie: host.cookie })).text();
    expect(revenue).toContain("USD 887.99");
    expect(revenue).not.toContain("A group buy is active");
  });

  it("group-buy revenue is 'Pending' with a banner while the group buy is active", async () => {
    const host = await makeHost("Pending Host");
    const fan = await makeUser({ name: "Pending Fan" });
    const id = await directGroupBuy(host.id, host.productId);
    await paidOrder(host, id, fan, 10_000, 45_454);
    const revenue = await (await get("/revenue", { cookie: host.cookie })).text();
    expect(revenue).toContain("Pending");
    expect(revenue).toContain("A group buy is active: its revenue is pending");
  });

  it("the target not met: the cron completes it at its end with no discount and refunds nothing", async () => {
    const host = await makeHost("Missed Host");
    const fan = await makeUser({ name: "Missed Fan" });
    const id = await directGroupBuy(host.id, host.productId, { endAt: new Date(Date.now() - 1000) });
    const a = await paidOrder(host, id, fan, 10_000, 45_454);
    await runScheduled(env, new Date());
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    expect(g).toMatchObject({ status: "completed", finalDiscountPercent: 0 });
    expect(g!.finalisedAt).not.toBeNull();
    expect(await orderRow(a)).toMatchObject({ refundedCents: 0 });
    expect(await refundsOf(a)).toHaveLength(0);
  });

  it("two finalisations at once below the target: nothing refunded, the earlier refund kept", async () => {
    const host = await makeHost("Race Host");
    const fans = [await makeUser({ name: "Race Fan A" }), await makeUser({ name: "Race Fan B" })];
    const id = await directGroupBuy(host.id, host.productId, { endAt: new Date(Date.now() - 1000) });
    const a = await paidOrder(host, id, fans[0]!, 60_000, 272_727);
    const b = await paidOrder(host, id, fans[1]!, 50_000, 227_273, 5_000);
    const now = new Date();
    await Promise.all([
      closeGroupBuy(env, id, { mode: "end", now }),
      closeGroupBuy(env, id, { mode: "end", now }),
      runScheduled(env, now),
    ]);
    await closeGroupBuy(env, id, { mode: "end", now });
    // Net RM: 272,727 + 227,273 x 45,000/50,000 = 272,727 + 204,546 = 477,273, below the RM 5,000 target.
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    expect(g).toMatchObject({ status: "completed", finalDiscountPercent: 0 });
    expect(await orderRow(a)).toMatchObject({ refundedCents: 0 });
    expect(await orderRow(b)).toMatchObject({ refundedCents: 5_000 });
  });

  it("two finalisations at once with the target met: each order refunded once, money conserved to the cent", async () => {
    const host = await makeHost("Race Met Host");
    const fans = [await makeUser({ name: "Met Fan A" }), await makeUser({ name: "Met Fan B" })];
    const id = await directGroupBuy(host.id, host.productId, { endAt: new Date(Date.now() - 1000) });
    const a = await paidOrder(host, id, fans[0]!, 70_001, 318_186);
    const b = await paidOrder(host, id, fans[1]!, 50_000, 227_273, 5_000);
    const now = new Date();
    await Promise.all([
      closeGroupBuy(env, id, { mode: "end", now }),
      closeGroupBuy(env, id, { mode: "end", now }),
      runScheduled(env, now),
    ]);
    await runScheduled(env, now);
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    // Net RM 318,186 + 204,546 = 522,732 >= 500,000: 20% off.
    expect(g).toMatchObject({ status: "completed", finalDiscountPercent: 20 });
    const ra = await orderRow(a);
    const rb = await orderRow(b);
    // a: 20% of 700.01 = 140.002; price 560.008 floors to 560.00, refund 140.01.
    expect(ra.refundedCents).toBe(14_001);
    // b: price at 20% is 400.00; 450.00 was left after the earlier 50.00 refund: 50.00 more.
    expect(rb.refundedCents).toBe(10_000);
    expect(await refundsOf(a)).toHaveLength(1);
    expect(await refundsOf(b)).toHaveLength(1);
    const charged = 70_001 + 50_000;
    expect(charged - ra.refundedCents - rb.refundedCents).toBe(56_000 + 40_000);
    // Finalised: the host's earnings ledger books each sale once and its tier refund once; gross = host + pool + platform.
    const ledger = await db().select().from(earningsLedger).where(eq(earningsLedger.hostId, host.id));
    expect(ledger.filter((r) => r.kind === "group_buy_sale")).toHaveLength(2);
    expect(
      ledger
        .filter((r) => r.kind === "refund")
        .map((r) => r.grossCents)
        .sort(),
    ).toEqual([-14_001, -5_000]);
    expect(ledger.reduce((sum, r) => sum + r.grossCents, 0)).toBe(charged - 14_001 - 5_000);
    for (const r of ledger) expect(r.amountCents + r.poolCents + r.platformCents).toBe(r.grossCents);
  });
});

describe("refunds before a group buy ends (decision 340)", () => {
  /** The provider's refund event of a host's refund of `cents` on a group-buy order (as the /orders refund sends it). */
  const hostRefundEvent = (orderId: string, id: string, cents: number, status: "succeeded" | "failed") =>
    applyRefund(env, {
      id,
      object: "refund",
      amount: cents,
      currency: "usd",
      status,
      payment_intent: `pi_local_${orderId}`,
      charge: null,
      metadata: { order_id: orderId, checkout_session_id: `cs_local_${orderId}`, origin: "host" },
    });
  const ledgerOf = (hostId: string) => db().select().from(earningsLedger).where(eq(earningsLedger.hostId, hostId));

  it("a host's partial refund while it runs is booked with its sales at the end: the ledger holds what the host kept", async () => {
    const host = await makeHost("Early Refund Host");
    const fans = [await makeUser({ name: "Early Refund Fan A" }), await makeUser({ name: "Early Refund Fan B" })];
    const id = await directGroupBuy(host.id, host.productId, { endAt: new Date(Date.now() + DAY) });
    const a = await paidOrder(host, id, fans[0]!, 70_001, 318_186);
    const b = await paidOrder(host, id, fans[1]!, 50_000, 227_273);
    const refundId = `re_early_${crypto.randomUUID()}`;
    await hostRefundEvent(b, refundId, 5_000, "succeeded");
    expect(await orderRow(b)).toMatchObject({ refundedCents: 5_000 });
    // Its sale is not booked yet, so neither is the refund.
    expect(await ledgerOf(host.id)).toEqual([]);

    await db()
      .update(groupBuys)
      .set({ endAt: new Date(Date.now() - 1000) })
      .where(eq(groupBuys.id, id));
    await runScheduled(env, new Date());
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, id));
    expect(g).toMatchObject({ status: "completed", finalDiscountPercent: 20 });
    // b keeps 400.00 at 20% off: 50.00 by the host, 50.00 by the tier.
    expect(await orderRow(b)).toMatchObject({ refundedCents: 10_000 });
    const ledger = await ledgerOf(host.id);
    expect(ledger.filter((r) => r.kind === "group_buy_sale")).toHaveLength(2);
    expect(ledger.find((r) => r.sourceKey === `refund:${refundId}`)).toMatchObject({
      kind: "refund",
      grossCents: -5_000,
      orderId: b,
    });
    expect(
      ledger
        .filter((r) => r.kind === "refund")
        .map((r) => r.grossCents)
        .sort(),
    ).toEqual([-14_001, -5_000, -5_000]);
    // What the ledger counts is what the buyers paid and kept paid: 560.00 + 400.00.
    expect(ledger.reduce((sum, r) => sum + r.grossCents, 0)).toBe(56_000 + 40_000);
    for (const r of ledger) expect(r.amountCents + r.poolCents + r.platformCents).toBe(r.grossCents);
    expect(await orderRow(a)).toMatchObject({ refundedCents: 14_001 });

    // The cron's next run, and a refund event replayed after the end, book nothing twice.
    await runScheduled(env, new Date());
    await hostRefundEvent(b, refundId, 5_000, "succeeded");
    expect(await ledgerOf(host.id)).toHaveLength(ledger.length);
  });

  it("a refund the end did not see (applied while the end was being booked) is booked by its next event", async () => {
    const host = await makeHost("Racing Refund Host");
    const fan = await makeUser({ name: "Racing Refund Fan" });
    const id = await directGroupBuy(host.id, host.productId, { endAt: new Date(Date.now() + DAY) });
    const a = await paidOrder(host, id, fan, 10_000, 45_454);
    const refundId = `re_racing_${crypto.randomUUID()}`;
    await hostRefundEvent(a, refundId, 2_500, "succeeded");
    // The end as a racing close leaves it: finalised with its sales booked, this refund not listed yet.
    await db()
      .update(groupBuys)
      .set({ status: "completed", finalDiscountPercent: 0, finalisedAt: new Date() })
      .where(eq(groupBuys.id, id));
    await bookGroupBuySales(db(), id, { prizePoolPercent: 10, platformFeePercent: 5, hostPercent: 85 });
    expect((await ledgerOf(host.id)).map((r) => r.kind)).toEqual(["group_buy_sale"]);
    // The provider's next event of the same refund (here a replay) books it, once.
    await hostRefundEvent(a, refundId, 2_500, "succeeded");
    await hostRefundEvent(a, refundId, 2_500, "succeeded");
    const ledger = await ledgerOf(host.id);
    expect(ledger.map((r) => [r.kind, r.grossCents]).sort()).toEqual([
      ["group_buy_sale", 10_000],
      ["refund", -2_500],
    ]);
    for (const r of ledger) expect(r.amountCents + r.poolCents + r.platformCents).toBe(r.grossCents);
  });

  it("a refund that failed before the end is not booked; one failing after the end is restored", async () => {
    const host = await makeHost("Failed Refund Host");
    const fan = await makeUser({ name: "Failed Refund Fan" });
    const id = await directGroupBuy(host.id, host.productId, { endAt: new Date(Date.now() + DAY) });
    const a = await paidOrder(host, id, fan, 10_000, 45_454);
    const failed = `re_failed_${crypto.randomUUID()}`;
    const late = `re_late_${crypto.randomUUID()}`;
    await hostRefundEvent(a, failed, 2_000, "succeeded");
    await hostRefundEvent(a, failed, 2_000, "failed");
    await hostRefundEvent(a, late, 3_000, "succeeded");
    await closeGroupBuy(env, id, { mode: "end", now: new Date(Date.now() + 2 * DAY) });
    let ledger = await ledgerOf(host.id);
    // Below the target: no tier refund; the sale of 100.00 and the 30.00 that still counts.
    expect(ledger.map((r) => [r.kind, r.grossCents]).sort()).toEqual([
      ["group_buy_sale", 10_000],
      ["refund", -3_000],
    ]);
    await hostRefundEvent(a, late, 3_000, "failed");
    ledger = await ledgerOf(host.id);
    expect(ledger.find((r) => r.sourceKey === `refund:${late}:restore`)).toMatchObject({ grossCents: 3_000 });
    expect(ledger.reduce((sum, r) => sum + r.grossCents, 0)).toBe(10_000);
    expect(await orderRow(a)).toMatchObject({ refundedCents: 0 });
  });
});

describe("/group-buy-detail", () => {
  it("shows the real figures: sales, target, CURRENT tier, 'to go' for the tiers above, and the pool rate", async () => {
    const host = await makeHost("Detail Host");
    const fan = await makeUser({ name: "Detail Fan" });
    const id = await directGroupBuy(host.id, host.productId);
    await paidOrder(host, id, fan, 66_000, 300_000);
    const html = await (await get(`/group-buy-detail/${id}`)).text();
    expect(html).toContain("RM 3,000.00");
    expect(html).toContain("RM 5,000.00");
    expect(html).toContain("CURRENT");
    expect(html).toContain("RM 2,000.00 to go");
    expect(html).toContain("Prize Pool Benefits");
    expect(html).toContain("10% of every sale goes to the creator");
    expect(html).toContain("Share for 2x Entry");
  });

  it("Share for 2x Entry records one share per fan and group buy; a visitor is asked to sign in", async () => {
    const host = await makeHost("Share Host");
    const fan = await makeUser({ name: "Share Fan" });
    const cookie = await signIn(fan.email);
    const id = await directGroupBuy(host.id, host.productId);
    const first = await post(`/group-buy-detail/${id}`, [["intent", "share"]], cookie);
    const second = await post(`/group-buy-detail/${id}`, [["intent", "share"]], cookie);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const shares = await db().select().from(groupBuyShares).where(eq(groupBuyShares.groupBuyId, id));
    expect(shares).toHaveLength(1);
    expect(shares[0]!.userId).toBe(fan.id);
    const visitor = await SELF.fetch(`${ORIGIN}/group-buy-detail/${id}`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": randomIp() },
      body: "intent=share",
      redirect: "manual",
    });
    expect(visitor.status).toBe(401);
    expect(await db().select().from(groupBuyShares).where(eq(groupBuyShares.groupBuyId, id))).toHaveLength(1);
  });
});
