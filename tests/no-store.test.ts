import { describe, expect, it } from "vitest";
import { get, makeSignedInUser } from "./helpers";

// Issue 27: personal pages (/my-orders, /order/*, /dashboard and their .data) sent no Cache-Control, so a browser or
// a proxy could keep them. Every page or data answer is `private, no-store` unless it is a public page rendered for
// a visitor who sent no cookie it read (decision 420).

const PERSONAL = [
  "/my-orders",
  "/wishlist",
  "/order/ORD-NOPE",
  "/dashboard",
  "/settings",
  "/cart",
  "/chat",
  "/notifications",
  "/orders",
  "/payouts",
  "/admin",
];
const PUBLIC = ["/", "/shop", "/explore", "/guess-win", "/terms"];

const dataOf = (path: string) => (path === "/" ? "/_root.data" : `${path}.data`);

describe("Cache-Control: no-store", () => {
  it("is sent with every signed-in page and its data, public pages included", async () => {
    const fan = await makeSignedInUser({ name: "Private Fan" });
    for (const path of [...PERSONAL, ...PUBLIC]) {
      for (const url of [path, dataOf(path)]) {
        const res = await get(url, { cookie: fan.cookie });
        expect(res.headers.get("Cache-Control"), `${url} ${res.status}`).toBe("private, no-store");
      }
    }
  });

  it("is sent with a visitor's personal pages (redirects to sign in, or secrets in the address) and not with public ones", async () => {
    for (const path of [...PERSONAL, "/voucher/VCH-NOPE", "/reset-password?token=abc"]) {
      const res = await get(path);
      expect(res.headers.get("Cache-Control"), path).toBe("private, no-store");
    }
    for (const path of PUBLIC) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Cache-Control") ?? "", path).not.toContain("no-store");
    }
  });

  it("is sent to a visitor with a cart, whose page shows it", async () => {
    const res = await get("/shop", { cookie: "__Host-cart=anything.sig" });
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  });
});
