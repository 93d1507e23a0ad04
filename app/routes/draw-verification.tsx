import { useState, type ReactNode } from "react";
import { CheckList, type CheckResult, type CheckStatus } from "~/components/check-list";
import { FreeEntryLink } from "~/components/free-entry-link";
import { Link } from "~/components/link";
import { MiniPrizeVerification } from "~/components/mini-prize-verification";
import { PublicLogCheck } from "~/components/public-log-check";
import { Button, Card, DateText, LinkButton, Page, pageMeta, Pagination } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getMiniPrizeVerification } from "~/db/queries/mini-prizes.server";
import { listCommitmentLog, listPoolDraws } from "~/db/queries/draw.server";
import { countPoolEntries, getPoolForVerification, listPoolEntries } from "~/db/queries/pool-screens.server";
import { getPoolLogStamp, listPoolLogRecords } from "~/db/queries/transparency.server";
// Only the pure draw modules run in the browser (Web Crypto and BigInt, no zod): the same rules that drew the winner.
import { hashToDecimal, opaqueEntryKey, type BitcoinBlock } from "~/domain/draw";
import { DRAW_COMMIT_MARGIN, type AcceptanceCheck, type CommitmentRecord } from "~/domain/draw-commitment";
import { verifyPublishedDraw, type DrawVerificationReport, type PublishedDraw } from "~/domain/draw-verification";
import { formatCents } from "~/domain/money";
import type { LogHead } from "~/domain/transparency-log";
import { getEnv } from "~/lib/context";
import { explorerBases } from "~/lib/draw.server";
import { idParam, notFound, pageParam } from "~/lib/guards.server";
import type { Route } from "./+types/draw-verification";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(
    loaderData?.pool.status === "open" ? "Prize pool still open" : "Verify a draw",
    "Every input of a prize pool draw, and a check of the result that runs in your browser.",
  );

const ENTRIES_PER_PAGE = 100;
/** Public Esplora APIs the browser may ask for a block's header fields (they allow cross-origin reads). */
const PUBLIC_EXPLORERS = ["https://blockstream.info/api", "https://mempool.space/api"];
const CLOSE_REASON_TEXT = {
  target_reached: "Target reached",
  timer_expired: "Timer expired",
  closed_early: "Closed early",
} as const;

export function entriesTextPath(poolId: string): string {
  return `/winner-selection/${encodeURIComponent(poolId)}/entries.txt`;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const poolId = idParam(params.poolId);
  const env = getEnv(context);
  const db = getDb(env);
  const pool = await getPoolForVerification(db, poolId);
  if (!pool) notFound();
  const base = {
    id: pool.id,
    hostId: pool.hostId,
    hostName: pool.hostName ?? "A host",
    amount: formatCents(pool.amountCents, pool.currency),
    target: formatCents(pool.targetCents, pool.currency),
    startAt: pool.startAt.toISOString(),
    endAt: pool.endAt.toISOString(),
  };
  // An open pool has no frozen list and no draw yet: the page says so (200) rather than answering 404.
  if (pool.status === "open") {
    return {
      pool: { ...base, status: "open" as const },
      draw: null,
      draws: [] as PublishedDraw[],
      log: [] as CommitmentRecord[],
      entries: null,
      explorers: [],
      miniPrizes: null,
      publicLog: null,
    };
  }

  const page = pageParam(request, 100_000);
  const [count, entryRows, drawRows, log, poolLogRecords, stamp] = await Promise.all([
    countPoolEntries(db, pool.id),
    listPoolEntries(db, pool.id, { limit: ENTRIES_PER_PAGE, offset: (page - 1) * ENTRIES_PER_PAGE }),
    listPoolDraws(db, pool.id),
    listCommitmentLog(db, pool.id),
    listPoolLogRecords(db, pool.id),
    getPoolLogStamp(db, pool.id),
  ]);
  // The page shows the list as entries.txt publishes it: opaque keys (SHA-256 of each private source key), voids marked.
  const rows = await Promise.all(
    entryRows.map(async (row) => ({
      entryNumber: row.entryNumber,
      key: await opaqueEntryKey(row.sourceKey),
      voided: row.voidedAt !== null,
    })),
  );
  const draws: PublishedDraw[] = drawRows.map((row) => ({
    attempt: row.attempt,
    blockHeight: row.blockHeight,
    blockHash: row.blockHash,
    block: row.blockHeader,
    winnerEntryNumber: row.winnerEntryNumber,
    voided: row.voidedAt !== null,
    voidReason: row.voidReason,
    chainHeaders: row.chainHeaders,
    commitmentSeq: row.commitmentSeq,
  }));
  // Explorers configured for the draw when they are public https APIs, else the two public ones.
  const configured = explorerBases(env).filter((url) => url.startsWith("https://"));
  return {
    pool: { ...base, status: pool.status },
    draw: {
      closedAt: pool.closedAt?.toISOString() ?? null,
      closeReason: pool.closeReason ? CLOSE_REASON_TEXT[pool.closeReason] : null,
      entriesCount: count,
      entriesDigest: pool.entriesDigest,
      blockHeight: pool.drawBlockHeight,
      blockHash: pool.drawBlockHash,
      decimalHash: pool.drawBlockHash ? hashToDecimal(pool.drawBlockHash) : null,
      winnerEntryNumber: pool.winnerEntryNumber,
      winnerName: pool.winnerName ?? (pool.winnerEntryNumber !== null ? `Entry #${pool.winnerEntryNumber}` : null),
      mainPrize: pool.mainPrize ? formatCents(pool.mainPrize.cents, pool.mainPrize.currency) : null,
      drawnAt: pool.drawnAt?.toISOString() ?? null,
      delayReason: pool.status === "closed" ? pool.drawDelayReason : null,
    },
    draws,
    log,
    entries: { page, rows, hasNext: page * ENTRIES_PER_PAGE < count },
    explorers: configured.length >= 2 ? configured.slice(0, 2) : PUBLIC_EXPLORERS,
    miniPrizes: pool.status === "drawn" ? await getMiniPrizeVerification(db, pool.id, pool.winnerUserId) : null,
    // The pool's records in the public commitment log (decision 550) and the log's head as this page was read.
    publicLog: {
      records: poolLogRecords.map((record): LogHead => ({ seq: record.seq, hash: record.hash })),
      stamp,
    },
  };
}

