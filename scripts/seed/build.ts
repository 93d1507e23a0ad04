// Builds every row of the demo data in memory, in the order the random choices have always been made (changing the
// order changes the data), and uploads the media.
//
// Every amount the app derives is consistent with the rows made here: a pool's amount is the sum of its
// contributions and its entry count the number of its entries (numbered 0..n-1 by time), followers counts match
// tribe_members, product and game counters match orders and guesses, and drawn pools carry the digest, block and
// winner that the draw rule gives.
import { addOpenPoolFreeEntries } from "./free-entries";
import { addAccounts } from "./accounts";
import { addAdRevenue } from "./ad-revenue";
import { addChat } from "./chat";
import { emptyRows, type Rows, type Seed } from "./context";
import { addDrawnPools } from "./drawn-pools";
import { addPlatformSettings, addSaleEarnings } from "./earnings";
import { addGroupBuy } from "./group-buys";
import { addNotifications } from "./notifications";
import { type R2Like, Uploads } from "./media";
import { addBuyNowOrders, addOpenGames, finishOpenPools, openPools } from "./open-pools";
import { PoolLedger } from "./pools";
import { addProducts, setProductSales } from "./products";
import { addProfiles } from "./profiles";
import { addTransparencyLog } from "./transparency-log";
import { addSpendLimits } from "./spend-limits";
import { addTribes } from "./tribes";

export async function buildRows(media: R2Like, siteOrigin: string): Promise<{ rows: Rows; uploads: number }> {
  const rows = emptyRows();
  const uploads = new Uploads();
  const accounts = await addAccounts(rows, uploads);
  const seed: Seed = { ...accounts, rows, uploads, siteOrigin, productRow: new Map(), pools: new PoolLedger(rows) };
  addTribes(seed);
  addProducts(seed);
  await addDrawnPools(seed);

  const pools = openPools(seed);
  const demoPoolId = pools.get(seed.demoHost.id)!;
  addAdRevenue(seed, demoPoolId);
  addGroupBuy(seed, demoPoolId);
  addBuyNowOrders(seed, pools);
  addOpenGames(seed, pools);
  addOpenPoolFreeEntries(seed, pools);
  finishOpenPools(seed, pools);

  addProfiles(seed);
  setProductSales(seed);
  addChat(seed);
  addNotifications(seed);
  addSaleEarnings(rows);
  addPlatformSettings(rows);
  await addTransparencyLog(rows);
  addSpendLimits(seed);
  return { rows, uploads: await uploads.write(media) };
}
