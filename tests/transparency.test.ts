import { env, SELF } from "cloudflare:test";
import { and, asc, eq, gt } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getLogHead, listLogFrom } from "~/db/queries/transparency.server";
import { drawCommitments, mailOutbox, transparencyLog } from "~/db/schema";
import { blockHashFromHeader, buildBlockHeader } from "~/domain/draw";
import { reversalVoidsDraw } from "~/domain/pool";
import {
  checkExtends,
  fetchLogFrom,
  GENESIS_TRANSPARENCY_HASH,
  nextTransparencyRecord,
  transparencyHash,
  verifyTransparencyChain,
  type TransparencyRecord,
} from "~/domain/transparency-log";
import { drawPool, explorerBases, recordCommitment, type Fetcher } from "~/lib/draw.server";
import { applyPaymentReversal } from "~/lib/pool-reversal.server";
import { addContribution, closePool, openPool } from "~/lib/pools.server";
import fixture from "./fixtures/bitcoin-blocks.json";
import { db, makeUser, ORIGIN, pageText } from "./helpers";
import { commitToParent } from "./support/draw";

// The public commitment log (decision 550, docs/product.md#the-public-log): one hash-chained log across every pool,
// appended in the same batch as each pool's draw log record, served at /transparency and /transparency.json.

const BLOCK = fixture.blocks.find((block) => block.height === 503252)!;
const [EXPLORER_A, EXPLORER_B] = explorerBases(env) as [string, string];

/** A made-up header at `height`, mined a minute ago (so a tip there is fresh); its id is its real double SHA-256. */
async function madeUpTip(height: number) {
  const fields = {
    height,
    version: 0x20000000,
    previousblockhash: "1".repeat(64),
    merkle_root: "2".repeat(64),
    timestamp: Math.floor(Date.now() / 1000) - 60,
    bits: 0x1d00ffff,
    nonce: height,
  };
  return { ...fields, id: await blockHashFromHeader(buildBlockHeader(fields)) };
}

/** Two Esplora explorers at `tip` that serve the fixture block 503,252 and a fresh made-up tip. */
function explorersAt(tip: number): Fetcher {
  return async (input) => {
    const url = String(input);
    if (![EXPLORER_A, EXPLORER_B].some((base) => url.startsWith(`${base}/`))) throw new TypeError(`unexpected ${url}`);
    const tipBlock = await madeUpTip(tip);
    if (url.endsWith("/blocks/tip/height")) return new Response(String(tip));
    const height = /\/block-height\/(\d+)$/.exec(url)?.[1];
    if (height) return new Response(Number(height) === BLOCK.height ? BLOCK.id : tipBlock.id);
    const hash = /\/block\/([0-9a-f]{64})$/.exec(url)?.[1];
    if (hash === BLOCK.id) return Response.json(BLOCK);
    if (hash === tipBlock.id) return Response.json(tipBlock);
    return new Response("Not found", { status: 404 });
  };
}

function stubExplorers(fetcher: Fetcher) {
  vi.restoreAllMocks();
  vi.spyOn(globalThis, "fetch").mockImplementation((input: RequestInfo | URL) =>
    fetcher(String(input instanceof Request ? input.url : input)),
  );
}

beforeEach(() => stubExplorers(async () => Promise.reject(new TypeError("no network in this test"))));
afterEach(() => vi.restoreAllMocks());

/** A closed pool (no explorer answered at close, so uncommitted) with paid, free and postal entries. */
async function closedPool(paid = 3) {
  const host = await makeUser({ name: "Log Host" });
  const pool = await openPool(env, { hostId: host.id, targetCents: 10_000_000 });
  const fans = await Promise.all(Array.from({ length: paid + 2 }, (_, i) => makeUser({ name: `Log Fan ${i}` })));
  for (const [i, fan] of fans.entries()) {
    const free = i === paid ? "free_entry" : i === paid + 1 ? "postal_entry" : null;
    await addContribution(env, {
      hostId: host.id,
      sourceType: free ?? "product_purchase",
      sourceKey: `pi_log_${pool.id}_${i}`,
      amountCents: free ? 0 : 1_000,
      currency: "USD",
      userId: fan.id,
      earnsEntry: true,
    });
  }
  await closePool(env, pool.id, "timer_expired");
  return { host, pool, fans };
}