// --- browser verification -------------------------------------------------------------------------------------

type Check = CheckResult;

const BLOCK_FIELDS = ["version", "timestamp", "bits", "nonce"] as const;

/** Block header fields in an explorer's (or our API's) JSON, or null when they are not all there. */
function headerFields(value: unknown, hash: string): BitcoinBlock | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (!BLOCK_FIELDS.every((k) => typeof v[k] === "number")) return null;
  if (typeof v.merkle_root !== "string") return null;
  const previous = typeof v.previousblockhash === "string" ? v.previousblockhash : "0".repeat(64);
  return {
    id: typeof v.id === "string" ? v.id.toLowerCase() : hash,
    height: typeof v.height === "number" ? v.height : undefined,
    version: v.version as number,
    timestamp: v.timestamp as number,
    bits: v.bits as number,
    nonce: v.nonce as number,
    merkle_root: v.merkle_root,
    previousblockhash: previous,
  };
}

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(8000) });
  if (!response.ok) throw new Error(`${response.status}`);
  return response.json();
}

/** The block's header fields: from our pool API when it publishes them, else from the public explorers. */
async function findHeader(
  poolId: string,
  hash: string,
  explorers: string[],
): Promise<{ block: BitcoinBlock; source: string } | null> {
  try {
    const state = (await fetchJson(`/api/pools/${encodeURIComponent(poolId)}`)) as Record<string, unknown>;
    const block = headerFields(state.block ?? state.drawBlock, hash);
    if (block) return { block, source: "this site's pool data" };
  } catch {
    // Not published here: ask the explorers.
  }
  for (const base of explorers) {
    try {
      const block = headerFields(await fetchJson(`${base}/block/${hash}`), hash);
      if (block) return { block, source: new URL(base).host };
    } catch {
      // Try the next explorer.
    }
  }
  return null;
}

type VerifyInput = {
  poolId: string;
  digest: string | null;
  draws: PublishedDraw[];
  log: CommitmentRecord[];
  explorers: string[];
};

/** Draws whose header fields this site did not publish get them from the public explorers (then checked the same way). */
async function withHeaders(poolId: string, draws: PublishedDraw[], explorers: string[]): Promise<PublishedDraw[]> {
  return Promise.all(
    draws.map(async (draw) => {
      if (draw.block) return draw;
      const found = await findHeader(poolId, draw.blockHash, explorers);
      return found ? { ...draw, block: found.block } : draw;
    }),
  );
}

