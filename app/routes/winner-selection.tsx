import { useState } from "react";
import { Link } from "~/components/link";
import { Button, Card, DateText, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listRecentDrawnPools } from "~/db/queries/pool-screens.server";
// draw.ts is pure (Web Crypto and BigInt only), so the demo runs the same code in the browser as the real draw.
import {
  DEMO_PARTICIPANTS_DEFAULT,
  DEMO_PARTICIPANTS_MAX,
  DEMO_PARTICIPANTS_MIN,
  hashToDecimal,
  parseDemoParticipants,
  winnerIndex,
} from "~/domain/draw";
import { formatCount } from "~/domain/money";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/winner-selection";

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Winner Selection",
    "How every main-prize winner is drawn from a public Bitcoin block hash, and how to check it yourself.",
  );

/** A real historic block (Bitcoin's genesis block), used by the demo when no pool has been drawn yet. */
const GENESIS_BLOCK = { height: 0, hash: "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f" } as const;

export const DEMO_FAILED = "Demo failed. Please try again.";
const RECENT_DRAWS = 10;

export async function loader({ context }: Route.LoaderArgs) {
  const draws = await listRecentDrawnPools(getDb(getEnv(context)), RECENT_DRAWS);
  return {
    draws: draws.map((d) => ({
      id: d.id,
      hostName: d.hostName ?? "A host",
      entries: d.entriesCount,
      height: d.drawBlockHeight,
      hash: d.drawBlockHash!,
      winnerEntryNumber: d.winnerEntryNumber,
      drawnAt: d.drawnAt?.toISOString() ?? null,
    })),
  };
}

const steps = [
  {
    title: "1. Everyone gets an entry number",
    text: "Each purchase, and each correct Guess & Win guess, earns one entry in the host's current prize pool. Entry numbers start at 0 and go up by one, in the order entries are made.",
  },
  {
    title: "2. The entry list is frozen and published",
    text: "When the pool reaches its target or its timer runs out, it closes. The full entry list is frozen and its SHA-256 fingerprint is published together with the height of a Bitcoin block that has not been mined yet.",
  },
  {
    title: "3. Bitcoin mines the block",
    text: "Nobody, including us and the host, can know or influence that block's hash in advance. Once the block is mined and has enough confirmations, its hash is read from two independent block explorers and checked.",
  },
  {
    title: "4. The hash picks the winner",
    text: "The block hash is read as one large number and divided by the number of entries. The remainder is the winning entry number: winner = hash mod entries. The main prize is 60% of the pool.",
  },
];

const explorerLinks = (hash: string) => [
  { label: "blockstream.info", href: `https://blockstream.info/block/${hash}` },
  { label: "mempool.space", href: `https://mempool.space/block/${hash}` },
];

function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
    setTimeout(() => setCopied("idle"), 2000);
  };
  return (
    <Button variant="secondary" size="sm" onClick={copy} aria-label={`Copy ${label}`}>
      {copied === "copied" ? "Copied!" : copied === "failed" ? "Copy failed" : "Copy"}
    </Button>
  );
}

type DemoBlock = { height: number | null; hash: string; source: string; poolId: string | null };
type DemoResult = { block: DemoBlock; participants: number; decimal: string; index: number };

function WorkedExample({ block }: { block: DemoBlock }) {
  const participants = DEMO_PARTICIPANTS_DEFAULT;
  const decimal = hashToDecimal(block.hash);
  const index = winnerIndex(block.hash, participants);
  return (
    <Card className="mt-6">
      <h2 className="font-semibold text-gray-900">A worked example</h2>
      <p className="mt-2 text-sm text-gray-700">
        Say a pool closed with {participants} entries, numbered 0 to {participants - 1}, and committed to Bitcoin block
        {block.height !== null ? ` #${formatCount(block.height)}` : ""} ({block.source}). Its hash is:
      </p>
      <p className="mt-2 break-all rounded-lg bg-gray-50 p-2 font-mono text-xs text-gray-800">{block.hash}</p>
      <p className="mt-2 text-sm text-gray-700">Read as one whole number (hexadecimal to decimal) that is:</p>
      <p className="mt-2 break-all rounded-lg bg-gray-50 p-2 font-mono text-xs text-gray-800">{decimal}</p>
      <p className="mt-2 text-sm text-gray-700">
        Dividing it by {participants} leaves a remainder of <strong>{index}</strong>, so entry number{" "}
        <strong>#{index}</strong> wins the main prize. Change one entry, or the order of the list, and the published
        fingerprint would no longer match; change the block, and everyone on the Bitcoin network would see it.
      </p>
    </Card>
  );
}

