import * as React from "react";
import { createElement as h, Suspense } from "react";
import * as ReactDOM from "react-dom";
import edgeRenderer from "../node_modules/react-dom/cjs/react-dom-server.edge.production.js?raw";
import { describe, expect, it } from "vitest";
import { joinFizzTextChunks } from "../scripts/fizz-text-chunks";

// The build joins React's server-rendered text before encoding it (scripts/fizz-text-chunks.ts, decision 250). The
// page must come out byte for byte as React's own renderer writes it: here the installed renderer and the changed
// one render the same pages side by side.

type Server = typeof import("react-dom/server");

/**
 * A CommonJS build of the renderer, evaluated in this isolate (the test pool allows `new Function` in tests), with a
 * TextEncoder that counts its encode() calls.
 */
function load(source: string): Server & { encodes: () => number } {
  const module = { exports: {} as Server };
  let encodes = 0;
  class CountingEncoder extends TextEncoder {
    override encode(input?: string) {
      encodes += 1;
      return super.encode(input);
    }
  }
  const modules: Record<string, unknown> = { react: React, "react-dom": ReactDOM };
  const require = (name: string) => {
    if (!(name in modules)) throw new Error(`unexpected require ${name}`);
    return modules[name];
  };
  new Function("exports", "require", "module", "TextEncoder", source)(module.exports, require, module, CountingEncoder);
  return Object.assign(module.exports, { encodes: () => encodes });
}

async function render(server: Server, page: React.ReactNode) {
  const errors: unknown[] = [];
  const stream = await server.renderToReadableStream(page, {
    nonce: "n0nce",
    onError: (error: unknown) => void errors.push(error),
  });
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  expect(errors).toEqual([]);
  return { bytes, chunks: chunks.length };
}

/** Where the bytes of two renders first differ (-1: nowhere), so a failure names a place instead of two pages. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
}

/**
 * Content that arrives a moment after the shell, as a page's deferred data does: its boundary streams in later. (Its
 * element is made when it arrives, outside the render: the renderer under test is React's production build.)
 */
function lateContent() {
  let content: React.ReactNode;
  const arrival = new Promise<void>((resolve) =>
    setTimeout(() => {
      content = h("p", { "data-late": "" }, "Arrived later: ünïcödé ✓");
      resolve();
    }, 5),
  );
  return function Late() {
    if (content === undefined) throw arrival;
    return content;
  };
}

/** A page with thousands of pieces: attributes, texts to escape, multi-byte text, a boundary that streams later. */
function page(Late: () => React.ReactNode) {
  const rows = Array.from({ length: 300 }, (_, i) =>
    h(
      "li",
      {
        key: i,
        id: `row-${i}`,
        className: i % 2 ? "odd" : "even",
        "data-price": `RM ${i},00`,
        title: `Café ${i} "quoted" <b>`,
      },
      h("a", { href: `/product/${i}?q=a&b=<c>` }, `Produit ${i} — 中文 🎉 & more`),
      h("input", { type: "checkbox", defaultChecked: i % 3 === 0, "aria-label": `Pick ${i}` }),
    ),
  );
  return h(
    "html",
    { lang: "en" },
    h("head", null, h("meta", { charSet: "utf-8" }), h("title", null, "Tribe · Shop")),
    h(
      "body",
      null,
      h("ul", null, rows),
      h(Suspense, { fallback: h("p", null, "Loading…") }, h(Late)),
      h("script", { nonce: "n0nce", dangerouslySetInnerHTML: { __html: "window.x = 1;" } }),
    ),
  );
}

describe("React's server renderer with its text joined before encoding", () => {
  it("writes every page byte for byte as React does, encoding its text a few times instead of thousands", async () => {
    const original = load(edgeRenderer);
    const joined = load(joinFizzTextChunks(edgeRenderer));
    const [originalAtStart, joinedAtStart] = [original.encodes(), joined.encodes()];
    const [a, b] = [await render(original, page(lateContent())), await render(joined, page(lateContent()))];
    const text = new TextDecoder().decode(b.bytes);
    expect(text.includes("Produit 299 — 中文 🎉 &amp; more")).toBe(true);
    expect(text.includes("Arrived later: ünïcödé ✓")).toBe(true);
    expect(b.bytes.byteLength).toBeGreaterThan(40_000);
    expect(b.bytes.byteLength).toBe(a.bytes.byteLength);
    expect(firstDifference(a.bytes, b.bytes)).toBe(-1);
    // React's own renderer encodes each piece (thousands here); the joined text is encoded once per 4 KB.
    const [originalCalls, joinedCalls] = [original.encodes() - originalAtStart, joined.encodes() - joinedAtStart];
    expect(originalCalls).toBeGreaterThan(2_000);
    expect(joinedCalls).toBeLessThanOrEqual(Math.ceil(b.bytes.byteLength / 4096) + 5);
    // It still streams: 4 KB pieces, not one piece at the end.
    expect(b.chunks).toBeGreaterThan(10);
  });

  it("renders a small page and an empty boundary the same", async () => {
    const original = load(edgeRenderer);
    const joined = load(joinFizzTextChunks(edgeRenderer));
    const small = () => h("div", { className: "x" }, "é", h(Suspense, { fallback: null }, null));
    const [a, b] = [await render(original, small()), await render(joined, small())];
    expect(new TextDecoder().decode(b.bytes)).toBe(new TextDecoder().decode(a.bytes));
    expect(firstDifference(a.bytes, b.bytes)).toBe(-1);
  });

  it("refuses a React build whose code has changed instead of changing it blindly", () => {
    expect(() =>
      joinFizzTextChunks(
        edgeRenderer.replace("function byteLengthOfChunk(chunk) {", "function byteLengthOfChunk(c) {"),
      ),
    ).toThrow(/no longer contains exactly one "function byteLengthOfChunk\(chunk\) \{"/);
  });
});
