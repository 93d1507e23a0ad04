import { desc, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { columnPlaceholder } from "~/db/prepared.server";
import { guessWinGames, prizePools, products, userProfiles, users } from "~/db/schema";

// Host references: the SQL that names a host (or their current pool) by something else a page has in hand (a
// profile address, a product, a game), as a subquery, so a read keyed by the host goes in the same batch as the
// read of the thing itself. A leaf: the aggregate files import it, it imports none of them.

/**
 * The user id of the profile a /profile/{id} address names, as a subquery: the account with that id (in any case: ids
 * are stored lowercase, an address may be typed in capitals), else the one
 * with that slug; never a suspended or deleted account. Reads keyed by the host use it to go in the same batch as
 * the profile itself.
 */
export function profileHostId(idOrSlug: string | Placeholder): SQL {
  return sql`(select ${userProfiles.userId} from ${userProfiles} inner join ${users} on ${users.id} = ${userProfiles.userId}
    where (${userProfiles.userId} = lower(${idOrSlug}) or ${userProfiles.slug} = ${idOrSlug})
      and ${userProfiles.status} <> 'suspended' and ${users.deletedAt} is null
    order by ${userProfiles.userId} = lower(${idOrSlug}) desc limit 1)`;
}

/** A host as a /profile/{id} address names them (their id or slug): reads keyed by it resolve it themselves. */
export type ProfileAddress = { idOrSlug: string };

/** How a prepared read is keyed by its host: an id, or a profile address resolved in the same query. */
export type HostShape = "id" | "address";
export const hostShape = (host: string | ProfileAddress): HostShape => (typeof host === "string" ? "id" : "address");
export const hostValue = (host: string | ProfileAddress) => (typeof host === "string" ? host : host.idOrSlug);
/** The host placeholder ("host") of a prepared read, compared with `column`. */
export const hostParam = (shape: HostShape, column: AnySQLiteColumn) =>
  shape === "id" ? columnPlaceholder(column, "host") : profileHostId(sql.placeholder("host"));
/** A host in a read built per call: the id, or the profile address resolved in the same query. */
export const hostIdSql = (host: string | ProfileAddress): string | SQL =>
  typeof host === "string" ? host : profileHostId(host.idOrSlug);

/** The host id of a game, as a subquery: reads keyed by the game's host go in the same batch as the game. */
export function gameHostId(gameId: string | Placeholder): SQL {
  return sql`(select ${guessWinGames.hostId} from ${guessWinGames} where ${guessWinGames.id} = ${gameId})`;
}

/**
 * The id of a product's host, as a subquery: reads keyed by the host go in the same batch as the product's own. In a
 * prepared read the product id may be a placeholder.
 */
export function hostOfProduct(productId: string | Placeholder): SQL {
  return sql`(select ${products.hostId} from ${products} where ${products.id} = ${productId})`;
}

/** Which of a host's pools is their current one: the open pool, or else the latest. */
export const currentFirst = [sql`${prizePools.status} = 'open' desc`, desc(prizePools.createdAt)] as const;

/** The id of the host's current pool (the one `getCurrentPool` reads), as a subquery for reads batched with it. */
export function currentPoolIdOf(hostId: string | SQL): SQL {
  return sql`(select ${prizePools.id} from ${prizePools} where ${prizePools.hostId} = ${hostId} order by ${sql.join([...currentFirst], sql`, `)} limit 1)`;
}