/** The checks of a verification report, as the page lists them. */
function reportChecks(report: DrawVerificationReport, publishedDigest: string | null): Check[] {
  const checks: Check[] = [
    {
      title: "Entry list matches the published SHA-256 digest",
      status: report.digestMatches ? "ok" : "failed",
      detail: (
        <>
          SHA-256 of the downloaded entries.txt: <code className="break-all">{report.computedDigest}</code>
          {report.digestMatches
            ? " — equals the published digest."
            : publishedDigest
              ? " — does NOT equal the published digest."
              : " — no digest was published."}
        </>
      ),
    },
    {
      title: "Entry list reads as opaque keys with void entries marked",
      status: report.parsed ? "ok" : "failed",
      detail: report.parsed
        ? `${report.entries} ${report.entries === 1 ? "entry" : "entries"}: ${report.validEntries} valid, ${report.voidEntries} void (a void entry keeps its number and never wins).${
            report.sources
              ? ` By source: ${report.sources.map((row) => `${row.count} ${row.source}`).join(", ")} (every entry has the same chance).`
              : ""
          }`
        : `Not an entries.txt list: ${report.error}`,
    },
  ];
  checks.push({
    title: "Draw log is hash-chained and complete",
    status: report.log.ok ? "ok" : "failed",
    detail: report.log.ok
      ? "Every commitment, void and refused block in the log names the previous record's SHA-256 and hashes to its own."
      : report.log.reason,
  });
  if (report.draws.length === 0) {
    checks.push({
      title: "Block hash picks the winning entry",
      status: "skipped",
      detail: "The pool has not been drawn yet.",
    });
  }
  const status = (check: AcceptanceCheck) => (check.ok ? "ok" : "failed") as CheckStatus;
  for (const draw of report.draws) {
    const label = report.draws.length > 1 ? ` (draw ${draw.attempt + 1}, block #${draw.blockHeight})` : "";
    checks.push({
      title: `Block was committed ${DRAW_COMMIT_MARGIN} past the highest explorer tip${label}`,
      status: status(draw.commitment),
      detail: draw.commitment.ok
        ? `The recorded commitment is ${DRAW_COMMIT_MARGIN} blocks past the highest tip two or more explorers gave (a tip far above the agreed one ignored), and the agreed tip's header time was within 2 hours of the commitment.`
        : draw.commitment.reason,
    });
    checks.push({
      title: `Block descends from the recorded tip${label}`,
      status: status(draw.chain),
      detail: draw.chain.ok
        ? "Each stored header between the recorded tip and the block rebuilds to its hash and names the one before: the block was built on the chain as it stood at the commitment."
        : draw.chain.reason,
    });
    checks.push({
      title: `Block was mined after the commitment${label}`,
      status: status(draw.blockTime),
      detail: draw.blockTime.ok
        ? "Its time is later than the commitment minus 2 hours (block times run up to about 2 hours either way of real time)."
        : draw.blockTime.reason,
    });
    checks.push({
      title: `Block header hashes to the block hash, above the difficulty floor${label}`,
      status: draw.header === null ? "skipped" : draw.header.ok ? "ok" : "failed",
      detail:
        draw.header === null
          ? "The block header could not be fetched from here (offline, or the explorers refused). Check the hash on the explorers linked above."
          : draw.header.ok
            ? "Rebuilt the 80-byte header from its fields: its double SHA-256 equals the block hash, meets its proof-of-work target and a difficulty of at least 10^12."
            : draw.header.reason,
    });
    checks.push({
      title: `Block hash picks the winning entry${label}`,
      status: draw.matches ? "ok" : "failed",
      detail: (
        <>
          {draw.index === null ? (
            "No valid entry is left to draw from."
          ) : (
            <>
              BigInt("0x{draw.blockHash}") mod {draw.validCount} valid {draw.validCount === 1 ? "entry" : "entries"} =
              position <strong>{draw.index}</strong> → entry <strong>#{draw.entryNumber}</strong>
            </>
          )}
          {draw.excluded.length > 0
            ? ` (leaving out earlier voided winners ${draw.excluded.map((n) => `#${n}`).join(", ")})`
            : ""}
          {draw.matches ? " — the published winning entry." : " — but a different entry was published."}
          {draw.voided
            ? ` This draw was voided: ${draw.voidReason ?? "its winning payment was reversed"}, so the prize was redrawn from a fresh commitment past the tip at the time of the void.`
            : ""}
        </>
      ),
    });
  }
  return checks;
}