async function poolLogRecords(poolId: string): Promise<TransparencyRecord[]> {
  const rows = await db()
    .select()
    .from(transparencyLog)
    .where(eq(transparencyLog.poolId, poolId))
    .orderBy(asc(transparencyLog.seq));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.getTime() }));
}

async function json(path: string): Promise<unknown> {
  const response = await SELF.fetch(`${ORIGIN}${path}`);
  expect(response.status).toBe(200);
  return response.json();
}

describe("appending", () => {
  it("a commitment, the void of its draw and the redraw's commitment each append one record, chained", async () => {
    const { pool, fans } = await closedPool(3);
    const before = await getLogHead(db());
    await commitToParent(pool.id, BLOCK);
    stubExplorers(explorersAt(BLOCK.height + 10));
    const drawn = await drawPool(env, pool.id);
    expect(drawn.status).toBe("drawn");
    const winning = (drawn as { entryNumber: number }).entryNumber;
    // The winner notice carries the pool's record and the head at that moment.
    const [winnerMail] = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, fans[winning]!.email), eq(mailOutbox.subject, "You won the main prize!")));
    const [commitRecord] = await poolLogRecords(pool.id);
    const headAtDraw = await getLogHead(db());
    expect(winnerMail?.textBody).toContain(
      `This pool's record in the public commitment log: #${commitRecord!.seq}, SHA-256 ${commitRecord!.hash}.`,
    );
    expect(winnerMail?.textBody).toContain(
      `The log's head when this was sent: #${headAtDraw.seq}, SHA-256 ${headAtDraw.hash}.`,
    );

    // The winning payment is charged back; the explorers' tip is far past the block: a redraw from a fresh commitment.
    const tipAtVoid = BLOCK.height + 4_000;
    stubExplorers(explorersAt(tipAtVoid));
    const winningKey = `pi_log_${pool.id}_${winning}`;
    const outcome = await applyPaymentReversal(env, {
      sourceKey: winningKey,
      reversalKey: `dp_log_${pool.id}`,
      reversedCents: winning < 3 ? 1_000 : 0,
      paymentCents: winning < 3 ? 1_000 : 0,
      cumulativeReversedCents: winning < 3 ? 1_000 : 0,
      voidsDraw: reversalVoidsDraw("dispute"),
    });
    if (winning >= 3) return expect.fail(`a free entry (#${winning}) won; the test expects a paid winner`);
    expect(outcome).toMatchObject({ redrawn: true });

    const records = await poolLogRecords(pool.id);
    const poolLog = await db()
      .select()
      .from(drawCommitments)
      .where(eq(drawCommitments.poolId, pool.id))
      .orderBy(asc(drawCommitments.seq));
    expect(records.map((r) => [r.kind, r.poolSeq, r.blockHeight, r.reason])).toEqual([
      ["commit", 0, BLOCK.height, "commitment at close"],
      [
        "void",
        1,
        BLOCK.height,
        "draw voided: the winning entry's payment was reversed by the buyer or the card provider",
      ],
      ["commit", 2, tipAtVoid + 3, "redraw: committed afresh after the draw was voided"],
    ]);
    // Each names its pool record by hash, with the digest and the valid entries by source.
    expect(records.map((r) => r.poolRecordHash)).toEqual(poolLog.map((r) => r.hash));
    for (const record of records) {
      expect(record.entriesDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(record.entryCounts).toEqual({ product_purchase: 3, free_entry: 1, postal_entry: 1 });
    }
    // The redraw's commitment records every tip the explorers reported.
    expect(records[2]!.tipsSeen).toEqual([
      { explorer: EXPLORER_A, height: tipAtVoid },
      { explorer: EXPLORER_B, height: tipAtVoid },
    ]);
    expect(records[2]!.tipHeight).toBe(tipAtVoid);
    // The whole log from before this pool to the head chains.
    const since = await listLogFrom(db(), { from: before.seq, limit: 1000 });
    expect(await verifyTransparencyChain(since)).toEqual({ ok: true });
  });

  it("a refused block appends a record with the reason", async () => {
    const { pool } = await closedPool(2);
    expect(
      await recordCommitment(env, pool.id, {
        blockHeight: BLOCK.height,
        tip: { height: BLOCK.height - 1, hash: "9".repeat(64), time: BLOCK.timestamp - 600 },
        highestTip: BLOCK.height - 1,
        at: new Date(BLOCK.timestamp * 1000),
      }),
    ).toBe(true);
    stubExplorers(explorersAt(BLOCK.height + 10));
    expect(await drawPool(env, pool.id)).toMatchObject({ status: "delayed" });
    const records = await poolLogRecords(pool.id);
    expect(records.map((r) => r.kind)).toEqual(["commit", "delay"]);
    expect(records[1]!.reason).toBe(
      `committed block refused: block ${BLOCK.height} does not descend from the recorded tip ${"9".repeat(64)}`,
    );
  });

  it("concurrent appends each land exactly once, numbered densely, each naming the previous hash", async () => {
    const pools = await Promise.all(Array.from({ length: 5 }, () => closedPool(1)));
    const before = await getLogHead(db());
    const results = await Promise.all(pools.map(({ pool }) => commitToParent(pool.id, BLOCK)));
    expect(results).toHaveLength(5);
    const appended = (
      await db()
        .select()
        .from(transparencyLog)
        .where(gt(transparencyLog.seq, before.seq))
        .orderBy(asc(transparencyLog.seq))
    ).map((row) => ({ ...row, createdAt: row.createdAt.getTime() }));
    expect(appended.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5].map((n) => before.seq + n));
    expect(appended[0]!.prevHash).toBe(before.hash);
    for (let i = 1; i < appended.length; i++) expect(appended[i]!.prevHash).toBe(appended[i - 1]!.hash);
    expect(new Set(appended.map((r) => r.poolId))).toEqual(new Set(pools.map(({ pool }) => pool.id)));
    expect(await verifyTransparencyChain(appended)).toEqual({ ok: true });
    // A second commitment of a committed pool writes nothing, in either log.
    expect(
      await recordCommitment(env, pools[0]!.pool.id, {
        blockHeight: BLOCK.height + 1,
        tip: { height: BLOCK.height, hash: BLOCK.id, time: BLOCK.timestamp },
        highestTip: BLOCK.height,
        at: new Date(),
      }),
    ).toBe(false);
    expect(await poolLogRecords(pools[0]!.pool.id)).toHaveLength(1);
    expect((await getLogHead(db())).seq).toBe(before.seq + 5);
  });
});

