import { env } from "cloudflare:test";
import { recordCommitment } from "~/lib/draw.server";
import fixture from "../fixtures/bitcoin-blocks.json";

// Drawing a pool on a real block (tests/fixtures/bitcoin-blocks.json) under the rules of decision 390, for the draw
// tests and the model-based money test.

export type FixtureBlock = (typeof fixture.blocks)[number];

/** A real block by height (the fixture holds 0, 1, 503,252 and 840,000). */
export function fixtureBlock(height: number): FixtureBlock {
  const block = fixture.blocks.find((b) => b.height === height);
  if (!block) throw new Error(`no fixture block at ${height}`);
  return block;
}

/**
 * Records a commitment to `block` whose tip is the block's parent: the fixture holds no headers between a tip 3 below
 * a real block and the block (and a made-up header cannot hash to a real block's parent), so the only tip a real
 * block can be shown to descend from is its parent, with the commitment made when the block was mined. The cron's
 * acceptance checks height, descent and time against it; the verification page also checks the margin rule, which
 * this commitment does not meet (see the verification tests). Throws when the pool is not closed and uncommitted.
 */
export async function commitToParent(
  poolId: string,
  block: { height: number; previousblockhash: string; timestamp: number },
): Promise<void> {
  const committed = await recordCommitment(env, poolId, {
    blockHeight: block.height,
    tip: { height: block.height - 1, hash: block.previousblockhash, time: block.timestamp - 600 },
    highestTip: block.height - 1,
    at: new Date(block.timestamp * 1000),
  });
  if (!committed)
    throw new Error(`pool ${poolId}: no commitment to block ${block.height} recorded (not closed and uncommitted?)`);
}
