import { and, eq } from "drizzle-orm";
import jsQR from "jsqr";
import QRCode from "qrcode";
import { beforeAll, describe, expect, it } from "vitest";
import { orders, products, userActivity, vouchers } from "~/db/schema";
import { voucherCode } from "~/domain/orders";
import { db, get, makeSignedInUser, postForm } from "./helpers";

type Account = { id: string; email: string; cookie: string };
let host: Account;
let otherHost: Account;
let buyer: Account;
let stranger: Account;
let productId: string;

const DAY = 24 * 60 * 60 * 1000;

const account = (name: string): Promise<Account> => makeSignedInUser({ name });

/** A paid voucher order of `host`'s product bought by `buyer`, and its voucher; returns the code. */
async function makeVoucher(
  opts: { expiresAt?: Date; status?: "active" | "redeemed" | "expired" | "void"; buyer?: Account } = {},
): Promise<string> {
  const owner = opts.buyer ?? buyer;
  const orderId = crypto.randomUUID();
  const code = voucherCode(orderId);
  await db()
    .insert(orders)
    .values({
      id: orderId,
      orderNumber: `ORD-${orderId.slice(-8).toUpperCase()}`,
      userId: owner.id,
      customerEmail: owner.email,
      customerName: "Sofia Tan",
      hostId: host.id,
      productId,
      status: "paid",
      amountCents: 4500,
      unitPriceCents: 4500,
      quantity: 1,
      currency: "USD",
      productName: "Nyonya Kuih Workshop",
      productCategory: "voucher",
    });
  await db()
    .insert(vouchers)
    .values({
      code,
      orderId,
      productId,
      hostId: host.id,
      buyerId: owner.id,
      valueCents: 5000,
      currency: "USD",
      status: opts.status ?? "active",
      expiresAt: opts.expiresAt ?? new Date(Date.now() + 90 * DAY),
    });
  return code;
}

async function voucherRow(code: string) {
  const [row] = await db().select().from(vouchers).where(eq(vouchers.code, code));
  return row;
}

function redeem(code: string, cookie: string) {
  return postForm(`/voucher-scanner?code=${encodeURIComponent(code)}`, { code }, { cookie });
}

/** Draws a QR module matrix (true = dark) as RGBA pixels, `scale` pixels a module, with a 4-module white border. */
function rasterise(size: number, dark: (x: number, y: number) => boolean, scale = 6) {
  const border = 4;
  const width = (size + 2 * border) * scale;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!dark(x, y)) continue;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const offset = (((y + border) * scale + dy) * width + (x + border) * scale + dx) * 4;
          pixels[offset] = pixels[offset + 1] = pixels[offset + 2] = 0;
        }
      }
    }
  }
  return { pixels, width };
}

/**
 * The dark modules of the qrcode library's SVG (one stroked path of "M x y" / "m dx dy" moves and "h n" runs,
 * each run half a module below the row's top), as a grid over the whole viewBox.
 */
