import { getDb } from "~/db/client.server";
import { allPoolEntries, getPoolForVerification } from "~/db/queries/pool-screens.server";
import { canonicalEntriesText, entriesFormatOf, frozenEntryList } from "~/domain/draw";
import { getEnv } from "~/lib/context";
import { idParam, notFound } from "~/lib/guards.server";
import type { Route } from "./+types/draw-entries";

/**
 * GET /winner-selection/{poolId}/entries.txt: a closed pool's frozen entry list in its canonical text form (one
 * "entryNumber:key\n" line per entry by entry number, "entryNumber:key:void\n" for a void one; key = SHA-256 of the
 * entry's private source key). Its SHA-256 is the digest published at closing, so anyone can download it and check,
 * and the verification page recomputes the winner from it. An open pool has no frozen list yet: 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const poolId = idParam(params.poolId);
  const db = getDb(getEnv(context));
  const pool = await getPoolForVerification(db, poolId);
  if (!pool || pool.status === "open") notFound();
  const text = canonicalEntriesText(
    await frozenEntryList(await allPoolEntries(db, pool.id), entriesFormatOf(pool.entriesFormat)),
  );
  return new Response(text, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": `inline; filename="pool-${pool.id}-entries.txt"`,
      // Frozen at closing: it never changes, but keep caches short in case a mirror was still catching up.
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
