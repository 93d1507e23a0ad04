import { getDb } from "~/db/client.server";
import { exportLedger } from "~/db/queries/earnings.server";
import { choosePeriod, dayKey } from "~/domain/earnings";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { earningsCsv } from "~/lib/earnings-csv";
import type { Route } from "./+types/revenue-export";

/** GET /revenue/export.csv?period=week|month|year or ?from=&to=: every ledger row of the signed-in host's period. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const now = new Date();
  const choice = choosePeriod(new URL(request.url).searchParams, now);
  if (choice.error)
    return new Response(choice.error, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const rows = await exportLedger(getDb(getEnv(context)), user.id, choice.range);
  const name = `revenue-${dayKey(choice.range.start)}-to-${choice.to}.csv`;
  return new Response(earningsCsv(rows, now), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
