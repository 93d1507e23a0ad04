import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * Whether `column` contains `text` (a typed search), ignoring ASCII case as LIKE does: `instr(lower(column),
 * lower(text)) > 0`. Not LIKE: D1 refuses a LIKE pattern longer than 50 bytes ('LIKE or GLOB pattern too complex'),
 * which a search box of 100 characters reaches, and the text needs no escaping (a typed % or _ matches itself).
 * `text` is a value or a placeholder of a prepared read. A NULL column matches nothing.
 */
export function containsText(column: SQLWrapper, text: string | SQLWrapper): SQL {
  return sql`instr(lower(${column}), lower(${text})) > 0`;
}
