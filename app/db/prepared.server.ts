import { Column, getTableName, is, Param, sql, SQL, Subquery, type SQLWrapper } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Db } from "./client.server";

// Reads whose SQL is built once per isolate.
//
// drizzle builds a query's SQL text from its builder objects on every call: the select list, joins and conditions
// are walked, each table and column name escaped and each value turned into a parameter. For the reads every page
// makes (the session's account, a page of products) that was a measurable share of a request's CPU
// (docs/scale.md). drizzle's own prepared queries keep the SQL, but each is tied to the D1 client it was prepared
// on, and every request has its own client (its D1 session, ./client.server.ts).
//
// So a read here is prepared once per isolate, with `sql.placeholder()` where its values go, against a client
// that is never called; a request then runs it through its own client: a copy of the prepared query (its SQL,
// select list and row mapping shared) whose statement comes from the request's D1 session. The read batcher
// (./read-batch.server.ts) sees the same statement text it would see otherwise, so batching is unchanged.

/** A drizzle prepared select over D1, as `.prepare()` returns it. */
type PreparedRead = { getQuery(): { sql: string }; all(values?: Record<string, unknown>): Promise<unknown[]> };

/** What drizzle keeps on a prepared select (internal fields, read once per prepared read). */
type SelectInternals = {
  fields?: { path: string[]; field: unknown }[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
};

/** Stands in for D1 while a read is prepared: drizzle asks it for a statement it never runs. */
const templateDb: Db = drizzle({ prepare: () => ({}) } as unknown as D1Database);

/**
 * A read prepared once per isolate and run on each request's `db`. `build` makes the drizzle query with
 * `sql.placeholder()`s and calls `.prepare()`; the returned function gives the request its copy, whose `all()` and
 * `get()` take the placeholders' values. When the query's shape depends on the request (which filters are present),
 * `variant` describes the shape and `key` names it: each shape is prepared once.
 */
export function preparedRead<P extends PreparedRead, V = void>(
  build: (db: Db, variant: V) => P,
  key: (variant: V) => string = () => "",
): (db: Db, variant: V) => P {
  const prepared = new Map<string, P>();
  return (db, variant) => {
    const name = key(variant);
    let template = prepared.get(name);
    if (!template) {
      template = build(templateDb, variant);
      planRows(template as unknown as SelectInternals);
      prepared.set(name, template);
    }
    const statement = db.$client.prepare(template.getQuery().sql);
    return Object.create(template, { stmt: { value: statement }, get: { value: firstRow } }) as P;
  };
}

/**
 * A placeholder compared with `column`: its value is stored the way the column stores it (a Date as the column's
 * timestamp, a boolean as 0/1), as drizzle does for a value written in place. A bare `sql.placeholder()` is bound as
 * it is given.
 */
export function columnPlaceholder(column: Column, name: string): Param {
  return new Param(sql.placeholder(name), column);
}

/**
 * A subquery with placeholders and this request's values for them, for reads that compare with it (e.g. the ids of
 * the orders a page lists, read again for their refunds): such a read is prepared once per `key` (the subquery's
 * shape) with `template` in it, and run with `values`. Anywhere else it is the same subquery with its values in place.
 */
export type PreparedSubquery = SQLWrapper & {
  readonly key: string;
  readonly values: Record<string, unknown>;
  /** The subquery with its placeholders, for a read being prepared on `db`. */
  template(db: Db): SQLWrapper;
};

export function isPreparedSubquery(value: unknown): value is PreparedSubquery {
  return typeof value === "object" && value !== null && "template" in value && "key" in value && "values" in value;
}

/** `get()` of a prepared read: its first row (the row mapper below maps all rows, as `all()` does). */
async function firstRow(this: PreparedRead, values?: Record<string, unknown>) {
  const rows = await this.all(values);
  return rows[0];
}

type ColumnPlan = { path: string[]; decoder: { mapFromDriverValue(value: unknown): unknown }; table?: string };

/**
 * Gives a prepared select its own row mapper, worked out once from its select list: drizzle's works out each
 * column's decoder again for every row it maps. The result is the same: each value decoded as drizzle decodes it,
 * nested under its path, and a left-joined table selected as a whole read as null when all its columns are null.
 */
function planRows(query: SelectInternals) {
  if (!query.fields) return;
  const plan: ColumnPlan[] = query.fields.map(({ path, field }) => {
    const table = is(field, Column) && path.length === 2 ? getTableName(field.table) : undefined;
    const decoder = is(field, Column)
      ? field
      : is(field, SQL)
        ? decoderOf(field)
        : is(field, Subquery)
          ? decoderOf(field._.sql as SQL)
          : decoderOf((field as SQL.Aliased).sql);
    return { path, decoder, table };
  });
  const joinsNotNullableMap = query.joinsNotNullableMap;
  query.customResultMapper = (rows) => rows.map((row) => mapRow(plan, row, joinsNotNullableMap));
}

/** The decoder drizzle keeps on a SQL expression (`.mapWith()`'s, else one that passes values through). */
const decoderOf = (expression: SQL) => (expression as unknown as { decoder: ColumnPlan["decoder"] }).decoder;

function mapRow(plan: ColumnPlan[], row: unknown[], joinsNotNullableMap: Record<string, boolean> | undefined) {
  const result: Record<string, unknown> = {};
  let nullable: Record<string, string | false> | undefined;
  for (let i = 0; i < plan.length; i++) {
    const { path, decoder, table } = plan[i]!;
    let node = result;
    const last = path.length - 1;
    for (let j = 0; j < last; j++) node = (node[path[j]!] ??= {}) as Record<string, unknown>;
    const raw = row[i];
    const value = raw === null ? null : decoder.mapFromDriverValue(raw);
    node[path[last]!] = value;
    if (joinsNotNullableMap && table !== undefined) {
      nullable ??= {};
      const objectName = path[0]!;
      if (!(objectName in nullable)) nullable[objectName] = value === null ? table : false;
      else if (nullable[objectName] !== table) nullable[objectName] = false;
    }
  }
  if (nullable && joinsNotNullableMap) {
    for (const [objectName, table] of Object.entries(nullable)) {
      if (typeof table === "string" && !joinsNotNullableMap[table]) result[objectName] = null;
    }
  }
  return result;
}
