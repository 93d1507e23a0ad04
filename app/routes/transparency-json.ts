import { z } from "zod";
import { getDb } from "~/db/client.server";
import { getLogHead, listLogFrom, listLogNewestFirst } from "~/db/queries/transparency.server";
import { TRANSPARENCY_PAGE_SIZE, transparencyFromPath } from "~/domain/transparency-log";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/transparency-json";

const seqParam = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const querySchema = z
  .object({ before: seqParam.optional(), from: seqParam.optional() })
  .refine((query) => query.before === undefined || query.from === undefined, {
    message: "Give either before or from, not both.",
  });

/**
 * GET /transparency.json: the public commitment log (decision 550), TRANSPARENCY_PAGE_SIZE records a page.
 * - no parameter: the newest records first; `?before=N` the records below N, newest first;
 * - `?from=N`: the records from N on, oldest first (how a verifier walks from a kept head to today's head).
 * Every page names the head it was read at and a `next` link to the following page (null on the last). Public and
 * cross-origin readable; a page that cannot change (below the head) may be cached longer than the head's page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = querySchema.safeParse({ before: params.before, from: params.from });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Invalid query";
    return Response.json(
      { error: `${message} Use ?before=<record number> or ?from=<record number>.` },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
  const db = getDb(getEnv(context));
  const head = await getLogHead(db);
  const { before, from } = parsed.data;
  let records;
  let next: string | null;
  if (from !== undefined) {
    const rows = (await listLogFrom(db, { from, limit: TRANSPARENCY_PAGE_SIZE + 1 })).filter(
      (record) => record.seq <= head.seq,
    );
    records = rows.slice(0, TRANSPARENCY_PAGE_SIZE);
    next = rows.length > TRANSPARENCY_PAGE_SIZE ? transparencyFromPath(records.at(-1)!.seq + 1) : null;
  } else {
    const rows = await listLogNewestFirst(db, {
      before: Math.min(before ?? head.seq + 1, head.seq + 1),
      limit: TRANSPARENCY_PAGE_SIZE + 1,
    });
    records = rows.slice(0, TRANSPARENCY_PAGE_SIZE);
    next = rows.length > TRANSPARENCY_PAGE_SIZE ? `/transparency.json?before=${records.at(-1)!.seq}` : null;
  }
  // A page without the head on it holds only records that never change: append-only.
  const settled = records.length > 0 && !records.some((record) => record.seq === head.seq);
  return Response.json(
    { head, order: from !== undefined ? "oldest-first" : "newest-first", records, next },
    {
      headers: {
        "Cache-Control": settled ? "public, max-age=3600" : "public, max-age=15",
        "Access-Control-Allow-Origin": "*",
        "X-Content-Type-Options": "nosniff",
      },
    },
  );
}
