import { and, type AnyColumn, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { cartItems, userProfiles } from "~/db/schema";
import { MAX_CART_LINES, type CartLine } from "~/domain/cart";
import { MAX_ORDER_QUANTITY } from "~/domain/orders";

const lineColumns = {
  productId: cartItems.productId,
  sizeName: cartItems.sizeName,
  colorName: cartItems.colorName,
  quantity: cartItems.quantity,
};

const lineIs = (userId: string, line: Pick<CartLine, "productId" | "sizeName" | "colorName">) =>
  and(
    eq(cartItems.userId, userId),
    eq(cartItems.productId, line.productId),
    eq(cartItems.sizeName, line.sizeName),
    eq(cartItems.colorName, line.colorName),
  );

/** Cart rows per insert (seven parameters each: D1 binds at most 100 per statement). */
const CART_ROWS_PER_INSERT = 10;

/**
 * A fan's cart lines, oldest first: up to one past MAX_CART_LINES, so that a cart that outgrew the limit (two adds
 * racing) is seen, and refused at checkout, rather than silently cut.
 */
export function listCartLines(db: Db, userId: string): Promise<CartLine[]> {
  return db
    .select(lineColumns)
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.productId))
    .limit(MAX_CART_LINES + 1);
}

/**
 * Adds a line (or more of it) to a fan's cart in one statement: a new line is inserted only while the cart holds
 * fewer than MAX_CART_LINES lines; an existing one grows up to `maxQuantity`. Returns the line's quantity now, or
 * null when the cart was full.
 */
export async function addCartItem(db: Db, userId: string, line: CartLine, maxQuantity: number): Promise<number | null> {
  const cap = Math.max(1, Math.min(MAX_ORDER_QUANTITY, maxQuantity));
  const quantity = Math.min(cap, Math.max(1, line.quantity));
  const now = Date.now();
  const rows = await db.run(sql`
    insert into ${cartItems} (user_id, product_id, size_name, color_name, quantity, created_at, updated_at)
    select ${userId}, ${line.productId}, ${line.sizeName}, ${line.colorName}, ${quantity}, ${now}, ${now}
    where exists (select 1 from ${cartItems} where ${lineIs(userId, line)})
       or (select count(*) from ${cartItems} where ${cartItems.userId} = ${userId}) < ${MAX_CART_LINES}
    on conflict (user_id, product_id, size_name, color_name)
    do update set quantity = min(${cap}, ${cartItems.quantity} + excluded.quantity), updated_at = excluded.updated_at`);
  void rows;
  const [row] = await db.select({ quantity: cartItems.quantity }).from(cartItems).where(lineIs(userId, line)).limit(1);
  return row?.quantity ?? null;
}

/**
 * Changes a line of a fan's cart in one batch (decision 600): its quantity, or its size and colour too. A line moved
 * to another size and colour keeps its place in the cart; moved onto a line the cart already has, the two merge
 * (quantities added, at most `max`) and the other line keeps its place. False when the fan's cart has no such line.
 */
export async function changeCartItem(
  db: Db,
  userId: string,
  change: { from: Pick<CartLine, "productId" | "sizeName" | "colorName">; to: CartLine; max: number },
): Promise<boolean> {
  const { from, to } = change;
  const now = Date.now();
  if (from.sizeName === to.sizeName && from.colorName === to.colorName) {
    const updated = await db
      .update(cartItems)
      .set({ quantity: to.quantity, updatedAt: new Date(now) })
      .where(lineIs(userId, from))
      .returning({ productId: cartItems.productId });
    return updated.length === 1;
  }
  const cap = Math.max(1, Math.min(MAX_ORDER_QUANTITY, change.max));
  const [, removed] = await db.batch([
    // The new line takes the old one's place (its created_at); a line already there takes the units (ON CONFLICT).
    db
      .insert(cartItems)
      .select(
        sql`select ${cartItems.userId}, ${cartItems.productId}, ${to.sizeName}, ${to.colorName}, ${Math.min(cap, to.quantity)}, ${cartItems.createdAt}, ${now}
          from ${cartItems} where ${lineIs(userId, from)}`,
      )
      .onConflictDoUpdate({
        target: [cartItems.userId, cartItems.productId, cartItems.sizeName, cartItems.colorName],
        set: {
          quantity: sql`min(${cap}, ${cartItems.quantity} + excluded.quantity)`,
          updatedAt: sql`excluded.updated_at`,
        },
      }),
    db.delete(cartItems).where(lineIs(userId, from)).returning({ productId: cartItems.productId }),
  ]);
  return removed.length === 1;
}

/** Removes a line; false when the fan's cart has no such line. */
export async function removeCartItem(
  db: Db,
  userId: string,
  line: Pick<CartLine, "productId" | "sizeName" | "colorName">,
): Promise<boolean> {
  const removed = await db.delete(cartItems).where(lineIs(userId, line)).returning({ productId: cartItems.productId });
  return removed.length === 1;
}

/**
 * Replaces a fan's cart with `lines` (the merge at sign-in computes them from the account's and the visitor's
 * cart) in one batch.
 */
export async function replaceCartLines(db: Db, userId: string, lines: readonly CartLine[]): Promise<void> {
  const now = new Date();
  const rows = lines.slice(0, MAX_CART_LINES).map((l, i) => ({
    userId,
    productId: l.productId,
    sizeName: l.sizeName,
    colorName: l.colorName,
    quantity: l.quantity,
    // Keeps the merged order on /cart (oldest first).
    createdAt: new Date(now.getTime() - (lines.length - i)),
    updatedAt: now,
  }));
  // Seven parameters a row: a few rows per insert, so no statement binds more than D1's 100.
  const inserts = [];
  for (let i = 0; i < rows.length; i += CART_ROWS_PER_INSERT)
    inserts.push(db.insert(cartItems).values(rows.slice(i, i + CART_ROWS_PER_INSERT)));
  await db.batch([db.delete(cartItems).where(eq(cartItems.userId, userId)), ...inserts]);
}

/** Takes paid lines out of a fan's cart (a line bought in a smaller quantity than wanted keeps the rest). */
export async function removePurchasedCartLines(db: Db, userId: string, bought: readonly CartLine[]): Promise<void> {
  if (bought.length === 0) return;
  await db.batch(
    bought.flatMap((line) => [
      db.delete(cartItems).where(and(lineIs(userId, line), sql`${cartItems.quantity} <= ${line.quantity}`)),
      db
        .update(cartItems)
        .set({ quantity: sql`${cartItems.quantity} - ${line.quantity}` })
        .where(and(lineIs(userId, line), sql`${cartItems.quantity} > ${line.quantity}`)),
    ]) as unknown as Parameters<Db["batch"]>[0],
  );
}

/** The count the nav bar shows, as a column of the session's one query. */
export function cartCountColumn(userId: AnyColumn) {
  return sql<number>`(select coalesce(sum(${cartItems.quantity}), 0) from ${cartItems} where ${cartItems.userId} = ${userId})`;
}

/** Host names for the cart's groups, and whether each host's account is suspended (it cannot take payments). */
export async function listCartHosts(db: Db, hostIds: readonly string[]) {
  if (hostIds.length === 0) return [];
  return db
    .select({ hostId: userProfiles.userId, creatorName: userProfiles.creatorName, status: userProfiles.status })
    .from(userProfiles)
    .where(inArray(userProfiles.userId, [...hostIds]));
}