function LiveDemo({ block }: { block: DemoBlock }) {
  const [input, setInput] = useState(String(DEMO_PARTICIPANTS_DEFAULT));
  const [result, setResult] = useState<DemoResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = () => {
    setError(null);
    try {
      const participants = parseDemoParticipants(input);
      setInput(String(participants));
      setResult({
        block,
        participants,
        decimal: hashToDecimal(block.hash),
        index: winnerIndex(block.hash, participants),
      });
    } catch {
      setResult(null);
      setError(DEMO_FAILED);
    }
  };

  return (
    <Card className="mt-6">
      <h2 className="font-semibold text-gray-900">Try it: live demo</h2>
      <p className="mt-1 text-sm text-gray-600">
        Pick a number of participants and run the draw on a real Bitcoin block hash ({block.source}). The calculation
        runs in your browser with the same code that draws our winners.
      </p>
      {/* noValidate: out-of-range or empty counts are clamped (2..10000) or fall back to 200, not refused. */}
      <form
        noValidate
        className="mt-4 flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
      >
        <div>
          <label htmlFor="demo-participants" className="block text-sm font-medium text-gray-700">
            Number of participants
          </label>
          <input
            id="demo-participants"
            type="number"
            inputMode="numeric"
            min={DEMO_PARTICIPANTS_MIN}
            max={DEMO_PARTICIPANTS_MAX}
            step={1}
            value={input}
            onChange={(e) => setInput(e.target.value)}
            className="mt-1 block w-40 rounded-lg border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
          />
        </div>
        <Button type="submit">Run demo</Button>
      </form>
      <p className="mt-1 text-xs text-gray-500">
        From {DEMO_PARTICIPANTS_MIN} to {formatCount(DEMO_PARTICIPANTS_MAX)} participants.
      </p>
      {error ? (
        <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {result ? (
        <dl className="mt-4 space-y-3 text-sm" aria-live="polite">
          <div>
            <dt className="text-gray-500">
              Block{result.block.height !== null ? ` #${result.block.height}` : ""} hash
            </dt>
            <dd className="mt-1 flex items-start gap-2">
              <code className="flex-1 break-all rounded bg-gray-50 p-2 text-xs">{result.block.hash}</code>
              <CopyButton value={result.block.hash} label="block hash" />
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Hash as a decimal number</dt>
            <dd className="mt-1 flex items-start gap-2">
              <code className="flex-1 break-all rounded bg-gray-50 p-2 text-xs">{result.decimal}</code>
              <CopyButton value={result.decimal} label="decimal hash" />
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Calculation</dt>
            <dd className="mt-1 flex items-start gap-2">
              <code className="flex-1 break-all rounded bg-gray-50 p-2 text-xs">
                BigInt("0x{result.block.hash}") % {result.participants}n = {result.index}n
              </code>
              <CopyButton value={`BigInt("0x${result.block.hash}") % ${result.participants}n`} label="calculation" />
            </dd>
          </div>
          <div className="rounded-lg bg-brand-50 p-3 text-brand-700">
            <dt className="text-xs font-medium uppercase tracking-wide">Winner index</dt>
            <dd className="text-2xl font-bold">
              Entry #{result.index} <span className="text-sm font-medium">of 0 – {result.participants - 1}</span>
            </dd>
          </div>
          <p className="text-xs text-gray-600">
            Check the hash yourself:{" "}
            {explorerLinks(result.block.hash).map((l, i) => (
              <span key={l.label}>
                {i > 0 ? " or " : ""}
                <a
                  href={l.href}
                  target="_blank"
                  rel="noreferrer"
                  className="font-medium text-brand-700 hover:underline"
                >
                  {l.label}
                </a>
              </span>
            ))}
            {result.block.poolId ? (
              <>
                {" "}
                ·{" "}
                <Link
                  to={`/winner-selection/${result.block.poolId}`}
                  className="font-medium text-brand-700 hover:underline"
                >
                  see that pool's real draw
                </Link>
              </>
            ) : null}
          </p>
        </dl>
      ) : null}
    </Card>
  );
}

export default function WinnerSelection({ loaderData }: Route.ComponentProps) {
  const { draws } = loaderData;
  const latest = draws[0];
  const block: DemoBlock = latest
    ? {
        height: latest.height,
        hash: latest.hash,
        source: `the block of ${latest.hostName}'s latest drawn pool`,
        poolId: latest.id,
      }
    : { height: GENESIS_BLOCK.height, hash: GENESIS_BLOCK.hash, source: "Bitcoin's genesis block", poolId: null };
  return (
    <Page
      title="Winner Selection"
      subtitle="The most transparent prize pool: a public Bitcoin block decides, and anyone can check the result."
    >
      <ol className="grid gap-4 md:grid-cols-2">
        {steps.map((step) => (
          <li key={step.title}>
            <Card className="h-full">
              <h2 className="font-semibold text-gray-900">{step.title}</h2>
              <p className="mt-2 text-sm text-gray-700">{step.text}</p>
            </Card>
          </li>
        ))}
      </ol>

      <WorkedExample block={block} />

      <Card className="mt-6">
        <h2 className="font-semibold text-gray-900">In plain words</h2>
        <p className="mt-2 text-sm text-gray-700">
          Think of it as a lottery where the numbers are drawn by the Bitcoin network instead of by a person. Because
          the entry list is locked before the block exists, nobody can add, remove or reorder entries once they could
          know the result. Because the block hash is public, you can repeat the calculation yourself.
        </p>
        <h3 className="mt-4 text-sm font-semibold text-gray-900">Check a draw yourself</h3>
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-gray-700">
          <li>
            Open the pool's verification page below and download its entry list; its SHA-256 must equal the published
            fingerprint.
          </li>
          <li>Look up the published block height on a public block explorer and copy the block hash.</li>
          <li>Read the hash as a hexadecimal number (for example with BigInt("0x" + hash) in a browser console).</li>
          <li>Take the remainder after dividing by the number of entries. That is the winning entry number.</li>
        </ol>
        <p className="mt-3 text-sm text-gray-700">
          Public block explorers:{" "}
          <a
            href="https://blockstream.info/"
            target="_blank"
            rel="noreferrer"
            className="font-medium text-brand-700 hover:underline"
          >
            blockstream.info
          </a>{" "}
          and{" "}
          <a
            href="https://mempool.space/"
            target="_blank"
            rel="noreferrer"
            className="font-medium text-brand-700 hover:underline"
          >
            mempool.space
          </a>
          .
        </p>
      </Card>

      <LiveDemo block={block} />

      <section className="mt-8">
        <h2 className="text-lg font-semibold text-gray-900">Recent draws</h2>
        {draws.length === 0 ? (
          <p className="mt-2 text-sm text-gray-600">
            No pool has been drawn yet. Each draw will be listed here with everything needed to check it.
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-gray-100 rounded-xl border border-gray-200 bg-white text-sm shadow-sm">
            {draws.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <span className="min-w-0">
                  <span className="block font-medium text-gray-900">{d.hostName}'s pool</span>
                  <span className="block text-xs text-gray-500">
                    {d.drawnAt ? <DateText value={d.drawnAt} /> : null} · block #{d.height} · {d.entries} entries ·
                    winning entry #{d.winnerEntryNumber}
                  </span>
                </span>
                <Link to={`/winner-selection/${d.id}`} className="font-medium text-brand-700 hover:underline">
                  Verify this draw
                </Link>
              </li>
            ))}
          </ul>
        )}
        <p className="mt-3 text-sm text-gray-600">
          Every commitment, void and refused block of every pool is also in{" "}
          <Link to="/transparency" className="font-medium text-brand-700 hover:underline">
            the public commitment log
          </Link>
          , hash-chained so that no record can be changed without it showing.
        </p>
      </section>

      <p className="mt-6 text-sm text-gray-600">
        The full rules, including the free way to enter, are in the{" "}
        <Link to="/official-rules" className="font-medium text-brand-700 hover:underline">
          Official Rules
        </Link>
        .
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <LinkButton to="/guess-win">Play Guess &amp; Win</LinkButton>
        <LinkButton to="/winners" variant="secondary">
          All winners
        </LinkButton>
        <LinkButton to="/" variant="secondary">
          Back to Home
        </LinkButton>
      </div>
    </Page>
  );
}
