import { Link } from "~/components/link";
import { Card, Page, pageMeta, Pagination } from "~/components/page";
import { TransparencyRecordItem } from "~/components/transparency-record";
import { getDb } from "~/db/client.server";
import { getLogHead, listLogNewestFirst } from "~/db/queries/transparency.server";
import { TRANSPARENCY_PAGE_SIZE } from "~/domain/transparency-log";
import { getEnv } from "~/lib/context";
import { pageParam } from "~/lib/guards.server";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import type { Route } from "./+types/transparency";

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Transparency: the commitment log",
    "Every draw commitment, void and refused block of every prize pool, in one public hash-chained log.",
  );

/** GET /transparency: the public commitment log, newest first, TRANSPARENCY_PAGE_SIZE records a page (decision 550). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const db = getDb(getEnv(context));
  const page = pageParam(request, 100_000);
  const head = await getLogHead(db);
  const rows = await listLogNewestFirst(db, {
    before: head.seq + 1,
    limit: TRANSPARENCY_PAGE_SIZE + 1,
    offset: (page - 1) * TRANSPARENCY_PAGE_SIZE,
  });
  return { head, page, records: rows.slice(0, TRANSPARENCY_PAGE_SIZE), hasNext: rows.length > TRANSPARENCY_PAGE_SIZE };
}

export default function Transparency({ loaderData }: Route.ComponentProps) {
  const { head, page, records, hasNext } = loaderData;
  return (
    <Page
      title="Transparency"
      subtitle="One public, append-only log of every draw commitment, void and refused block, across every prize pool."
      back={{ to: "/winner-selection", label: "Winner Selection" }}
    >
      <Card>
        <p className="text-sm text-gray-700">
          Each record names the SHA-256 of the record before it, so no record can be edited or removed without changing
          every hash after it. Keep the head below (its number and hash): on any pool's verification page your browser
          can later prove that the log still extends it. A log rewritten since, even with every later hash recomputed,
          no longer has your hash at that number.
        </p>
        <p className="mt-3 text-sm text-gray-900">
          Head: record <strong data-testid="log-head-seq">#{head.seq}</strong>{" "}
          <code className="break-all font-mono text-xs" data-testid="log-head-hash">
            {head.hash}
          </code>
        </p>
        <p className="mt-2 text-sm text-gray-600">
          As JSON ({TRANSPARENCY_PAGE_SIZE} records a page, each page with a <code>next</code> link):{" "}
          <a href="/transparency.json" className="font-medium text-brand-700 hover:underline">
            /transparency.json
          </a>{" "}
          (newest first; <code>?before=N</code> continues below record N) or <code>/transparency.json?from=N</code>{" "}
          (oldest first from record N, up to the head).
        </p>
        <p className="mt-2 text-sm text-gray-600">
          A record's hash is the SHA-256 of the previous record's hash, a line break, and the JSON array of its fields
          in this order: number, kind, pool id, the pool's own draw log record number and hash, entries digest, valid
          entries as [source, count] pairs sorted by source, block height, agreed tip height, tip hash and tip time
          (Unix seconds), highest tip, the tips heard as [explorer, height] pairs, reason, time (milliseconds). Record
          #0 names 64 zeros as its previous hash. Each pool's record is written together with the record in{" "}
          <Link to="/winner-selection" className="font-medium text-brand-700 hover:underline">
            the pool's own draw log
          </Link>
          : one is never written without the other.
        </p>
      </Card>
      <ol className="mt-6 space-y-3">
        {records.map((record) => (
          <TransparencyRecordItem key={record.seq} record={record} />
        ))}
      </ol>
      <Pagination page={page} hasNext={hasNext} hrefFor={(p) => `/transparency?page=${p}`} />
    </Page>
  );
}
