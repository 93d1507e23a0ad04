import { Tile } from "~/components/cards";
import { LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { countHostGames } from "~/db/queries/games.server";
import { countOpenHostOrders } from "~/db/queries/orders.server";
import { countLiveHostProducts } from "~/db/queries/product-admin.server";
import { formatCents } from "~/domain/money";
import { getOpenPool } from "~/lib/pools.server";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { miniPrizeNotices, prizeNotices } from "~/lib/payments/connect/prizes.server";
import { PrizeNotice } from "~/components/prize-notice";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => pageMeta("Dashboard");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const [products, openOrders, games, pool, prizes, miniPrizes] = await Promise.all([
    countLiveHostProducts(db, user.id),
    countOpenHostOrders(db, user.id),
    countHostGames(db, user.id),
    getOpenPool(env, user.id),
    prizeNotices(env, user.id),
    miniPrizeNotices(env, user.id),
  ]);
  const poolAmount = formatCents(pool?.amountCents ?? 0, pool?.currency ?? "USD");
  return { creatorName: user.creatorName, counts: { products, openOrders, games, poolAmount }, prizes, miniPrizes };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { creatorName, counts, prizes, miniPrizes } = loaderData;
  return (
    <Page
      title="Dashboard"
      subtitle={`Welcome back, ${creatorName}.`}
      actions={
        <>
          <LinkButton to="/add-product" variant="secondary">
            Add Product
          </LinkButton>
          <LinkButton to="/create-guess-win">Create Game</LinkButton>
        </>
      }
    >
      <PrizeNotice prizes={prizes} miniPrizes={miniPrizes} />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <li>
          <Tile to="/revenue" title="Revenue" description="Your sales, entry fees and earnings." />
        </li>
        <li>
          <Tile
            to="/revenue-management"
            title="Revenue Management"
            description="Available balance, withdrawals and revenue by period."
          />
        </li>
        <li>
          <Tile
            to="/shop-management"
            title="Shop Management"
            description="Products you sell."
            figure={counts.products}
          />
        </li>
        <li>
          <Tile
            to="/guess-win-management"
            title="Guess & Win Management"
            description="Your Guess & Win games."
            figure={counts.games}
          />
        </li>
        <li>
          <Tile
            to="/prize-pool-management"
            title="Prize Pool Management"
            description="Your pool, its sources and winners."
            figure={counts.poolAmount}
          />
        </li>
        <li>
          <Tile to="/group-buy-management" title="Group Buy Management" description="Tiered-discount group buys." />
        </li>
        <li>
          <Tile
            to="/orders"
            title="Customer Orders"
            description="Open orders waiting for you."
            figure={counts.openOrders}
          />
        </li>
        <li>
          <Tile to="/my-orders" title="My Orders" description="Things you bought." />
        </li>
        <li>
          <Tile to="/wishlist" title="Wishlist" description="Products you added to your wishlist." />
        </li>
        <li>
          <Tile to="/ads-revenue" title="Ads Revenue" description="Ad earnings and their share of your pool." />
        </li>
        <li>
          <Tile to="/tribe" title="Tribe" description="Your members, top contributors and recent winners." />
        </li>
        <li>
          <Tile to="/prize-pool" title="Prize Pool" description="Your pools, past and present." />
        </li>
        <li>
          <Tile to="/prize-pool-details" title="Prize Pool Details" description="Entries, mini prizes and winners." />
        </li>
        <li>
          <Tile to="/prize-pool-settings" title="Prize Pool Settings" description="Target, end date and mini prizes." />
        </li>
        <li>
          <Tile to="/voucher-scanner" title="Voucher Scanner" description="Redeem your customers' vouchers." />
        </li>
        <li>
          <Tile to="/chat" title="Chat" description="Messages with your tribe." />
        </li>
        <li>
          <Tile to="/settings" title="Settings" description="Profile, shipping, notifications, privacy and account." />
        </li>
      </ul>
    </Page>
  );
}
