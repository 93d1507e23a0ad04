import type { ReactNode } from "react";
import { Link } from "~/components/link";
import { DateText } from "~/components/page";
import { entryCountsText, type TransparencyRecord } from "~/domain/transparency-log";

const KIND_TEXT: Record<TransparencyRecord["kind"], string> = {
  genesis: "Log started",
  commit: "Committed",
  void: "Draw voided",
  delay: "Block refused",
};

function Mono({ children }: { children: ReactNode }) {
  return <code className="break-all font-mono text-xs">{children}</code>;
}

/** One record of the public commitment log (decision 550), as /transparency lists it. */
export function TransparencyRecordItem({ record }: { record: TransparencyRecord }) {
  return (
    <li className="rounded-lg border border-gray-200 bg-white p-3 text-sm" data-testid="log-record">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <strong className="text-gray-900">
          #{record.seq} {KIND_TEXT[record.kind]}
          {record.blockHeight !== null ? ` · block #${record.blockHeight}` : ""}
        </strong>
        <span className="text-xs text-gray-500">
          <DateText value={record.createdAt} withTime />
        </span>
      </div>
      {record.poolId ? (
        <div className="mt-1 text-gray-700">
          Pool{" "}
          <Link to={`/winner-selection/${record.poolId}`} className="font-medium text-brand-700 hover:underline">
            <Mono>{record.poolId}</Mono>
          </Link>{" "}
          (its draw log record {record.poolSeq !== null ? record.poolSeq + 1 : "—"}) · entries:{" "}
          <span data-testid="entry-counts">{entryCountsText(record.entryCounts)}</span>
        </div>
      ) : null}
      {record.entriesDigest ? (
        <div className="text-gray-600">
          Entries digest <Mono>{record.entriesDigest}</Mono>
        </div>
      ) : null}
      {record.tipHeight !== null ? (
        <div className="text-gray-600">
          Agreed tip #{record.tipHeight} <Mono>{record.tipHash}</Mono>; highest tip #{record.highestTip}
          {record.tipsSeen.length > 0
            ? `; tips heard: ${record.tipsSeen.map((tip) => `${hostOf(tip.explorer)} #${tip.height}`).join(", ")}`
            : ""}
        </div>
      ) : null}
      {record.reason ? <div className="text-gray-600">Reason: {record.reason}</div> : null}
      <div className="mt-1 text-xs text-gray-500">
        Previous <Mono>{record.prevHash}</Mono>
      </div>
      <div className="text-xs text-gray-500">
        SHA-256 <Mono>{record.hash}</Mono>
      </div>
    </li>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
