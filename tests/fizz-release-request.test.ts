import * as React from "react";
import { createElement as h, Suspense } from "react";
import * as ReactDOM from "react-dom";
import edgeRenderer from "../node_modules/react-dom/cjs/react-dom-server.edge.production.js?raw";
import { describe, expect, it } from "vitest";
import { joinFizzTextChunks } from "../scripts/fizz-text-chunks";
import { releaseFizzRequest } from "../scripts/fizz-release-request";

// The build makes React's renderToReadableStream let go of its render once the page is written
// (scripts/fizz-release-request.ts, decision 360): the stream's functions reach the render through one holder that is
// emptied when the stream closes. Here the installed renderer and the changed one (with the text plugin too, as the
// build applies both) render the same pages, and the holder handed to the stream is watched.

type Server = typeof import("react-dom/server");
type Source = { request?: unknown; pull?: unknown; cancel?: unknown };

/** A CommonJS build of the renderer evaluated in this isolate, recording the source object of each stream it makes. */
function load(source: string): Server & { sources: Source[] } {
  const module = { exports: {} as Server };
  const sources: Source[] = [];
  class WatchedStream<R> extends ReadableStream<R> {
    constructor(underlying: UnderlyingSource<R>, strategy?: QueuingStrategy<R>) {
      sources.push(underlying as Source);
      super(underlying, strategy);
    }
  }
  const modules: Record<string, unknown> = { react: React, "react-dom": ReactDOM };
  const require = (name: string) => {
    if (!(name in modules)) throw new Error(`unexpected require ${name}`);
    return modules[name];
  };
  new Function("exports", "require", "module", "ReadableStream", source)(module.exports, require, module, WatchedStream);
  return Object.assign(module.exports, { sources });
}

const built = (code: string) => releaseFizzRequest(joinFizzTextChunks(code));

/** A boundary whose content arrives when `arrive()` is called, as a page's streamed loader data does. */
function lateContent() {
  let content: React.ReactNode;
  let arrive!: () => void;
  const arrival = new Promise<void>((resolve) => {
    arrive = () => {
      content = h("p", { "data-late": "" }, "Arrived later: ünïcödé ✓");
      resolve();
    };
  });
  function Late() {
    if (content === undefined) throw arrival;
    return content;
  }
  return { Late, arrive };
}

function page(Late: () => React.ReactNode) {
  const rows = Array.from({ length: 200 }, (_, i) =>
    h("li", { key: i, className: i % 2 ? "odd" : "even", title: `Café ${i} "quoted"` }, `Produit ${i} — 中文 🎉 & more`),
  );
  return h("html", { lang: "en" },
    h("head", null, h("meta", { charSet: "utf-8" }), h("title", null, "Tribe · Shop")),
    h("body", null, h("ul", null, rows), h(Suspense, { fallback: h("p", null, "Loading…") }, h(Late))),
  );
}

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>, first: Uint8Array[] = []) {
  const chunks = [...first];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) (bytes.set(c, at), (at += c.byteLength));
  return bytes;
}

async function renderWhole(server: Server, errors: unknown[]) {
  const { Late, arrive } = lateContent();
  const stream = await server.renderToReadableStream(page(Late), { nonce: "n0nce", onError: (e: unknown) => void errors.push(e) });
  setTimeout(arrive, 5);
  return readAll(stream.getReader() as ReadableStreamDefaultReader<Uint8Array>);
}

describe("React's server renderer letting go of a page once it is written", () => {
  it("writes the same bytes, holds the render while the page streams and empties the holder when the stream closes", async () => {
    const original = load(edgeRenderer);
    const changed = load(built(edgeRenderer));
    const errors: unknown[] = [];
    const expected = await renderWhole(original, errors);

    const { Late, arrive } = lateContent();
    const stream = await changed.renderToReadableStream(page(Late), { nonce: "n0nce", onError: (e: unknown) => void errors.push(e) });
    expect(changed.sources).toHaveLength(1);
    const source = changed.sources[0]!;
    const reader = stream.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    const first = await reader.read();
    expect(first.done).toBe(false);
    // The boundary has not arrived: the stream still needs its render.
    expect(source.request).not.toBeNull();
    expect(typeof source.request).toBe("object");
    arrive();
    const bytes = await readAll(reader, [first.value!]);

    expect(errors).toEqual([]);
    expect(new TextDecoder().decode(bytes)).toContain("Arrived later: ünïcödé ✓");
    expect(bytes.byteLength).toBe(expected.byteLength);
    expect(new TextDecoder().decode(bytes)).toBe(new TextDecoder().decode(expected));
    // Written and closed: the stream no longer reaches the render (React's own keeps it in its functions' scope).
    expect(source.request).toBeNull();
    expect(original.sources[0]).not.toHaveProperty("request");
  });

  it("still stops a render whose reader goes away before the end", async () => {
    const changed = load(built(edgeRenderer));
    const errors: unknown[] = [];
    const { Late, arrive } = lateContent();
    const stream = await changed.renderToReadableStream(page(Late), { onError: (e: unknown) => void errors.push(e) });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel(new Error("the browser went away"));
    arrive();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // React reports the boundary it could not finish; the stream took no more bytes and nothing threw.
    expect(errors.map((e) => (e as Error).message)).toEqual(["the browser went away"]);
  });

  it("refuses a React build whose code has changed instead of changing it blindly", () => {
    const changedClose = edgeRenderer.replace("destination.close(),\n          (request.destination = null))", "destination.close())");
    expect(changedClose).not.toBe(edgeRenderer);
    expect(() => releaseFizzRequest(changedClose)).toThrow(/no longer contains exactly one "          \(request.status = 13\),"/);
    // The stream's functions are changed in both exports that share them (renderToReadableStream and resume): a
    // release that changes one of them stops the build too.
    const inResume = edgeRenderer.indexOf("startFlowing(request, controller);", edgeRenderer.indexOf("exports.resume = function"));
    const changedResume = `${edgeRenderer.slice(0, inResume)}startFlowing(request, controller, 0);${edgeRenderer.slice(inResume + 34)}`;
    expect(() => releaseFizzRequest(changedResume)).toThrow(/no longer contains exactly 2 "          var stream = new ReadableStream\("/);
  });
});
