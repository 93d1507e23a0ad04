import { useState, type FormEvent, type ReactNode } from "react";
import { CheckList, type CheckResult, type CheckStatus } from "~/components/check-list";
import { Field } from "~/components/form";
import { Link } from "~/components/link";
import { Button, Card } from "~/components/page";
// Pure (Web Crypto only): the same hashing the server appends with.
import {
  checkPoolInLog,
  fetchLogFrom,
  parseKeptHead,
  type ChainCheck,
  type LogHead,
  type PoolLogStamp,
} from "~/domain/transparency-log";

type Status = Exclude<CheckStatus, "running">;
type Result = CheckResult & { status: Status };

function Mono({ children }: { children: ReactNode }) {
  return <code className="break-all font-mono text-xs">{children}</code>;
}

async function getJson(path: string): Promise<unknown> {
  const response = await fetch(path, { headers: { Accept: "application/json" }, cache: "no-store" });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}

const status = (check: ChainCheck): Status => (check.ok ? "ok" : "failed");

/**
 * The pool's place in the public commitment log (decision 550): its record and the head as the page was read, and a
 * check run in the browser that fetches the log's JSON pages from the lower of a head the person kept and the pool's
 * record up to today's head, recomputing every hash.
 */
export function PublicLogCheck({
  poolId,
  poolLog,
  published,
  stamp,
}: {
  poolId: string;
  poolLog: readonly { seq: number; hash: string }[];
  published: readonly LogHead[];
  stamp: PoolLogStamp;
}) {
  const [results, setResults] = useState<Result[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);

  const run = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const seqText = String(form.get("keptSeq") ?? "");
    const hashText = String(form.get("keptHash") ?? "");
    let kept: LogHead | null = null;
    if (seqText.trim() !== "" || hashText.trim() !== "") {
      const parsed = parseKeptHead(seqText, hashText);
      if ("error" in parsed) {
        setError(parsed.error);
        return;
      }
      kept = parsed;
    }
    setError(null);
    setRunning(true);
    try {
      const starts = [...(kept ? [kept.seq] : []), ...(published[0] ? [published[0].seq] : [])];
      const from = starts.length > 0 ? Math.min(...starts) : stamp.head.seq;
      const { head, records } = await fetchLogFrom(getJson, from);
      const report = await checkPoolInLog({ records, head, poolId, poolLog, published, kept });
      setResults([
        {
          title: "This pool's records are in the public log",
          status: published.length === 0 ? "skipped" : status(report.mirrored),
          detail:
            published.length === 0
              ? "This pool has no record in the public log (it has not been committed since the log started)."
              : report.mirrored.ok
                ? "Each of its records in the public log names the pool's own draw log record by that record's SHA-256."
                : report.mirrored.reason,
        },
        {
          title: "The log chains from this pool's record to the head",
          status: report.path === null ? "skipped" : status(report.path),
          detail:
            report.path === null ? (
              "No record of this pool to start from."
            ) : report.path.ok ? (
              <>
                Every record from #{published.at(-1)!.seq} to the head #{head.seq} names the hash of the one before and
                hashes to its own. Head now: <Mono>{head.hash}</Mono>
              </>
            ) : (
              report.path.reason
            ),
        },
        {
          title: "The log extends the head you kept",
          status: report.kept === null ? "skipped" : status(report.kept),
          detail:
            report.kept === null
              ? "Enter a head you kept (its record number and hash) to check that the log was not rewritten since."
              : report.kept.ok
                ? `Record #${kept!.seq} still has the hash you kept, and every record from it to the head #${head.seq} chains.`
                : report.kept.reason,
        },
      ]);
    } catch (caught) {
      setResults([
        {
          title: "The log chains from this pool's record to the head",
          status: "failed",
          detail: `Could not read the log: ${caught instanceof Error ? caught.message : String(caught)}`,
        },
      ]);
    }
    setRunning(false);
  };

  return (
    <Card className="mt-6">
      <h2 className="font-semibold text-gray-900">Public commitment log</h2>
      <p className="mt-1 text-sm text-gray-600">
        This pool's commitments, voids and refused blocks are also records of{" "}
        <Link to="/transparency" className="font-medium text-brand-700 hover:underline">
          one public log across every pool
        </Link>
        , each naming the SHA-256 of the record before. Keep the head below: later, enter it here and your browser
        proves that today's log still extends it.
      </p>
      <dl className="mt-3 space-y-1 text-sm">
        <div>
          <dt className="inline text-gray-500">This pool's record: </dt>
          <dd className="inline" data-testid="pool-log-record">
            {stamp.record ? (
              <>
                #{stamp.record.seq} <Mono>{stamp.record.hash}</Mono>
              </>
            ) : (
              "none yet"
            )}
          </dd>
        </div>
        <div>
          <dt className="inline text-gray-500">Head of the log as this page was read: </dt>
          <dd className="inline" data-testid="pool-log-head">
            #{stamp.head.seq} <Mono>{stamp.head.hash}</Mono>
          </dd>
        </div>
      </dl>
      <form className="mt-4 grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end" onSubmit={run} noValidate>
        <Field label="Kept record number" name="keptSeq" inputMode="numeric" autoComplete="off" />
        <Field label="Kept record hash" name="keptHash" autoComplete="off" spellCheck={false} />
        <Button type="submit" disabled={running}>
          {running ? "Checking..." : "Check the log"}
        </Button>
      </form>
      {error ? (
        <p className="mt-2 text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      {results ? <CheckList checks={results} testId="log-checks" /> : null}
    </Card>
  );
}
