import { env } from "cloudflare:test";
import { vi } from "vitest";
import { blockHashFromHeader, buildBlockHeader, sha256Hex } from "~/domain/draw";
import { explorerBases, type Fetcher } from "~/lib/draw.server";
import { fixtureBlock, type FixtureBlock } from "./draw";

// Fake Esplora block explorers serving real mainnet blocks (tests/fixtures/bitcoin-blocks.json) and made-up ones
// between them: no network. For the draw tests and the tests that draw a pool on the way (notifications).

/** The explorers the Worker is configured with (wrangler.toml); the fakes answer for exactly these. */
export const [EXPLORER_A, EXPLORER_B] = explorerBases(env) as [string, string];

/** The fixture block the tests draw on unless they say otherwise. */
export const DRAW_BLOCK = fixtureBlock(503252);

export interface FakeExplorer {
  tip?: number;
  /** What /block-height/{h} answers for heights up to the tip it has no block for (default: one chain shared by all). */
  chain?: string;
  /** "reject": the request fails (network); a number: that HTTP status for everything. */
  down?: "reject" | number;
  /** Blocks it knows, by height (their ids are what /block-height/{h} answers). */
  blocks?: Record<number, Partial<FixtureBlock> & { id: string }>;
  /**
   * The height of the real chain's tip, mined a minute ago (default: this explorer's tip): the made-up blocks below
   * it are 10 minutes apart, the same on every explorer, so a lagging explorer's tip is as old as it would be.
   */
  realTip?: number;
}

/**
 * A made-up header at `height` of a chain (for the blocks up to a fake explorer's tip that the fixture does not
 * hold): its id is the real double SHA-256 of its fields, so a tip's header checks out; it links to nothing real.
 */
async function madeUpBlock(chain: string, height: number, realTip: number) {
  const time = Math.floor(Date.now() / 60_000) * 60 - 60 - (realTip - height) * 600;
  const fields = {
    height,
    version: 0x20000000,
    previousblockhash: await sha256Hex(`${chain}:parent:${height}`),
    merkle_root: await sha256Hex(`${chain}:${height}`),
    timestamp: time,
    bits: 0x1d00ffff,
    nonce: 0,
  };
  return { ...fields, id: await blockHashFromHeader(buildBlockHeader(fields)) };
}

/** Explorers by base URL, as a fetcher that records every URL it is asked for. */
export function fakeExplorers(config: Record<string, FakeExplorer>): Fetcher & { calls: string[] } {
  const calls: string[] = [];
  const fetcher = async (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push(url);
    const base = Object.keys(config).find((prefix) => url.startsWith(`${prefix}/`));
    if (!base) throw new TypeError(`unexpected request in a test: ${url}`);
    const explorer = config[base]!;
    if (explorer.down === "reject") throw new TypeError("connection refused");
    if (typeof explorer.down === "number") return new Response("unavailable", { status: explorer.down });
    const path = url.slice(base.length);
    const blocks = Object.entries(explorer.blocks ?? {});
    const realTip = explorer.realTip ?? explorer.tip ?? 0;
    if (path === "/blocks/tip/height" && explorer.tip !== undefined) return new Response(String(explorer.tip));
    const atHeight = /^\/block-height\/(\d+)$/.exec(path);
    if (atHeight) {
      const height = Number(atHeight[1]);
      const block = explorer.blocks?.[height];
      if (block) return new Response(block.id);
      // Every other block up to the tip: a made-up block of the explorer's chain (the same chain unless told otherwise).
      if (explorer.tip !== undefined && height <= explorer.tip)
        return new Response((await madeUpBlock(explorer.chain ?? "main", height, realTip)).id);
      return new Response("Block not found", { status: 404 });
    }
    const byHash = /^\/block\/([0-9a-f]{64})$/.exec(path);
    if (byHash) {
      const found = blocks.find(([, block]) => block.id === byHash[1]);
      if (found) return Response.json(found[1]);
      for (let height = explorer.tip ?? -1; height >= Math.max(0, (explorer.tip ?? 0) - 200); height--) {
        const madeUp = await madeUpBlock(explorer.chain ?? "main", height, realTip);
        if (madeUp.id === byHash[1]) return Response.json(madeUp);
      }
      return new Response("Block not found", { status: 404 });
    }
    return new Response("Not found", { status: 404 });
  };
  return Object.assign(fetcher as Fetcher, { calls });
}

/** An explorer at `tip` that knows `blocks` (by default the draw block). */
export const healthy = (tip: number, blocks: FakeExplorer["blocks"] = { [DRAW_BLOCK.height]: DRAW_BLOCK }) => ({
  tip,
  blocks,
});

/** Both configured explorers healthy at `tip`. */
export const bothHealthy = (tip: number) => fakeExplorers({ [EXPLORER_A]: healthy(tip), [EXPLORER_B]: healthy(tip) });

/** The global fetch, as seen by the pool objects too (they run in this isolate). */
export function stubGlobalFetch(fetcher: Fetcher) {
  return vi
    .spyOn(globalThis, "fetch")
    .mockImplementation((input: RequestInfo | URL) => fetcher(String(input instanceof Request ? input.url : input)));
}