function useBrowserVerification(input: VerifyInput) {
  const [checks, setChecks] = useState<Check[] | null>(null);
  const [running, setRunning] = useState(false);

  const run = async () => {
    setRunning(true);
    setChecks([
      {
        title: "Entry list matches the published SHA-256 digest",
        status: "running",
        detail: "Downloading the entry list...",
      },
    ]);
    try {
      const response = await fetch(entriesTextPath(input.poolId), { cache: "no-store" });
      if (!response.ok) throw new Error(`the entry list answered ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const draws = await withHeaders(input.poolId, input.draws, input.explorers);
      const report = await verifyPublishedDraw({
        entriesText: bytes,
        publishedDigest: input.digest,
        draws,
        log: input.log,
      });
      setChecks(reportChecks(report, input.digest));
    } catch (error) {
      setChecks([
        {
          title: "Entry list matches the published SHA-256 digest",
          status: "failed",
          detail: `Could not download the entry list: ${error instanceof Error ? error.message : String(error)}`,
        },
      ]);
    }
    setRunning(false);
  };

  return { checks, running, run };
}

// --- page -----------------------------------------------------------------------------------------------------

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm text-gray-500">{label}</dt>
      <dd className="min-w-0 text-sm text-gray-900">{children}</dd>
    </div>
  );
}

function Mono({ children }: { children: ReactNode }) {
  return <code className="break-all font-mono text-xs">{children}</code>;
}

function ExplorerLinks({ hash, height }: { hash: string | null; height: number | null }) {
  if (hash) {
    return (
      <span className="ml-2 text-xs">
        <a
          href={`https://blockstream.info/block/${hash}`}
          target="_blank"
          rel="noreferrer"
          className="text-brand-700 hover:underline"
        >
          blockstream.info
        </a>{" "}
        ·{" "}
        <a
          href={`https://mempool.space/block/${hash}`}
          target="_blank"
          rel="noreferrer"
          className="text-brand-700 hover:underline"
        >
          mempool.space
        </a>
      </span>
    );
  }
  if (height === null) return null;
  return (
    <span className="ml-2 text-xs">
      <a
        href={`https://blockstream.info/block-height/${height}`}
        target="_blank"
        rel="noreferrer"
        className="text-brand-700 hover:underline"
      >
        blockstream.info
      </a>{" "}
      ·{" "}
      <a
        href={`https://mempool.space/block/${height}`}
        target="_blank"
        rel="noreferrer"
        className="text-brand-700 hover:underline"
      >
        mempool.space
      </a>
    </span>
  );
}

const LOG_KIND_TEXT: Record<CommitmentRecord["kind"], string> = {
  commit: "Committed",
  void: "Draw voided",
  delay: "Block refused",
};

/** The pool's append-only, hash-chained draw log: every commitment with its tip, every void and refused block. */
function DrawLog({ log }: { log: CommitmentRecord[] }) {
  if (log.length === 0) return null;
  return (
    <Card>
      <h2 className="font-semibold text-gray-900">Draw log</h2>
      <p className="mt-1 text-sm text-gray-600">
        Append-only: each record names the SHA-256 of the one before it. A commitment records the tip two or more
        explorers agreed on (height, hash and header time), the highest tip heard and when it was made.
      </p>
      <ol className="mt-3 space-y-2 text-sm">
        {log.map((record) => (
          <li key={record.seq} className="rounded border border-gray-100 p-2">
            <strong>
              {record.seq + 1}. {LOG_KIND_TEXT[record.kind]}
            </strong>{" "}
            {record.blockHeight !== null ? `block #${record.blockHeight}` : ""} —{" "}
            <DateText value={new Date(record.createdAt).toISOString()} withTime />
            {record.kind === "commit" && record.tipHeight !== null ? (
              <div className="text-gray-600">
                Agreed tip #{record.tipHeight} <Mono>{record.tipHash}</Mono>
                {record.tipTime !== null ? (
                  <>
                    {" "}
                    mined <DateText value={new Date(record.tipTime * 1000).toISOString()} withTime />
                  </>
                ) : null}
                ; highest tip #{record.highestTip}
              </div>
            ) : null}
            {record.reason ? <div className="text-gray-600">Reason: {record.reason}</div> : null}
            <div className="text-xs text-gray-500">
              SHA-256 <Mono>{record.hash}</Mono>
            </div>
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** Every draw of the pool: a voided one (its winning payment reversed before the prize settled) was redrawn from a fresh commitment. */
function DrawHistory({ draws }: { draws: PublishedDraw[] }) {
  if (!draws.some((draw) => draw.voided)) return null;
  return (
    <Card className="mt-6">
      <h2 className="font-semibold text-gray-900">Redraws</h2>
      <p className="mt-1 text-sm text-gray-600">
        A winning entry whose payment is refunded or lost in a dispute before the prize settles is disqualified: the
        draw is voided and the prize is drawn again from the next Bitcoin block by the same rule, leaving out every
        voided winner.
      </p>
      <ol className="mt-3 space-y-2 text-sm">
        {draws.map((draw) => (
          <li key={draw.attempt} className="rounded-lg border border-gray-100 px-3 py-2">
            <span className="font-medium text-gray-900">
              Draw {draw.attempt + 1}: block #{draw.blockHeight}, entry #{draw.winnerEntryNumber}
            </span>{" "}
            {draw.voided ? (
              <span className="text-red-700">voided — {draw.voidReason ?? "the winning payment was reversed"}</span>
            ) : (
              <span className="text-green-700">the winner</span>
            )}
            <span className="block">
              <Mono>{draw.blockHash}</Mono>
            </span>
          </li>
        ))}
      </ol>
    </Card>
  );
}

function drawStatus(draw: NonNullable<Route.ComponentProps["loaderData"]["draw"]>): string {
  if (draw.blockHash) return "Drawn";
  if (draw.delayReason) {
    return `Draw delayed: the committed block was refused (${draw.delayReason}). The draw is committed afresh to a future block, recorded in the draw log below.`;
  }
  if (draw.entriesCount === 0) return "Closed with no entries, so there is nothing to draw.";
  if (draw.blockHeight === null)
    return "Closed: the entry list is frozen and the draw is being committed to the next Bitcoin block.";
  return `Waiting for Bitcoin block #${draw.blockHeight} and its confirmations`;
}

export default function DrawVerification({ loaderData }: Route.ComponentProps) {
  const { pool, draw, draws, log, entries, explorers, miniPrizes, publicLog } = loaderData;
  const verification = useBrowserVerification({
    poolId: pool.id,
    digest: draw?.entriesDigest ?? null,
    draws,
    log,
    explorers,
  });

  if (!draw || !entries || !publicLog) {
    return (
      <Page title="This pool is still open" back={{ to: "/winner-selection", label: "Winner Selection" }}>
        <Card>
          <p className="text-sm text-gray-700">
            {pool.hostName}'s prize pool is still collecting entries ({pool.amount} of {pool.target}). It closes when it
            reaches its target or on <DateText value={pool.endAt} withTime />, whichever comes first.
          </p>
          <p className="mt-2 text-sm text-gray-700">
            At that moment its entry list is frozen, its SHA-256 digest is published here together with a future Bitcoin
            block, and once that block is mined the winner is drawn. Come back then to check the draw yourself.
          </p>
          <FreeEntryLink hostId={pool.hostId} />
          <div className="mt-4">
            <LinkButton to="/winner-selection" variant="secondary">
              How winners are chosen
            </LinkButton>
          </div>
        </Card>
      </Page>
    );
  }

  const txt = entriesTextPath(pool.id);
  return (
    <Page
      title="Verify a draw"
      subtitle={`${pool.hostName}'s prize pool: every input of the draw, and a check you can run in your browser.`}
      back={{ to: "/winner-selection", label: "Winner Selection" }}
    >
      <Card>
        <p
          className={`mb-3 rounded-lg px-3 py-2 text-sm ${draw.blockHash ? "bg-green-50 text-green-800" : "bg-yellow-50 text-yellow-900"}`}
          role="status"
        >
          {drawStatus(draw)}
        </p>
        <dl className="divide-y divide-gray-100">
          <Row label="Pool id">
            <Mono>{pool.id}</Mono>
          </Row>
          <Row label="Host">{pool.hostName}</Row>
          <Row label="Pool amount">{pool.amount}</Row>
          <Row label="Closed at">
            <DateText value={draw.closedAt} withTime />
          </Row>
          <Row label="Close reason">{draw.closeReason ?? "—"}</Row>
          <Row label="Entry count">
            <span data-testid="entry-count">{draw.entriesCount}</span>
          </Row>
          <Row label="Entries digest (SHA-256)">
            {draw.entriesDigest ? <Mono>{draw.entriesDigest}</Mono> : "Not published yet"}
          </Row>
          <Row label="Committed block height">
            {draw.blockHeight !== null ? (
              <>
                #{draw.blockHeight}
                <ExplorerLinks hash={null} height={draw.blockHeight} />
              </>
            ) : (
              "Not committed yet"
            )}
          </Row>
          <Row label="Block hash">
            {draw.blockHash ? (
              <>
                <Mono>{draw.blockHash}</Mono>
                <ExplorerLinks hash={draw.blockHash} height={draw.blockHeight} />
              </>
            ) : draw.blockHeight !== null ? (
              `Waiting for Bitcoin block #${draw.blockHeight} and its confirmations`
            ) : (
              "—"
            )}
          </Row>
          {draw.decimalHash ? (
            <Row label="Block hash as a number">
              <Mono>{draw.decimalHash}</Mono>
            </Row>
          ) : null}
          <Row label="Winning entry">
            {draw.winnerEntryNumber !== null ? (
              <>
                <strong>#{draw.winnerEntryNumber}</strong>{" "}
                <span className="text-gray-500">
                  = the valid entry at position hash mod (valid entries), in entry-number order
                  {draw.drawnAt ? (
                    <>
                      , drawn <DateText value={draw.drawnAt} withTime />
                    </>
                  ) : null}
                </span>
              </>
            ) : (
              "Not drawn yet"
            )}
          </Row>
          <Row label="Winner">
            {draw.winnerName ?? "—"}
            {draw.mainPrize ? <span className="text-gray-500"> · main prize {draw.mainPrize}</span> : null}
          </Row>
        </dl>
      </Card>

      <DrawHistory draws={draws} />
      <DrawLog log={log} />
      <PublicLogCheck poolId={pool.id} poolLog={log} published={publicLog.records} stamp={publicLog.stamp} />

      <Card className="mt-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 className="font-semibold text-gray-900">Verify in your browser</h2>
            <p className="mt-1 text-sm text-gray-600">
              Downloads the entry list and recomputes its SHA-256, the winning entry from the block hash, and the block
              hash from its header. Nothing is taken on trust from this page's figures.
            </p>
          </div>
          <Button onClick={verification.run} disabled={verification.running}>
            {verification.running ? "Verifying..." : "Verify in your browser"}
          </Button>
        </div>
        {verification.checks ? <CheckList checks={verification.checks} /> : null}
      </Card>

      <MiniPrizeVerification blockHash={draw.blockHash} data={miniPrizes} />

      <section className="mt-8">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold text-gray-900">Entry list</h2>
          <a
            href={txt}
            download={`pool-${pool.id}-entries.txt`}
            className="text-sm font-semibold text-brand-700 hover:underline"
          >
            Download entries.txt
          </a>
        </div>
        <p className="mb-3 text-sm text-gray-600">
          One line per entry, <code>entryNumber:key</code> (or <code>entryNumber:key:void</code> for a void entry),
          sorted by entry number, each ending in a line break; the key is the SHA-256 of the entry's private source key
          (a buyer can find their own line from their payment id, nobody else learns it). The digest is the SHA-256 of
          exactly that text.
        </p>
        {entries.rows.length === 0 ? (
          <p className="text-sm text-gray-600">
            {draw.entriesCount === 0 ? "This pool has no entries." : "No entries on this page."}
          </p>
        ) : (
          <div className="relative overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm">
            <table className="w-full text-left text-sm">
              <thead className="bg-gray-50 text-gray-500">
                <tr>
                  <th className="px-3 py-2 font-medium">Entry number</th>
                  <th className="px-3 py-2 font-medium">Key (SHA-256 of the source key)</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100 font-mono text-xs">
                {entries.rows.map((entry) => (
                  <tr
                    key={entry.entryNumber}
                    className={entry.entryNumber === draw.winnerEntryNumber ? "bg-brand-50 font-semibold" : undefined}
                  >
                    <td className="px-3 py-1.5">
                      {entry.entryNumber}
                      {entry.entryNumber === draw.winnerEntryNumber ? (
                        <span className="ml-2 font-sans text-brand-700">winner</span>
                      ) : null}
                    </td>
                    <td className="break-all px-3 py-1.5">
                      {entry.key}
                      {entry.voided ? <span className="ml-2 font-sans text-red-700">void</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination
          page={entries.page}
          hasNext={entries.hasNext}
          hrefFor={(p) => `/winner-selection/${pool.id}?page=${p}`}
        />
      </section>

      <p className="mt-8 text-sm text-gray-600">
        How this works:{" "}
        <Link to="/winner-selection" className="font-medium text-brand-700 hover:underline">
          Winner Selection
        </Link>{" "}
        ·{" "}
        <Link to="/official-rules" className="font-medium text-brand-700 hover:underline">
          Official Rules
        </Link>
      </p>
    </Page>
  );
}
