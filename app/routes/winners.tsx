import { Link } from "~/components/link";
import { DateText, EmptyState, Page, pageMeta, Pagination } from "~/components/page";
import { Table } from "~/components/cards";
import { WITHHELD_NAME_TEXT } from "~/domain/prize-claims";
import { pageParam } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import { winnersPage } from "~/lib/prize-claims.server";
import type { Route } from "./+types/winners";

// Every drawn pool's main-prize winner, newest first (docs/product.md#winners): the surname and region, unless the
// winner objected; the prize, the date and the draw's verification page. Public, the same for everyone (cacheable).

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = () =>
  pageMeta("Winners", "Every main-prize winner on Tribe, with the prize, the date and how the draw can be checked.");

export async function loader({ request, context }: Route.LoaderArgs) {
  return winnersPage(getEnv(context), pageParam(request));
}

export default function Winners({ loaderData }: Route.ComponentProps) {
  const { winners, page, hasNext } = loaderData;
  return (
    <Page
      title="Winners"
      subtitle="Every main prize drawn on Tribe. Winners' surnames and regions are published unless they object."
    >
      {winners.length === 0 ? (
        <EmptyState title="No winners yet" message="A pool's winner shows here once its draw is made." />
      ) : (
        <Table head={["Winner", "Prize", "Host", "Drawn", "Verification"]}>
          {winners.map((w) => (
            <tr key={w.poolId} data-testid="winner-row">
              <td className="px-4 py-2">
                {w.winner.withheld ? (
                  <span className="text-gray-600 italic">{WITHHELD_NAME_TEXT}</span>
                ) : (
                  <>
                    <span className="font-medium text-gray-900">{w.winner.surname ?? "—"}</span>
                    {w.winner.region ? <span className="block text-xs text-gray-500">{w.winner.region}</span> : null}
                  </>
                )}
              </td>
              <td className="px-4 py-2 whitespace-nowrap">
                {w.prize}
                {w.carriedOver ? (
                  <span className="block text-xs text-gray-500">Not claimed: carried to the host's next pool</span>
                ) : null}
              </td>
              <td className="px-4 py-2">{w.hostName ?? "—"}</td>
              <td className="px-4 py-2 whitespace-nowrap">
                <DateText value={w.drawnAt} />
              </td>
              <td className="px-4 py-2">
                <Link to={`/winner-selection/${w.poolId}`} className="font-medium text-brand-700 hover:underline">
                  Verify the draw
                </Link>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={(p) => (p === 1 ? "/winners" : `/winners?page=${p}`)} />
    </Page>
  );
}
