import { describe, expect, it } from "vitest";
import { isDemoOriginAllowed } from "~/lib/config.server";
import { builtWorkerFetch } from "./support/built-worker";

// Issue 27: a deployment left with DEMO_MODE=true was open to anyone ("Try the demo", every reset link in the
// outbox). Demo mode now serves only on this machine or an origin listed in DEMO_ORIGINS (decision 420).

const DEMO = { DEMO_MODE: "true", DEMO_ORIGINS: "https://tribe.test, https://demo.tribe.example/" };

describe("demo mode", () => {
  it("refuses every page and the API at an origin it was not given, with a page saying why", async () => {
    for (const path of ["/", "/signin", "/dev/outbox", "/api/health"]) {
      const res = await builtWorkerFetch(new Request(`https://tribe.example${path}`), DEMO);
      expect(res.status, path).toBe(503);
      const text = await res.text();
      expect(text, path).toContain("This site is in demo mode");
      expect(text, path).toContain("DEMO_ORIGINS");
      expect(text, path).not.toContain("Try the demo");
    }
  });

  it("serves on localhost, 127.0.0.1 and the listed origins", async () => {
    for (const origin of [
      "http://localhost:8787",
      "http://127.0.0.1:41234",
      "https://tribe.test",
      "https://demo.tribe.example",
    ]) {
      const res = await builtWorkerFetch(new Request(`${origin}/api/health`), DEMO);
      expect(res.status, origin).toBe(200);
    }
  });

  it("serves everywhere when demo mode is off", async () => {
    const res = await builtWorkerFetch(new Request("https://tribe.example/api/health"), {
      DEMO_MODE: "false",
      DEMO_ORIGINS: "",
    });
    expect(res.status).toBe(200);
  });

  it("matches whole origins only: scheme, host and port", () => {
    const env = { DEMO_ORIGINS: "https://demo.tribe.example" };
    expect(isDemoOriginAllowed(env, new URL("https://demo.tribe.example/x"))).toBe(true);
    expect(isDemoOriginAllowed(env, new URL("http://demo.tribe.example/x"))).toBe(false);
    expect(isDemoOriginAllowed(env, new URL("https://demo.tribe.example:8443/x"))).toBe(false);
    expect(isDemoOriginAllowed(env, new URL("https://demo.tribe.example.evil.test/x"))).toBe(false);
    expect(isDemoOriginAllowed({ DEMO_ORIGINS: "" }, new URL("https://tribe.example/"))).toBe(false);
    expect(isDemoOriginAllowed({ DEMO_ORIGINS: "" }, new URL("http://localhost:3000/"))).toBe(true);
  });
});