function svgModules(svg: string): { size: number; dark: Set<string> } {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const d =
    /<path[^>]*stroke="#000000"[^>]*d="([^"]+)"/.exec(svg)?.[1] ??
    /<path[^>]*d="([^"]+)"[^>]*stroke="#000000"/.exec(svg)?.[1];
  if (!size || !d) throw new Error("no QR path in the SVG");
  const dark = new Set<string>();
  let x = 0;
  let y = 0;
  for (const [, cmd, a, b] of d.matchAll(/([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?/g)) {
    if (cmd === "M") {
      x = Number(a);
      y = Number(b);
    } else if (cmd === "m") {
      x += Number(a);
      y += Number(b);
    } else {
      for (let i = 0; i < Number(a); i++) dark.add(`${x + i},${Math.floor(y)}`);
      x += Number(a);
    }
  }
  return { size, dark };
}

beforeAll(async () => {
  [host, otherHost, buyer, stranger] = await Promise.all([
    account("Kuih Host"),
    account("Other Host"),
    account("Voucher Buyer"),
    account("Stranger"),
  ]);
  productId = crypto.randomUUID();
  await db()
    .insert(products)
    .values({ id: productId, hostId: host.id, name: "Nyonya Kuih Workshop", category: "voucher" });
});

describe("redeeming a voucher at the scanner", () => {
  it("lets exactly one of two racing redeems win; the other sees it already redeemed", async () => {
    const code = await makeVoucher();
    const responses = await Promise.all([redeem(code, host.cookie), redeem(code, host.cookie)]);
    const bodies = await Promise.all(responses.map((r) => r.text()));
    const wins = bodies.filter((b) => b.includes("Voucher redeemed successfully!"));
    const losses = bodies.filter(
      (b) => b.includes("Already Redeemed") && b.includes("Each code can only be redeemed once"),
    );
    expect(wins).toHaveLength(1);
    expect(losses).toHaveLength(1);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const row = await voucherRow(code);
    expect(row.status).toBe("redeemed");
    expect(row.redeemedBy).toBe(host.id);
    expect(row.redeemedAt).toBeInstanceOf(Date);
    const activity = await db()
      .select()
      .from(userActivity)
      .where(and(eq(userActivity.userId, host.id), eq(userActivity.activityType, "voucher_redeemed")));
    expect(activity.filter((a) => a.activityData?.code === code)).toHaveLength(1);

    // A later lookup shows it as already redeemed.
    const lookup = await (await get(`/voucher-scanner?code=${code}`, { cookie: host.cookie })).text();
    expect(lookup).toContain("Already Redeemed");
  });

  it("only lets the voucher's host redeem it: another host and the buyer get 'Voucher not found'", async () => {
    const code = await makeVoucher();
    for (const who of [otherHost, buyer]) {
      const res = await redeem(code, who.cookie);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("Voucher not found");
      const lookup = await (await get(`/voucher-scanner?code=${code}`, { cookie: who.cookie })).text();
      expect(lookup).toContain("Voucher Not Found");
    }
    const row = await voucherRow(code);
    expect(row.status).toBe("active");
    expect(row.redeemedAt).toBeNull();
    expect(row.redeemedBy).toBeNull();
  });

  it("refuses an expired voucher and marks it expired", async () => {
    const code = await makeVoucher({ expiresAt: new Date(Date.now() - DAY) });
    const lookup = await (await get(`/voucher-scanner?code=${code}`, { cookie: host.cookie })).text();
    expect(lookup).toContain("Voucher Expired");
    expect(lookup).not.toContain(">Redeem Voucher</button>");
    const res = await redeem(code, host.cookie);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain("This voucher has expired and can no longer be redeemed.");
    const row = await voucherRow(code);
    expect(row.status).toBe("expired");
    expect(row.redeemedAt).toBeNull();
  });

  it("answers an unknown or empty code with the scanner's messages", async () => {
    const res = await redeem("VCH-NOPE0000", host.cookie);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Voucher not found");
    const lookup = await (await get("/voucher-scanner?code=VCH-NOPE0000", { cookie: host.cookie })).text();
    expect(lookup).toContain("Voucher Not Found");
    expect(lookup).toContain("VCH-NOPE0000");
    const empty = await (await get("/voucher-scanner?code=", { cookie: host.cookie })).text();
    expect(empty).toContain("Please enter a voucher code");
    const emptyPost = await postForm("/voucher-scanner", { code: "  " }, { cookie: host.cookie });
    expect(emptyPost.status).toBe(400);
    expect(await emptyPost.text()).toContain("Please enter a voucher code");
  });

  it("uppercases a lowercase code for lookup and redeem", async () => {
    const code = await makeVoucher();
    const lookup = await (await get(`/voucher-scanner?code=${code.toLowerCase()}`, { cookie: host.cookie })).text();
    expect(lookup).toContain("Valid Voucher");
    expect(lookup).toContain(code);
    const res = await postForm("/voucher-scanner", { code: ` ${code.toLowerCase()} ` }, { cookie: host.cookie });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Voucher redeemed successfully!");
    expect((await voucherRow(code)).status).toBe("redeemed");
  });

  it("offers the host's own latest active codes as shortcuts, never anyone else's", async () => {
    const code = await makeVoucher();
    const mine = await (await get("/voucher-scanner", { cookie: host.cookie })).text();
    expect(mine).toContain(code);
    const theirs = await (await get("/voucher-scanner", { cookie: otherHost.cookie })).text();
    expect(theirs).not.toContain(code);
  });

  it("sends a visitor to sign in", async () => {
    const res = await get("/voucher-scanner");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("/signin");
  });
});

describe("/voucher/{code}", () => {
  it("shows the buyer and the host a scannable QR code of the code; others get 404", async () => {
    const code = await makeVoucher();
    const buyerPage = await get(`/voucher/${code}`, { cookie: buyer.cookie });
    expect(buyerPage.status).toBe(200);
    const buyerHtml = await buyerPage.text();
    expect(buyerHtml).toMatch(/data-qr[^>]*><svg/);
    expect(buyerHtml).toContain("Kuih Host");
    expect(buyerHtml).not.toContain("Customer details"); // the host's view only
    expect(buyerHtml).not.toContain("Redeem via scanner");
    expect(buyerHtml).toContain("Back to My Orders");

    const hostPage = await get(`/voucher/${code}`, { cookie: host.cookie });
    expect(hostPage.status).toBe(200);
    const hostHtml = await hostPage.text();
    expect(hostHtml).toMatch(/data-qr[^>]*><svg/);
    expect(hostHtml).toContain("Customer details");
    expect(hostHtml).toContain(buyer.email);
    expect(hostHtml).toContain("Sofia Tan");
    expect(hostHtml).toContain(`/voucher-scanner?code=${code}`);
    expect(hostHtml).toContain("Back to Vouchers");

    for (const who of [otherHost, stranger]) {
      expect((await get(`/voucher/${code}`, { cookie: who.cookie })).status).toBe(404);
    }
    expect((await get("/voucher/VCH-NOPE0000", { cookie: buyer.cookie })).status).toBe(404);
    expect((await get(`/voucher/${code}`)).status).toBe(302);

    // The page's QR decodes back to the code.
    const svg = /data-qr[^>]*>(<svg[\s\S]*?<\/svg>)/.exec(buyerHtml)?.[1] ?? "";
    const { size, dark } = svgModules(svg);
    const page = rasterise(size, (x, y) => dark.has(`${x},${y}`));
    expect(jsQR(page.pixels, page.width, page.width)?.data).toBe(code);
  });

  it("encodes the code in a real QR matrix that decodes back to it", () => {
    const code = voucherCode(crypto.randomUUID());
    const { modules } = QRCode.create(code, { errorCorrectionLevel: "M" });
    const image = rasterise(modules.size, (x, y) => Boolean(modules.get(y, x)));
    expect(jsQR(image.pixels, image.width, image.width)?.data).toBe(code);
  });

  it("shows an active voucher past its expiry as expired, and a redeemed one with its date", async () => {
    const expired = await makeVoucher({ expiresAt: new Date(Date.now() - DAY) });
    expect(await (await get(`/voucher/${expired}`, { cookie: buyer.cookie })).text()).toContain("Expired on");
    const code = await makeVoucher();
    await redeem(code, host.cookie);
    expect(await (await get(`/voucher/${code}`, { cookie: buyer.cookie })).text()).toContain("Used on");
  });
});

describe("a voucher's status, one word on every card", () => {
  /** The buyer's /my-orders card of the voucher `code` (its order number is ORD- and the code's last 8). */
  function card(html: string, code: string): string {
    const number = `ORD-${code.slice(-8)}`;
    const cards = html
      .split(/<li[\s>]/)
      .map((li) => li.split("</li>")[0]!)
      .filter((li) => li.includes(number));
    expect(cards, number).toHaveLength(1);
    return cards[0]!;
  }
  /** The status words a card shows (badges and the voucher's action), tags stripped. */
  const words = (html: string) => html.replace(/<[^>]+>/g, " ");

  it("shows Valid, Used, Expired or Refunded alike on the buyer's card, the voucher page and the host's list", async () => {
    const fan = await account("Card Fan");
    const valid = await makeVoucher({ buyer: fan });
    const used = await makeVoucher({ buyer: fan });
    expect((await redeem(used, host.cookie)).status).toBe(200);
    const expired = await makeVoucher({ buyer: fan, expiresAt: new Date(Date.now() - DAY) });
    const refunded = await makeVoucher({ buyer: fan, status: "void" });

    const myOrders = await (await get("/my-orders?type=voucher", { cookie: fan.cookie })).text();
    const hostList = await (await get("/voucher-management", { cookie: host.cookie })).text();
    const expected = [
      [valid, "Valid"],
      [used, "Used"],
      [expired, "Expired"],
      [refunded, "Refunded"],
    ] as const;
    for (const [code, label] of expected) {
      const text = words(card(myOrders, code));
      // One status per card: its own word, never the order's "Paid" beside it, nor another voucher word.
      expect(text, code).toContain(label);
      for (const other of ["Paid", "Valid", "Used", "Expired", "Refunded"].filter((w) => w !== label)) {
        expect(text, `${code} ${label}`).not.toMatch(new RegExp(`\\b${other}\\b`));
      }
      const page = await (await get(`/voucher/${code}`, { cookie: fan.cookie })).text();
      expect(page, code).toMatch(new RegExp(`>${label}</span>`));
      const row = hostList.split("<tr").find((tr) => tr.includes(code)) ?? "";
      expect(words(row), code).toMatch(new RegExp(`\\b${label}\\b`));
    }
    // Only a valid voucher offers 'Use Voucher'.
    expect(card(myOrders, valid)).toContain(`href="/voucher/${valid}"`);
    expect(card(myOrders, valid)).toContain("Use Voucher");
    for (const code of [used, expired, refunded]) expect(card(myOrders, code)).not.toContain("Use Voucher");
  });
});