describe("/transparency.json", () => {
  it("serves 100 records a page, newest first, with next links to the end, and oldest first from a record", async () => {
    const { pool } = await closedPool(1);
    await commitToParent(pool.id, BLOCK);
    // Enough records for three pages: appended as the app does, chained to the head.
    let head = await getLogHead(db());
    const extra = [];
    for (let i = 0; i < 210; i++) {
      const record = await nextTransparencyRecord(head, {
        kind: "delay",
        poolId: pool.id,
        poolSeq: 1_000 + i,
        poolRecordHash: "c".repeat(64),
        entriesDigest: null,
        entryCounts: { product_purchase: 1 },
        blockHeight: BLOCK.height,
        tipHeight: null,
        tipHash: null,
        tipTime: null,
        highestTip: null,
        tipsSeen: [],
        reason: `page filler ${i}`,
        createdAt: Date.now(),
      });
      extra.push({ ...record, createdAt: new Date(record.createdAt) });
      head = record;
    }
    for (let i = 0; i < extra.length; i += 5)
      await db()
        .insert(transparencyLog)
        .values(extra.slice(i, i + 5));

    const first = (await json("/transparency.json")) as {
      head: typeof head;
      records: TransparencyRecord[];
      next: string;
    };
    expect(first.head).toEqual({ seq: head.seq, hash: head.hash });
    expect(first.records).toHaveLength(100);
    expect(first.records[0]!.seq).toBe(head.seq);
    expect(first.records.map((r) => r.seq)).toEqual(Array.from({ length: 100 }, (_, i) => head.seq - i));
    expect(first.next).toBe(`/transparency.json?before=${head.seq - 99}`);
    const seen = [...first.records];
    let next: string | null = first.next;
    while (next) {
      const page = (await json(next)) as { records: TransparencyRecord[]; next: string | null };
      expect(page.records.length).toBeLessThanOrEqual(100);
      seen.push(...page.records);
      next = page.next;
    }
    expect(seen.at(-1)).toMatchObject({ seq: 0, kind: "genesis", hash: GENESIS_TRANSPARENCY_HASH });
    expect(seen.map((r) => r.seq)).toEqual(Array.from({ length: head.seq + 1 }, (_, i) => head.seq - i));
    expect(await verifyTransparencyChain(seen)).toEqual({ ok: true });

    // Oldest first from a record, the way the verification page walks to the head.
    const from = head.seq - 150;
    const walked = await fetchLogFrom(json, from);
    expect(walked.head).toEqual(first.head);
    expect(walked.records.map((r) => r.seq)).toEqual(Array.from({ length: 151 }, (_, i) => from + i));
    const fromPage = (await json(`/transparency.json?from=${from}`)) as { next: string };
    expect(fromPage.next).toBe(`/transparency.json?from=${from + 100}`);

    // The page lists them newest first with the head, and entry counts by source.
    const text = await pageText(await SELF.fetch(`${ORIGIN}/transparency`));
    expect(text).toContain(`Head: record #${head.seq} ${head.hash}`);
    expect(text).toContain("page filler 209");
    expect(text).not.toContain("page filler 109");
    const page2 = await pageText(await SELF.fetch(`${ORIGIN}/transparency?page=2`));
    expect(page2).toContain("page filler 109");
  });

  it("answers a bad query with 400 and a clear message", async () => {
    for (const query of ["?from=-1", "?before=abc", "?from=1&before=5"]) {
      const response = await SELF.fetch(`${ORIGIN}/transparency.json${query}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain("?before=<record number>");
    }
  });
});

describe("the verification page and a kept head", () => {
  it("shows the pool's record and the head; the path from the record to the head checks", async () => {
    const { pool } = await closedPool(2);
    await commitToParent(pool.id, BLOCK);
    const [record] = await poolLogRecords(pool.id);
    const head = await getLogHead(db());
    const text = await pageText(await SELF.fetch(`${ORIGIN}/winner-selection/${pool.id}`));
    expect(text).toContain(`This pool's record: #${record!.seq} ${record!.hash}`);
    expect(text).toContain(`Head of the log as this page was read: #${head.seq} ${head.hash}`);
    const walked = await fetchLogFrom(json, record!.seq);
    expect(await checkExtends(walked.records, record!, walked.head)).toEqual({ ok: true });
  });

  it("an edited record breaks its hash; a log rewritten consistently is exposed by a kept head", async () => {
    const { pool } = await closedPool(2);
    await commitToParent(pool.id, BLOCK);
    const kept = await getLogHead(db());
    const [mine] = await poolLogRecords(pool.id);
    const other = await closedPool(1);
    await commitToParent(other.pool.id, BLOCK);

    // The operator edits this pool's record (one more paid entry) in place.
    await db()
      .update(transparencyLog)
      .set({ entryCounts: { product_purchase: 3, free_entry: 1, postal_entry: 1 } })
      .where(eq(transparencyLog.seq, mine!.seq));
    let walked = await fetchLogFrom(json, mine!.seq);
    expect(await verifyTransparencyChain(walked.records)).toMatchObject({ ok: false, seq: mine!.seq });

    // ...then recomputes every hash from there on, so the log chains again.
    const rows = await listLogFrom(db(), { from: mine!.seq, limit: 1000 });
    let prevHash = rows[0]!.prevHash;
    for (const row of rows) {
      const hash = await transparencyHash(prevHash, row);
      await db().update(transparencyLog).set({ prevHash, hash }).where(eq(transparencyLog.seq, row.seq));
      prevHash = hash;
    }
    walked = await fetchLogFrom(json, kept.seq);
    expect(await verifyTransparencyChain(walked.records)).toEqual({ ok: true });
    const check = await checkExtends(walked.records, kept, walked.head);
    expect(check).toMatchObject({ ok: false, seq: kept.seq });
    expect(check.ok ? "" : check.reason).toContain(`not ${kept.hash}: the log was rewritten since`);
    // The draw log record it mirrors still names the old hash chain: the page's mirror check sees the edit too.
    const [poolRecord] = await db()
      .select()
      .from(drawCommitments)
      .where(and(eq(drawCommitments.poolId, pool.id), eq(drawCommitments.seq, 0)));
    expect(poolRecord!.hash).toBe(mine!.poolRecordHash);
  });
});
